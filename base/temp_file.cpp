#include "base/temp_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <stdexcept>

#include "base/errors.hpp"

namespace sluice::base {

namespace {

std::atomic<uint64_t> written{0};

int open_unlinked(const std::string& dir) {
  const std::string d = dir.empty() ? "." : dir;
  int fd = ::open(d.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
  std::string name = (std::filesystem::path(d) / ".sluice-scratch-XXXXXX").string();
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(name.c_str());
  return fd;
}

}  // namespace

TempFile::TempFile(const std::string& dir, std::string what) : dir_(dir.empty() ? "." : dir), what_(std::move(what)) {
  const int fd = open_unlinked(dir_);
  if (fd < 0) {
    throw std::runtime_error(dir_ + ": cannot make a temporary file for " + what_ + ": " + std::strerror(errno) +
                             " (--temp-dir names another directory)");
  }
  file_ = FileDescriptor(fd);
}

void TempFile::write(const void* data, uint64_t bytes, uint64_t offset) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t wrote = ::pwrite(file_.get(), p, bytes, off_t(offset));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) {
      const int err = errno;
      const std::string why = err == ENOSPC || err == EDQUOT ? "the disk is full" : std::strerror(err);
      throw std::runtime_error(dir_ + ": cannot write the temporary file of " + what_ + " (" + why + ", " +
                               byte_count(size_) + " in it): give --temp-dir a directory with more room");
    }
    written.fetch_add(uint64_t(wrote), std::memory_order_relaxed);
    p += wrote, bytes -= uint64_t(wrote), offset += uint64_t(wrote);
    size_ = std::max(size_, offset);
  }
}

uint64_t TempFile::bytes_written() { return written.load(); }

void TempFile::discard(uint64_t offset, uint64_t bytes) {
  // Where holes cannot be punched the space comes back with the file.
  if (bytes) ::fallocate(file_.get(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(offset), off_t(bytes));
}

void TempFile::read(void* out, uint64_t bytes, uint64_t offset) const {
  if (offset + bytes > size_) throw std::logic_error("read past the end of the temporary file of " + what_);
  file_.read_exactly(out, bytes, offset, dir_ + " (temporary file of " + what_ + ")");
}

TempFileAppender::TempFileAppender(TempFile& file, uint64_t bytes, uint64_t at, SerialWorker* worker)
    : file_(&file), worker_(worker), capacity_(worker ? std::max<uint64_t>(bytes / 2, 1) : bytes),
      at_(at == UINT64_MAX ? file.size() : at) {
  buffer_.reset(new char[capacity_]);
  if (worker_) spare_.reset(new char[capacity_]);
}

TempFileAppender::~TempFileAppender() noexcept(false) {
  // Unwinding already: the file is dropped with the error, but the
  // worker may still be writing from the buffers.
  if (std::uncaught_exceptions() == 0) flush();
  if (worker_) worker_->wait_quietly(writing_);
}

void TempFileAppender::make_room(uint64_t bytes) {
  if (bytes > capacity_) throw std::logic_error("TempFileAppender::reserve: more bytes than the buffer holds");
  hand_over();
}

void TempFileAppender::append(const void* data, uint64_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    if (size_ == capacity_) hand_over();
    const uint64_t part = std::min(bytes, capacity_ - size_);
    std::memcpy(reserve(part), p, part);
    p += part, bytes -= part;
  }
}

// The full buffer to the file: written now, or, once the last buffer
// handed over is written, by the worker while the other buffer fills.
void TempFileAppender::hand_over() {
  if (size_ == 0) return;
  if (!worker_) {
    file_->write(buffer_.get(), size_, at_);
  } else {
    worker_->wait(writing_);
    buffer_.swap(spare_);
    writing_ = worker_->submit([file = file_, data = spare_.get(), bytes = size_, at = at_] { file->write(data, bytes, at); });
  }
  at_ += size_;
  size_ = 0;
}

void TempFileAppender::flush() {
  hand_over();
  if (worker_) worker_->wait(writing_);
}

TempFileReader::TempFileReader(const TempFile& file, SerialWorker& worker, uint64_t piece_bytes, uint64_t unit, uint64_t lookahead)
    : file_(&file), worker_(&worker), piece_bytes_(std::max<uint64_t>(piece_bytes / unit, 1) * unit), lookahead_(lookahead) {
  piece_[0].reset(new char[piece_bytes_ + lookahead_]);
  piece_[1].reset(new char[piece_bytes_ + lookahead_]);
}

TempFileReader::~TempFileReader() { worker_->wait_quietly(std::max(reading_[0], reading_[1])); }

void TempFileReader::start(int piece, uint64_t at, uint64_t end) {
  const TempFile* file = file_;
  char* out = piece_[piece].get();
  const uint64_t bytes = std::min(piece_bytes_, end - at);
  const uint64_t size = file->size();
  const uint64_t beyond = std::min(lookahead_, size > at + bytes ? size - (at + bytes) : 0);
  reading_[piece] = worker_->submit([file, out, bytes, beyond, zeros = lookahead_ - beyond, at] {
    file->read(out, bytes + beyond, at);
    std::memset(out + bytes + beyond, 0, zeros);
  });
}

TempFileWholeReads::TempFileWholeReads(const TempFile& file, SerialWorker& worker, uint64_t most_bytes, uint64_t lookahead)
    : file_(&file), worker_(&worker), most_bytes_(most_bytes), lookahead_(lookahead) {
  buffer_[0].reset(new char[most_bytes_ + lookahead_]);
  buffer_[1].reset(new char[most_bytes_ + lookahead_]);
}

TempFileWholeReads::~TempFileWholeReads() { worker_->wait_quietly(reading_); }

void TempFileWholeReads::fetch(uint64_t begin, uint64_t end) {
  if (fetched_ || end < begin || end - begin > most_bytes_) throw std::logic_error("TempFileWholeReads::fetch: a read waits, or the range is too long");
  const TempFile* file = file_;
  char* out = buffer_[next_].get();
  const uint64_t bytes = end - begin, size = file->size();
  const uint64_t beyond = std::min(lookahead_, size > end ? size - end : 0);
  reading_ = worker_->submit([file, out, bytes, beyond, zeros = lookahead_ - beyond, begin] {
    file->read(out, bytes + beyond, begin);
    std::memset(out + bytes + beyond, 0, zeros);
  });
  fetched_ = true;
}

const char* TempFileWholeReads::take() {
  if (!fetched_) throw std::logic_error("TempFileWholeReads::take: nothing fetched");
  worker_->wait(reading_);
  fetched_ = false;
  const char* taken = buffer_[next_].get();
  next_ ^= 1;
  return taken;
}

}  // namespace sluice::base
