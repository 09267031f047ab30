// An IO failure that names the drive file and the byte offset.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sluice::io {

class IoError : public std::runtime_error {
 public:
  IoError(const std::string& path, unsigned drive, uint64_t offset, const std::string& what)
      : std::runtime_error(path + " (drive " + std::to_string(drive) + ") at byte " + std::to_string(offset) + ": " + what),
        drive_(drive),
        offset_(offset) {}
  unsigned drive() const { return drive_; }
  uint64_t offset() const { return offset_; }

 private:
  unsigned drive_;
  uint64_t offset_;
};

}  // namespace sluice::io
