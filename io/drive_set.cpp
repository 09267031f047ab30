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

namespace {
// The file behind an open descriptor, opened anew (its own offset and
// flags): /proc/self/fd/N is that file even after it was renamed over.
std::string reopenable(const std::string& path, int same_as) {
  if (same_as < 0) return path;
  const std::string link = "/proc/self/fd/" + std::to_string(same_as);
  struct stat st {};
  return ::stat(link.c_str(), &st) == 0 ? link : path;
}
}  // namespace

DriveFile::DriveFile(std::string path, bool want_direct, int same_as) : path_(std::move(path)) {
  const std::string open_path = reopenable(path_, same_as);
  // A drive is a regular file or a block device; looked at before opening,
  // since opening a FIFO would wait for a writer.
  struct stat before {};
  if (::stat(open_path.c_str(), &before) == 0 && !S_ISREG(before.st_mode) && !S_ISBLK(before.st_mode)) {
    throw std::runtime_error(path_ + ": is " + (S_ISDIR(before.st_mode) ? "a directory" : S_ISFIFO(before.st_mode) ? "a FIFO" : "not a regular file") +
                             ", expected a drive file (a regular file or a block device)");
  }
  if (want_direct) {
    fd_ = ::open(open_path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd_ >= 0) {
      direct_ = true;
    } else if (errno == EINVAL) {
      std::cerr << "warning: " << path_ << ": the file system refuses O_DIRECT; reading through the page cache\n";
    } else {
      throw std::runtime_error(path_ + ": cannot open drive file: " + std::strerror(errno));
    }
  }
  if (fd_ < 0) {
    fd_ = ::open(open_path.c_str(), O_RDONLY | O_CLOEXEC);
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
  struct stat checked {};
  if (same_as >= 0 && ::fstat(same_as, &checked) == 0 && (checked.st_dev != st.st_dev || checked.st_ino != st.st_ino)) {
    ::close(fd_);  // /proc was not there to reopen the file, and the path now names another
    fd_ = -1;
    throw std::runtime_error(path_ + ": the drive file was replaced while in use (converted again while this run opened "
                             "it); run again");
  }
}

DriveFile::DriveFile(DriveFile&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_), direct_(o.direct_), device_(o.device_) {}

DriveFile::~DriveFile() {
  if (fd_ >= 0) ::close(fd_);
}

DriveSet::DriveSet(const std::vector<std::string>& paths, bool want_direct, uint64_t page_bytes, const std::vector<int>& same_as)
    : page_bytes_(page_bytes) {
  if (paths.empty()) throw std::invalid_argument("a drive set needs at least one drive file");
  files_.reserve(paths.size());
  for (size_t d = 0; d < paths.size(); ++d) files_.emplace_back(paths[d], want_direct, same_as.empty() ? -1 : same_as.at(d));
}

}  // namespace sluice::io
