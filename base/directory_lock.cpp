#include "base/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

#include "base/errors.hpp"

namespace sluice::base {

DirectoryLock::DirectoryLock(const std::string& dir) {
  const std::string path = dir.empty() ? "." : dir;
  fd_ = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw_system_error(path, "cannot open the directory to lock it");
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd_);
    errno = error;
    throw_system_error(path, "cannot lock the directory");
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace sluice::base
