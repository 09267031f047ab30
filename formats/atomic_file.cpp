#include "formats/atomic_file.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "formats/errors.hpp"

namespace sluice {

namespace {

// The temporaries of live AtomicFiles, for the signal handler: a fixed
// table of owned C strings, claimed and released with atomics (a handler
// may only read it and call unlink).
constexpr size_t temporary_slots = 256;
std::atomic<char*> temporaries[temporary_slots];

void remember(const std::string& path) {
  char* copy = ::strdup(path.c_str());
  if (!copy) return;
  for (auto& slot : temporaries) {
    char* empty = nullptr;
    if (slot.compare_exchange_strong(empty, copy)) return;
  }
  ::free(copy);  // table full: this one is not removed on a signal
}

void forget(const std::string& path) {
  for (auto& slot : temporaries) {
    char* held = slot.load();
    if (held && path == held && slot.compare_exchange_strong(held, nullptr)) {
      ::free(held);
      return;
    }
  }
}

extern "C" void remove_temporaries_and_reraise(int signal) {
  for (auto& slot : temporaries) {
    if (char* path = slot.load()) ::unlink(path);
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

bool is_regular_file(const std::string& path, bool& exists) {
  struct stat st {};
  exists = ::lstat(path.c_str(), &st) == 0;
  return !exists || S_ISREG(st.st_mode);
}

}  // namespace

AtomicFile::AtomicFile(std::string path, size_t buffer_bytes)
    : path_(std::move(path)), buffer_(buffer_bytes) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw std::runtime_error(path_ + ": is a directory, expected a file name to write");
  }
  bool exists = false;
  if (path_ == "-") {
    fd_ = ::dup(STDOUT_FILENO);
    if (fd_ < 0) throw_system_error("standard output", "cannot write");
    return;
  }
  if (!is_regular_file(path_, exists)) {  // a device, FIFO or link: in place
    fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);  // O_CREAT: a link to a new file
    if (fd_ < 0) throw_system_error(path_, "cannot open for writing");
    return;
  }
  std::string pattern = path_ + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw_system_error(path_, "cannot create output file");
  temp_path_ = name.data();
  remember(temp_path_);
  ::fchmod(fd_, 0644);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)),
      used_(std::exchange(other.used_, 0)),
      written_(std::exchange(other.written_, 0)) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    if (!in_place()) {
      ::unlink(temp_path_.c_str());
      forget(temp_path_);
    }
  }
}

void AtomicFile::flush() {
  size_t done = 0;
  while (done < used_) {
    ssize_t put = ::write(fd_, buffer_.data() + done, used_ - done);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw_system_error(path_, "write failed");
    }
    done += static_cast<size_t>(put);
  }
  used_ = 0;
}

void AtomicFile::write(const void* data, size_t length) {
  const char* bytes = static_cast<const char*>(data);
  written_ += length;
  while (length > 0) {
    if (used_ == buffer_.size()) flush();
    size_t take = std::min(length, buffer_.size() - used_);
    std::memcpy(buffer_.data() + used_, bytes, take);
    used_ += take;
    bytes += take;
    length -= take;
  }
}

void AtomicFile::write_zeros(size_t length) {
  written_ += length;
  while (length > 0) {
    if (used_ == buffer_.size()) flush();
    size_t take = std::min(length, buffer_.size() - used_);
    std::memset(buffer_.data() + used_, 0, take);
    used_ += take;
    length -= take;
  }
}

void AtomicFile::finish() {
  flush();
  // Devices, pipes and terminals cannot be synced, and need not be.
  if (::fsync(fd_) != 0 && !(in_place() && (errno == EINVAL || errno == EROFS))) throw_system_error(path_, "fsync failed");
}

void AtomicFile::publish() {
  if (!in_place()) {
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) throw_system_error(path_, "rename failed");
    forget(temp_path_);
  }
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw_system_error(path_, "close failed");
}

void check_writable(const std::string& path) {
  if (path == "-") return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory, expected a file name to write");
    if (::access(path.c_str(), W_OK) != 0) throw_system_error(path, "cannot be written");
    return;
  }
  std::string dir = path.substr(0, path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (dir.empty()) dir = ".";
  if (::access(dir.c_str(), W_OK) != 0) throw_system_error(path, "cannot be created (its directory " + dir + ")");
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void commit_all(std::vector<AtomicFile>& files) {
  // Renames are the last step; flush and sync everything first so a failure
  // there still leaves nothing behind.
  for (auto& file : files) file.finish();
  for (auto& file : files) file.publish();
}

}  // namespace sluice
