// Read-only views of input files: an owned file descriptor and a whole-file
// mapping. Both check the cases users hit: missing file, a directory, an
// empty file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

// "a FIFO (pipe)", "a directory", ...: what a non-regular file is, for messages.
const char* file_kind(unsigned mode);

class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();

  // Opens a regular file for reading; throws InputError naming the path.
  static FileDescriptor open_for_reading(const std::string& path);

  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  uint64_t size() const;

  // pread until `length` bytes are read; a short file is an InputError.
  void read_exactly(void* buffer, uint64_t length, uint64_t offset, const std::string& path) const;

 private:
  int fd_ = -1;
};

class MappedFile {
 public:
  MappedFile() = default;
  explicit MappedFile(const std::string& path, bool allow_empty = false);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const char* data() const { return data_; }
  uint64_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace sluice
