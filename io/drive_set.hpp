// The drive files of one edge array: one file per drive, opened with
// O_DIRECT where the file system allows it (buffered, with a warning, where
// it does not: tmpfs, some network file systems), and the page-interleaving
// arithmetic of the on-disk layout: page p is on drive p mod N at byte
// (p div N) * page_bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::io {

class DriveFile {
 public:
  // same_as: a descriptor of this drive file already open (-1: none); the
  // file opened is then that very file, even if another was renamed onto
  // `path` since, and `path` only names it in messages.
  DriveFile(std::string path, bool want_direct, int same_as = -1);
  DriveFile(DriveFile&& o) noexcept;
  DriveFile(const DriveFile&) = delete;
  DriveFile& operator=(const DriveFile&) = delete;
  DriveFile& operator=(DriveFile&&) = delete;
  ~DriveFile();

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  bool direct() const { return direct_; }
  // Device id (st_dev) of the file system holding the file: profiles are per device.
  uint64_t device() const { return device_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  bool direct_ = false;
  uint64_t device_ = 0;
};

class DriveSet {
 public:
  // same_as: descriptors of the drive files already open, one per path (see DriveFile), or empty.
  DriveSet(const std::vector<std::string>& paths, bool want_direct = true, uint64_t page_bytes = 4096,
           const std::vector<int>& same_as = {});

  unsigned drives() const { return unsigned(files_.size()); }
  const DriveFile& drive(unsigned d) const { return files_[d]; }
  uint64_t page_bytes() const { return page_bytes_; }
  unsigned drive_of(uint64_t page) const { return unsigned(page % files_.size()); }
  uint64_t offset_on_drive(uint64_t page) const { return page / files_.size() * page_bytes_; }

 private:
  std::vector<DriveFile> files_;
  uint64_t page_bytes_;
};

}  // namespace sluice::io
