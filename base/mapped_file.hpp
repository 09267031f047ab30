// Read-only views of input files: an owned file descriptor and a whole-file
// mapping. Both check the cases users hit: missing file, a directory, an
// empty file. A compressed file (gzip, zstd), standard input ("-") or a
// pipe is decoded into anonymous memory instead: the same view, no
// temporary file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::base {

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
  // An input that may also be read as a stream: a regular file, a pipe
  // (FIFO, `<(zcat ...)`), or "-" for standard input.
  static FileDescriptor open_input(const std::string& path);

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

// Inputs that can be read only once (standard input, pipes): they must be
// read into a MappedFile before anything looks at their first bytes.
bool is_read_once(const std::string& path);

class MappedFile {
 public:
  MappedFile() = default;
  // Maps a regular file; decodes a compressed one, standard input ("-") or
  // a pipe into memory (asking for the memory first).
  // progress: decoding progress on a terminal. scratch_dir: decode into an
  // unlinked scratch file there instead (conversion in bounded memory).
  explicit MappedFile(const std::string& path, bool allow_empty = false, bool progress = false,
                      const std::string& scratch_dir = "");
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const char* data() const { return data_; }
  uint64_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  // Drops the pages of bytes [begin, end) from the process's memory (a
  // file's pages are read again if touched); a no-op for bytes decoded
  // into memory, which exist nowhere else.
  void release(uint64_t begin, uint64_t end) const;

 private:
  void decode(int fd, uint64_t raw_bytes, bool progress);
  void decode_to_scratch(int fd, uint64_t raw_bytes, bool progress, const std::string& dir);
  void map(int fd);
  std::string path_;
  bool file_backed_ = false;  // a file's pages (release() may drop them)
  const char* data_ = nullptr;
  uint64_t size_ = 0;
  uint64_t mapped_ = 0;  // bytes of the mapping (decoded inputs map more than they fill)
};

}  // namespace sluice::base
