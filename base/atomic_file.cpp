#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "base/errors.hpp"

namespace sluice::base {

namespace fs = std::filesystem;

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

// Where a write to `path` lands: the path itself, or, for a symbolic link,
// the file it finally names (followed link by link, each relative to its
// own directory). Links into /proc (/dev/stdout, /dev/fd/N) name open
// descriptors, written in place as they are.
struct Destination {
  std::string path;
  bool through_proc = false;
};
Destination destination_of(const std::string& path) {
  Destination d{path};
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(d.path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return d;
    std::error_code ec;
    const fs::path target = fs::read_symlink(d.path, ec);
    if (ec) return d;
    d.path = target.is_absolute() ? target.string() : (fs::path(d.path).parent_path() / target).string();
    if (d.path.rfind("/proc/", 0) == 0) d.through_proc = true;
  }
  throw std::runtime_error(path + ": too many levels of symbolic links");
}

// A new file "PATH.tmp-XXXXXX" created with mode 0666 less the umask (as
// any new file), locked while it is written: a temporary whose lock can be
// taken was left by a writer that died (SIGKILL), and may be removed.
int create_temporary(const std::string& path, std::string& temp_path) {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned char random[6];
    if (::getrandom(random, sizeof(random), 0) != sizeof(random)) throw_system_error(path, "getrandom");
    temp_path = path + ".tmp-";
    for (unsigned char r : random) temp_path += letters[r % (sizeof(letters) - 1)];
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) throw_system_error(path, "cannot create output file");
    ::flock(fd, LOCK_EX);
    return fd;
  }
  throw std::runtime_error(path + ": cannot find a free temporary name beside it");
}

// Removes the temporaries of `path` that dead writers left behind.
void remove_stale_temporaries(const std::string& path) {
  const fs::path p(path);
  const std::string prefix = p.filename().string() + ".tmp-";
  std::error_code ec;
  fs::directory_iterator it(p.parent_path().empty() ? fs::path(".") : p.parent_path(), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(it->path().c_str());
    ::close(fd);
  }
}

}  // namespace

AtomicFile::AtomicFile(std::string path, size_t buffer_bytes)
    : path_(std::move(path)), buffer_(buffer_bytes) {
  if (path_.empty()) throw std::invalid_argument("an empty output path");
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw std::runtime_error(path_ + ": is a directory, expected a file name to write");
  }
  if (path_ == "-") {
    fd_ = ::dup(STDOUT_FILENO);
    if (fd_ < 0) throw_system_error("standard output", "cannot write");
    return;
  }
  // A link is written through: its target is built aside and replaced
  // whole, as any regular file, unless it is a device, a FIFO or an open
  // descriptor (/dev/stdout), written in place.
  const Destination destination = destination_of(path_);
  const bool exists = ::stat(destination.path.c_str(), &st) == 0;
  if (destination.through_proc || (exists && !S_ISREG(st.st_mode))) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) throw_system_error(path_, "cannot open for writing");
    return;
  }
  final_path_ = destination.path;
  remove_stale_temporaries(final_path_);
  fd_ = create_temporary(final_path_, temp_path_);
  remember(temp_path_);
  // A file replaced keeps its mode (and, where allowed, its owner).
  if (exists) {
    ::fchmod(fd_, st.st_mode & 07777);
    if (::fchown(fd_, st.st_uid, st.st_gid) != 0) {
      // Only root may give a file away: the new file is then the writer's.
    }
  }
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      final_path_(std::move(other.final_path_)),
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

void AtomicFile::rewrite(uint64_t offset, const void* data, size_t length) {
  if (in_place() || offset + length > written_) throw std::logic_error("rewrite: " + path_ + " cannot be rewritten there");
  flush();
  const char* bytes = static_cast<const char*>(data);
  for (size_t done = 0; done < length;) {
    const ssize_t put = ::pwrite(fd_, bytes + done, length - done, off_t(offset + done));
    if (put < 0) {
      if (errno == EINTR) continue;
      throw_system_error(path_, "write failed");
    }
    done += size_t(put);
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
    if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) throw_system_error(path_, "rename failed");
    forget(temp_path_);
  }
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw_system_error(path_, "close failed");
}

void check_writable(const std::string& path) {
  if (path == "-") return;
  if (path.empty()) throw std::invalid_argument("an empty output path");
  const Destination destination = destination_of(path);
  struct stat st {};
  if (::stat(destination.path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory, expected a file name to write");
    if (::access(path.c_str(), W_OK) != 0) throw_system_error(path, "cannot be written");
    if (destination.through_proc || !S_ISREG(st.st_mode)) return;  // written in place
  }
  // The temporary goes beside the file it replaces.
  std::string dir = fs::path(destination.path).parent_path().string();
  if (dir.empty()) dir = ".";
  if (::access(dir.c_str(), W_OK) != 0) throw_system_error(path, "cannot be created (its directory " + dir + ")");
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM}) {
    // A signal the process was started ignoring (a background job of a
    // script ignores SIGINT) stays ignored: a handler would make it fatal.
    struct sigaction before {};
    if (::sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
}

void commit_all(std::vector<AtomicFile>& files) {
  // Renames are the last step; flush and sync everything first so a failure
  // there still leaves nothing behind.
  for (auto& file : files) file.finish();
  for (auto& file : files) file.publish();
}

}  // namespace sluice::base
