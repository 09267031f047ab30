#include "io/drive_set.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>

namespace sluice::io {

DriveFile::DriveFile(std::string path, bool want_direct) : path_(std::move(path)) {
  if (want_direct) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd_ >= 0) {
      direct_ = true;
    } else if (errno == EINVAL) {
      std::cerr << "warning: " << path_ << ": the file system refuses O_DIRECT; reading through the page cache\n";
    } else {
      throw std::runtime_error(path_ + ": cannot open drive file: " + std::strerror(errno));
    }
  }
  if (fd_ < 0) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(path_ + ": cannot open drive file: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    int err = errno;
    ::close(fd_);
    throw std::runtime_error(path_ + ": fstat: " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    throw std::runtime_error(path_ + ": is a directory, expected a drive file");
  }
  size_ = uint64_t(st.st_size);
  device_ = uint64_t(st.st_dev);
}

DriveFile::DriveFile(DriveFile&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_), direct_(o.direct_), device_(o.device_) {}

DriveFile::~DriveFile() {
  if (fd_ >= 0) ::close(fd_);
}

DriveSet::DriveSet(const std::vector<std::string>& paths, bool want_direct, uint64_t page_bytes) : page_bytes_(page_bytes) {
  if (paths.empty()) throw std::invalid_argument("a drive set needs at least one drive file");
  files_.reserve(paths.size());
  for (auto& p : paths) files_.emplace_back(p, want_direct);
}

}  // namespace sluice::io
