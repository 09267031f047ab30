// An exclusive lock on a directory (flock on its descriptor), held while a
// writer puts a group of files in place there: two conversions of one
// layout that finish at once rename their files one group after the
// other, so the layout left is one of them whole, never a mix.
#pragma once

#include <string>

namespace sluice::base {

class DirectoryLock {
 public:
  explicit DirectoryLock(const std::string& dir);  // waits for the lock
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace sluice::base
