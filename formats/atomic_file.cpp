#include "formats/atomic_file.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "formats/errors.hpp"

namespace sluice {

AtomicFile::AtomicFile(std::string path, size_t buffer_bytes)
    : path_(std::move(path)), buffer_(buffer_bytes) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw std::runtime_error(path_ + ": is a directory, expected a file name to write");
  }
  std::string pattern = path_ + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw_system_error(path_, "cannot create output file");
  temp_path_ = name.data();
  ::fchmod(fd_, 0644);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)),
      used_(std::exchange(other.used_, 0)),
      written_(std::exchange(other.written_, 0)) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_path_.c_str());
  }
}

void AtomicFile::flush() {
  size_t done = 0;
  while (done < used_) {
    ssize_t put = ::write(fd_, buffer_.data() + done, used_ - done);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw_system_error(path_, "write failed");
    }
    done += static_cast<size_t>(put);
  }
  used_ = 0;
}

void AtomicFile::write(const void* data, size_t length) {
  const char* bytes = static_cast<const char*>(data);
  written_ += length;
  while (length > 0) {
    if (used_ == buffer_.size()) flush();
    size_t take = std::min(length, buffer_.size() - used_);
    std::memcpy(buffer_.data() + used_, bytes, take);
    used_ += take;
    bytes += take;
    length -= take;
  }
}

void AtomicFile::write_zeros(size_t length) {
  written_ += length;
  while (length > 0) {
    if (used_ == buffer_.size()) flush();
    size_t take = std::min(length, buffer_.size() - used_);
    std::memset(buffer_.data() + used_, 0, take);
    used_ += take;
    length -= take;
  }
}

void AtomicFile::finish() {
  flush();
  if (::fsync(fd_) != 0) throw_system_error(path_, "fsync failed");
}

void AtomicFile::publish() {
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) throw_system_error(path_, "rename failed");
  ::close(fd_);
  fd_ = -1;
}

void commit_all(std::vector<AtomicFile>& files) {
  // Renames are the last step; flush and sync everything first so a failure
  // there still leaves nothing behind.
  for (auto& file : files) file.finish();
  for (auto& file : files) file.publish();
}

}  // namespace sluice
