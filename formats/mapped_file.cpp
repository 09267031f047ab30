#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "formats/errors.hpp"

namespace sluice {

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

MappedFile::MappedFile(const std::string& path, bool allow_empty) : path_(path) {
  FileDescriptor file = FileDescriptor::open_for_reading(path);
  size_ = file.size();
  if (size_ == 0) {
    if (allow_empty) return;
    throw InputError(path, "", "file is empty");
  }
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.get(), 0);
  if (map == MAP_FAILED) throw_system_error(path, "mmap");
  ::madvise(map, size_, MADV_SEQUENTIAL);
  data_ = static_cast<const char*>(map);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace sluice
