// Scratch files of a conversion in bounded memory: opened unlinked
// (O_TMPFILE, or created and unlinked at once where the file system has
// none), so no name is ever left behind, whether the process ends, fails,
// is interrupted or is killed. A full disk is an error naming the
// directory and the bytes written, not a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/mapped_file.hpp"

namespace sluice::base {

class TempFile {
 public:
  // `what` names the file in messages ("the spilled edges").
  TempFile(const std::string& dir, std::string what);
  TempFile(TempFile&&) noexcept = default;
  TempFile& operator=(TempFile&&) noexcept = default;

  // Writes at the end, or at `offset`; ENOSPC and EDQUOT say which
  // directory is full.
  void append(const void* data, uint64_t bytes) { write(data, bytes, size_); }
  void write(const void* data, uint64_t bytes, uint64_t offset);
  // pread of bytes written before; throws past the end.
  void read(void* out, uint64_t bytes, uint64_t offset) const;
  uint64_t size() const { return size_; }
  const std::string& dir() const { return dir_; }
  int descriptor() const { return file_.get(); }
  // Bytes written to every TempFile of the process so far.
  static uint64_t bytes_written();
  // Frees the disk space of bytes [offset, offset + bytes), which read as zeros after.
  void discard(uint64_t offset, uint64_t bytes);

 private:
  FileDescriptor file_;
  std::string dir_, what_;
  uint64_t size_ = 0;
};

// Writes consecutive bytes from `at` on (by default the end) through a
// buffer of `bytes`: the writes to a TempFile are few and large.
class TempFileAppender {
 public:
  TempFileAppender(TempFile& file, uint64_t bytes, uint64_t at = UINT64_MAX);
  ~TempFileAppender() noexcept(false);
  TempFileAppender(const TempFileAppender&) = delete;
  TempFileAppender& operator=(const TempFileAppender&) = delete;
  TempFileAppender(TempFileAppender&&) noexcept = default;

  // Room for `bytes` (no more than the buffer holds) at the buffer's end,
  // to be filled at once: a small record written in place, with no call
  // per record.
  char* reserve(uint64_t bytes) {
    if (size_ + bytes > capacity_) [[unlikely]] make_room(bytes);
    char* at = buffer_.get() + size_;
    size_ += bytes;
    return at;
  }
  void flush();

 private:
  void make_room(uint64_t bytes);

  TempFile* file_;
  std::unique_ptr<char[]> buffer_;
  uint64_t capacity_, size_ = 0, at_;
};

}  // namespace sluice::base
