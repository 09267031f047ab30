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
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "base/errors.hpp"
#include "base/signal_cleanup.hpp"

namespace sluice::base {

namespace fs = std::filesystem;

namespace {

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
// The name is given to the signal handler before the file exists (its
// ticket in `ticket`): a signal between creating and naming would leave it.
int create_temporary(const std::string& path, std::string& temp_path, size_t& ticket) {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned char random[6];
    if (::getrandom(random, sizeof(random), 0) != sizeof(random)) throw_system_error(path, "getrandom");
    temp_path = path + ".tmp-";
    for (unsigned char r : random) temp_path += letters[r % (sizeof(letters) - 1)];
    ticket = remove_on_signals(temp_path);
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int error = errno;
      forget_on_signals(std::exchange(ticket, no_ticket));
      if (error == EEXIST) continue;
      errno = error;
      throw_system_error(path, "cannot create output file");
    }
    ::flock(fd, LOCK_EX);
    // A sweeper (remove_dead_temporaries) may have taken the lock between
    // the open and the flock, and removed the file: then make another.
    struct stat held {}, named {};
    if (::fstat(fd, &held) != 0 || ::stat(temp_path.c_str(), &named) != 0 || held.st_ino != named.st_ino ||
        held.st_dev != named.st_dev) {
      ::close(fd);
      forget_on_signals(std::exchange(ticket, no_ticket));
      continue;
    }
    return fd;
  }
  throw std::runtime_error(path + ": cannot find a free temporary name beside it");
}

}  // namespace

namespace {

// The (directory, name prefix) pairs swept in this process: a layout's
// writer sweeps each of its directories once for every name it could
// have, and its thousands of files then skip their own sweeps (each a
// listing of the directory).
std::mutex swept_mutex;
std::set<std::pair<std::string, std::string>> swept;

bool swept_already(const std::string& dir, const std::string& name) {
  std::lock_guard lock(swept_mutex);
  for (auto it = swept.lower_bound({dir, ""}); it != swept.end() && it->first == dir; ++it) {
    if (name.compare(0, it->second.size(), it->second) == 0) return true;
  }
  return false;
}

}  // namespace

void remove_dead_temporaries(const std::string& given_dir, const std::string& name_prefix) {
  const std::string dir = given_dir.empty() ? "." : given_dir;  // "R.sluice" and "./R.out.0" share a directory
  if (swept_already(dir, name_prefix)) return;
  constexpr size_t suffix = 11;  // ".tmp-" and 6 letters
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < name_prefix.size() + suffix || name.compare(0, name_prefix.size(), name_prefix) != 0 ||
        name.compare(name.size() - suffix, 5, ".tmp-") != 0) {
      continue;
    }
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(it->path().c_str());
    ::close(fd);
  }
  std::lock_guard lock(swept_mutex);
  swept.insert({dir, name_prefix});
}

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
  const fs::path final_path(final_path_);
  const std::string dir = final_path.parent_path().string(), name = final_path.filename().string();
  remove_dead_temporaries(dir, name);  // at once when swept already
  fd_ = create_temporary(final_path_, temp_path_, signal_ticket_);
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
      signal_ticket_(std::exchange(other.signal_ticket_, no_ticket)),
      direct_fd_(std::exchange(other.direct_fd_, -1)),
      buffer_(std::move(other.buffer_)),
      used_(std::exchange(other.used_, 0)),
      worker_(std::exchange(other.worker_, nullptr)),
      spare_(std::move(other.spare_)),
      writing_(std::exchange(other.writing_, 0)),
      written_(std::exchange(other.written_, 0)),
      flushed_(std::exchange(other.flushed_, 0)) {}

AtomicFile::~AtomicFile() {
  if (worker_) worker_->wait_quietly(writing_);  // it may still write from spare_ to fd_
  if (direct_fd_ >= 0) ::close(direct_fd_);
  if (fd_ >= 0) {
    ::close(fd_);
    if (!in_place()) {
      ::unlink(temp_path_.c_str());
      forget_on_signals(signal_ticket_);
    }
  }
}

namespace {

void write_all(int fd, const char* data, size_t bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes) {
    ssize_t put = ::write(fd, data + done, bytes - done);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw_system_error(path, "write failed");
    }
    done += static_cast<size_t>(put);
  }
}

void pwrite_all(int fd, const char* data, size_t bytes, uint64_t offset, const std::string& path) {
  for (size_t done = 0; done < bytes;) {
    const ssize_t put = ::pwrite(fd, data + done, bytes - done, off_t(offset + done));
    if (put < 0) {
      if (errno == EINTR) continue;
      throw_system_error(path, "write failed");
    }
    done += size_t(put);
  }
}

// `bytes` at `offset`: whole pages at an aligned offset through `direct`
// when it is open (and the file system takes them), the rest through `fd`.
void write_at(int fd, int direct, const char* data, size_t bytes, uint64_t offset, const std::string& path) {
  if (direct >= 0 && offset % io_alignment == 0 && bytes % io_alignment == 0) {
    size_t done = 0;
    while (done < bytes) {
      const ssize_t put = ::pwrite(direct, data + done, bytes - done, off_t(offset + done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0 || size_t(put) % io_alignment != 0) break;  // the rest through the cache, which takes any write
      done += size_t(put);
    }
    data += done, bytes -= done, offset += done;
  }
  pwrite_all(fd, data, bytes, offset, path);
}

}  // namespace

void AtomicFile::write_behind(SerialWorker& worker, bool direct) {
  worker_ = &worker;
  spare_ = AlignedBuffer(buffer_.size());
  // Written through a temporary, the file is a regular one of ours, where
  // every write may go by offset.
  if (direct && !in_place() && written_ == 0) direct_fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
}

// With a worker, the buffer is handed over once the last one handed over
// is written; without, written now. Either way it is empty after.
void AtomicFile::flush() {
  if (used_ == 0) return;
  if (!worker_) {
    write_all(fd_, buffer_.data(), used_, path_);
  } else {
    worker_->wait(writing_);
    std::swap(buffer_, spare_);
    if (direct_fd_ >= 0) {
      writing_ = worker_->submit([fd = fd_, direct = direct_fd_, data = spare_.data(), bytes = used_, at = flushed_, path = path_] {
        write_at(fd, direct, data, bytes, at, path);
      });
    } else {
      writing_ = worker_->submit([fd = fd_, data = spare_.data(), bytes = used_, path = path_] { write_all(fd, data, bytes, path); });
    }
  }
  flushed_ += used_;
  used_ = 0;
}

void AtomicFile::wait_for_writes() {
  flush();
  if (worker_) worker_->wait(writing_);
}

void AtomicFile::write(const void* data, size_t length) {
  if (buffer_.size() == 0) throw std::logic_error(path_ + ": written after it was finished");
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
  wait_for_writes();
  pwrite_all(fd_, static_cast<const char*>(data), length, offset, path_);
}

void AtomicFile::write_zeros(size_t length) {
  if (buffer_.size() == 0) throw std::logic_error(path_ + ": written after it was finished");
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
  wait_for_writes();
  worker_ = nullptr;  // nothing is left for it, and it need not outlive this file now
  // A file staged until others are written too (a ranked layout's parts)
  // holds its descriptor and lock, not its buffer.
  buffer_ = AlignedBuffer();
  spare_ = AlignedBuffer();
  if (direct_fd_ >= 0) ::close(std::exchange(direct_fd_, -1));
  // Devices, pipes and terminals cannot be synced, and need not be.
  if (::fsync(fd_) != 0 && !(in_place() && (errno == EINVAL || errno == EROFS))) throw_system_error(path_, "fsync failed");
}

void AtomicFile::publish() {
  if (!in_place()) {
    if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) throw_system_error(path_, "rename failed");
    forget_on_signals(std::exchange(signal_ticket_, no_ticket));
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

void commit_all(std::vector<AtomicFile>& files) {
  // Renames are the last step; flush and sync everything first so a failure
  // there still leaves nothing behind.
  for (auto& file : files) file.finish();
  for (auto& file : files) file.publish();
}

}  // namespace sluice::base
