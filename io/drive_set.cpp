#include "io/drive_set.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>

namespace sluice::io {

DriveFile::DriveFile(std::string path, bool want_direct) : path_(std::move(path)) {
  // A drive is a regular file or a block device; looked at before opening,
  // since opening a FIFO would wait for a writer.
  struct stat before {};
  if (::stat(path_.c_str(), &before) == 0 && !S_ISREG(before.st_mode) && !S_ISBLK(before.st_mode)) {
    throw std::runtime_error(path_ + ": is " + (S_ISDIR(before.st_mode) ? "a directory" : S_ISFIFO(before.st_mode) ? "a FIFO" : "not a regular file") +
                             ", expected a drive file (a regular file or a block device)");
  }
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
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    ::close(fd_);
    throw std::runtime_error(path_ + ": is not a regular file or block device, expected a drive file");
  }
  size_ = uint64_t(st.st_size);
  if (S_ISBLK(st.st_mode)) {
    uint64_t bytes = 0;
    if (::ioctl(fd_, BLKGETSIZE64, &bytes) != 0) {
      int err = errno;
      ::close(fd_);
      throw std::runtime_error(path_ + ": cannot read the block device's size: " + std::strerror(err));
    }
    size_ = bytes;
  }
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
