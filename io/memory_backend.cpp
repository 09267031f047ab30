// The memory backend: the whole drive file is read into DRAM when the
// backend is made, and requests are served by memcpy. It runs the same
// engine with the storage taken out of the path, which is the in-memory
// baseline the benchmarks compare against (`--io memory`).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "io/read_backend.hpp"

namespace sluice::io {

namespace {

class MemoryBackend : public ReadBackend {
 public:
  explicit MemoryBackend(int fd) {
    struct stat st{};
    if (::fstat(fd, &st) != 0) throw std::runtime_error(std::string("cannot stat the drive file: ") + std::strerror(errno));
    try {
      data_.resize(uint64_t(st.st_size));
    } catch (const std::bad_alloc&) {
      throw std::runtime_error("not enough memory to hold the drive file (" + std::to_string(st.st_size) + " bytes) in memory");
    }
    // Through a bounce buffer: the file may be open with O_DIRECT.
    base::AlignedBuffer bounce(1 << 20);
    for (uint64_t at = 0; at < data_.size();) {
      ssize_t n = ::pread(fd, bounce.data(), bounce.size(), off_t(at));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::runtime_error(std::string("cannot read the drive file: ") + std::strerror(errno));
      if (n == 0) break;
      uint64_t take = std::min<uint64_t>(uint64_t(n), data_.size() - at);
      std::memcpy(data_.data() + at, bounce.data(), take);
      at += take;
    }
  }
  const char* name() const override { return "memory"; }
  void submit(std::span<ReadRequest* const> requests) override { pending_.insert(pending_.end(), requests.begin(), requests.end()); }
  size_t wait(std::span<ReadRequest*> done, size_t) override {
    size_t count = 0;
    while (count < done.size() && !pending_.empty()) {
      ReadRequest* r = pending_.front();
      pending_.pop_front();
      uint64_t available = r->offset < data_.size() ? std::min<uint64_t>(r->length, data_.size() - r->offset) : 0;
      std::memcpy(r->buffer, data_.data() + r->offset, available);
      r->result = int64_t(available);
      done[count++] = r;
    }
    return count;
  }

 private:
  std::vector<char> data_;
  std::deque<ReadRequest*> pending_;
};

}  // namespace

std::unique_ptr<ReadBackend> make_memory_backend(int fd) { return std::make_unique<MemoryBackend>(fd); }

}  // namespace sluice::io
