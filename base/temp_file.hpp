// Scratch files of a conversion in bounded memory: opened unlinked
// (O_TMPFILE, or created and unlinked at once where the file system has
// none), so no name is ever left behind, whether the process ends, fails,
// is interrupted or is killed. A full disk is an error naming the
// directory and the bytes written, not a crash.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "base/mapped_file.hpp"
#include "base/serial_worker.hpp"

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
// buffer of `bytes`: the writes to a TempFile are few and large. With a
// worker, the buffer is two of half the size, one filled while the
// worker writes the other (as AtomicFile::write_behind does).
class TempFileAppender {
 public:
  TempFileAppender(TempFile& file, uint64_t bytes, uint64_t at = UINT64_MAX, SerialWorker* worker = nullptr);
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
  // The file offset the next byte appended goes to.
  uint64_t position() const { return at_ + size_; }
  // Records written in place through a cursor the caller keeps, with no
  // call a record: [cursor(), limit()) is free. advance(at, room) appends
  // the bytes from cursor() up to `at`, hands the buffer over where fewer
  // than `room` bytes are left, and returns the cursor.
  char* cursor() { return buffer_.get() + size_; }
  char* limit() { return buffer_.get() + capacity_; }
  char* advance(const char* at, uint64_t room) {
    size_ = uint64_t(at - buffer_.get());
    if (size_ + room > capacity_) make_room(room);
    return buffer_.get() + size_;
  }
  // Any number of bytes, through the buffer.
  void append(const void* data, uint64_t bytes);
  // Returns once every byte appended is in the file.
  void flush();

 private:
  void make_room(uint64_t bytes);
  void hand_over();

  TempFile* file_;
  SerialWorker* worker_;
  std::unique_ptr<char[]> buffer_;
  std::unique_ptr<char[]> spare_;     // with a worker: being written by it
  SerialWorker::Ticket writing_ = 0;  // that write
  uint64_t capacity_, size_ = 0, at_;
};

// Reads bytes [begin, end) of a TempFile piece by piece, the next piece
// read by the worker while the caller walks this one. Pieces are whole
// multiples of `unit` bytes (a record of that size never straddles two).
// Each piece is followed by `lookahead` more bytes of the file (zeros past
// its end), where a record of variable size that starts in the piece may
// end.
class TempFileReader {
 public:
  TempFileReader(const TempFile& file, SerialWorker& worker, uint64_t piece_bytes, uint64_t unit, uint64_t lookahead = 0);
  ~TempFileReader();
  TempFileReader(const TempFileReader&) = delete;
  TempFileReader& operator=(const TempFileReader&) = delete;

  // f(data, bytes) for each piece of [begin, end), in order.
  template <class F>
  void for_each_piece(uint64_t begin, uint64_t end, F&& f) {
    int current = 0;
    if (begin < end) start(current, begin, end);
    for (uint64_t at = begin; at < end;) {
      worker_->wait(reading_[current]);
      const uint64_t bytes = std::min(piece_bytes_, end - at);
      if (at + bytes < end) start(current ^ 1, at + bytes, end);
      f(static_cast<const char*>(piece_[current].get()), bytes);
      at += bytes;
      current ^= 1;
    }
  }

 private:
  void start(int piece, uint64_t at, uint64_t end);

  const TempFile* file_;
  SerialWorker* worker_;
  uint64_t piece_bytes_, lookahead_;
  std::unique_ptr<char[]> piece_[2];
  SerialWorker::Ticket reading_[2] = {0, 0};
};

// Reads whole byte ranges of a TempFile, each into a buffer of its own,
// the next range read by the worker while the caller walks the one it
// took: a range walked twice (counted, then placed) is read once.
class TempFileWholeReads {
 public:
  // Ranges of at most `most_bytes`, each followed by `lookahead` more
  // bytes of the file (zeros past its end), as TempFileReader's pieces.
  TempFileWholeReads(const TempFile& file, SerialWorker& worker, uint64_t most_bytes, uint64_t lookahead);
  ~TempFileWholeReads();
  TempFileWholeReads(const TempFileWholeReads&) = delete;
  TempFileWholeReads& operator=(const TempFileWholeReads&) = delete;

  uint64_t most_bytes() const { return most_bytes_; }
  // Starts reading [begin, end); at most one read waits to be taken.
  void fetch(uint64_t begin, uint64_t end);
  // The bytes of the range fetched last, once read; they stay until the
  // second fetch after this take.
  const char* take();

 private:
  const TempFile* file_;
  SerialWorker* worker_;
  uint64_t most_bytes_, lookahead_;
  std::unique_ptr<char[]> buffer_[2];
  SerialWorker::Ticket reading_ = 0;
  int next_ = 0;          // the buffer the next fetch fills
  bool fetched_ = false;  // a fetch not yet taken
};

}  // namespace sluice::base
