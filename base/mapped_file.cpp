#include "base/mapped_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "base/array.hpp"
#include "base/temp_file.hpp"
#include "base/decoding_reader.hpp"
#include "base/errors.hpp"
#include "base/interruption.hpp"
#include "base/progress.hpp"

namespace sluice::base {

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

const char* file_kind(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

FileDescriptor FileDescriptor::open_for_reading(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer that never comes.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    throw InputError(path, "", std::string("cannot open: ") + std::strerror(errno));
  }
  FileDescriptor file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw_system_error(path, "fstat");
  if (!S_ISREG(st.st_mode)) throw InputError(path, "", std::string("is ") + file_kind(st.st_mode) + ", expected a regular file");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return file;
}

namespace {
// A FIFO opened before its writer reads as empty until the writer comes:
// wait for its first bytes, or for a writer that came and closed it (poll
// reports that hang-up only once a writer has been there). Said once on
// standard error after a second, so a forgotten writer is not a mystery.
void wait_for_writer(int fd, const std::string& path) {
  bool said = false;
  for (;;) {
    struct pollfd p {fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 1000);
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR) throw_system_error(path, "poll");
    throw_if_interrupted();
    if (!said) {
      std::fprintf(stderr, "sluice: waiting for a writer on the FIFO %s\n", path.c_str());
      said = true;
    }
  }
}
}  // namespace

FileDescriptor FileDescriptor::open_input(const std::string& path) {
  int fd = path == "-" ? ::fcntl(0, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path == "-" ? "standard input" : path, "", std::string("cannot open: ") + std::strerror(errno));
  FileDescriptor file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw_system_error(path, "fstat");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !(path == "-" && (S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)))) {
    throw InputError(path, "", std::string("is ") + file_kind(st.st_mode) + ", expected a regular file or a pipe");
  }
  if (S_ISFIFO(st.st_mode) && path != "-") wait_for_writer(fd, path);
  if (path != "-") ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return file;
}

bool is_read_once(const std::string& path) {
  if (path == "-") return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

uint64_t FileDescriptor::size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw_system_error("fd " + std::to_string(fd_), "fstat");
  return static_cast<uint64_t>(st.st_size);
}

void FileDescriptor::read_exactly(void* buffer, uint64_t length, uint64_t offset,
                                  const std::string& path) const {
  auto* out = static_cast<char*>(buffer);
  uint64_t done = 0;
  while (done < length) {
    ssize_t got = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, at_byte(offset + done), std::string("read failed: ") + std::strerror(errno));
    }
    if (got == 0) {
      throw InputError(path, at_byte(offset + done),
                       "file ends early, expected " + std::to_string(length - done) + " more bytes");
    }
    done += static_cast<uint64_t>(got);
  }
}

MappedFile::MappedFile(const std::string& path, bool allow_empty, bool progress, const std::string& scratch_dir)
    : path_(path == "-" ? "standard input" : path) {
  FileDescriptor file = FileDescriptor::open_input(path);
  struct stat st {};
  if (::fstat(file.get(), &st) != 0) throw_system_error(path_, "fstat");
  unsigned char head[4] = {};
  const bool regular = S_ISREG(st.st_mode);
  if (regular && ::pread(file.get(), head, sizeof(head), 0) < 0) throw_system_error(path_, "pread");
  if (!regular || compression_of(head, std::min<uint64_t>(sizeof(head), uint64_t(st.st_size))) != Compression::none) {
    if (scratch_dir.empty()) {
      decode(file.get(), regular ? uint64_t(st.st_size) : 0, progress);
    } else {
      decode_to_scratch(file.get(), regular ? uint64_t(st.st_size) : 0, progress, scratch_dir);
    }
  } else {
    size_ = uint64_t(st.st_size);
    map(file.get());
  }
  if (size_ == 0 && !allow_empty) {
    throw InputError(path_, "", S_ISFIFO(st.st_mode) ? "is empty (its writer closed it without writing)" : "file is empty");
  }
}

void MappedFile::map(int fd) {
  file_backed_ = true;
  if (size_ == 0) return;
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) throw_system_error(path_, "mmap");
  ::madvise(map, size_, MADV_SEQUENTIAL);
  data_ = static_cast<const char*>(map);
  mapped_ = size_;
}

void MappedFile::release(uint64_t begin, uint64_t end) const {
  if (!file_backed_ || !data_) return;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
  const uint64_t first = (begin + page - 1) / page * page, last = std::min(end, size_) / page * page;
  if (last > first) ::madvise(const_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
}

// Decoded onto disk, the bytes are a file's pages: mapped like any input,
// released as they are parsed.
void MappedFile::decode_to_scratch(int fd, uint64_t raw_bytes, bool progress, const std::string& dir) {
  DecodingReader reader(fd, path_);
  Progress decoding("reading " + path_ + " onto " + dir, raw_bytes, progress, "bytes");
  TempFile scratch(dir, "the decoded input " + path_);
  std::vector<char> buffer(uint64_t(4) << 20);
  for (;;) {
    const uint64_t before = reader.consumed();
    const size_t got = reader.read(buffer.data(), buffer.size());
    decoding.advance(reader.consumed() - before);
    if (got == 0) break;
    scratch.append(buffer.data(), got);
  }
  size_ = scratch.size();
  map(scratch.descriptor());
}

// Decoded bytes go into an anonymous mapping that doubles as it fills
// (mremap moves pages, never copies them).
void MappedFile::decode(int fd, uint64_t raw_bytes, bool progress) {
  DecodingReader reader(fd, path_);
  Progress decoding("reading " + path_ + (reader.compression() == Compression::none ? "" : std::string(" (") +
                    compression_name(reader.compression()) + ")"), raw_bytes, progress, "bytes");
  uint64_t capacity = uint64_t(64) << 20;
  require_memory(capacity, "the decoded input");
  void* map = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<const char*>(map);
  mapped_ = capacity;
  for (;;) {
    if (size_ == mapped_) {
      require_memory(mapped_, "the decoded input of " + path_);
      void* grown = ::mremap(const_cast<char*>(data_), mapped_, 2 * mapped_, MREMAP_MAYMOVE);
      if (grown == MAP_FAILED) {
        throw InputError(path_, "", "not enough memory to decode the input beyond " + std::to_string(size_) + " bytes");
      }
      data_ = static_cast<const char*>(grown);
      mapped_ *= 2;
    }
    const uint64_t before = reader.consumed();
    const size_t got = reader.read(const_cast<char*>(data_) + size_, mapped_ - size_);
    decoding.advance(reader.consumed() - before);
    if (got == 0) break;
    size_ += got;
  }
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      file_backed_(other.file_backed_),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(const_cast<char*>(data_), mapped_);
    path_ = std::move(other.path_);
    file_backed_ = other.file_backed_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), mapped_);
}

}  // namespace sluice::base
