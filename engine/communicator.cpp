#include "engine/communicator.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"

namespace sluice::engine {

namespace {

// One process's "shared" file: its own descriptor, written in place.
class LocalFile final : public SharedFile {
 public:
  explicit LocalFile(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_WRONLY | O_CLOEXEC)) {
    if (fd_.get() < 0) base::throw_system_error(path, "cannot be opened for writing");
  }
  void write_at(uint64_t offset, std::span<const char> bytes) override {
    while (!bytes.empty()) {
      const ssize_t n = ::pwrite(fd_.get(), bytes.data(), bytes.size(), off_t(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) base::throw_system_error(path_, "write failed");
      bytes = bytes.subspan(size_t(n));
      offset += uint64_t(n);
    }
  }
  void close() override {
    if (::fsync(fd_.get()) != 0) base::throw_system_error(path_, "fsync failed");
    fd_ = base::FileDescriptor();
  }

 private:
  std::string path_;
  base::FileDescriptor fd_;
};

}  // namespace

std::unique_ptr<SharedFile> SingleProcess::open_shared(const std::string& path) { return std::make_unique<LocalFile>(path); }

}  // namespace sluice::engine
