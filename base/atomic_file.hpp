// Output that appears only when complete: bytes go to "PATH.tmp-XXXXXX",
// which is fsync'ed and renamed onto PATH by commit(). Destroying an
// uncommitted file removes the temporary, so an error leaves nothing behind
// (and with remove_temporaries_on_signals(), neither does Ctrl-C).
//
// The temporary is created as any new file would be (mode 0666 less the
// umask); a file replaced keeps its mode. A symbolic link is written
// through: its target is built aside and renamed into place, the link
// kept. A device (/dev/null), a FIFO or a link to an open descriptor
// (/dev/stdout) is written in place, never renamed over; "-" is standard
// output. Temporaries that a killed writer left beside the path (it held
// a lock on them) are removed when the path is written again, and so are
// those of other names that begin with the path's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/aligned_buffer.hpp"
#include "base/serial_worker.hpp"
#include "base/signal_cleanup.hpp"

namespace sluice::base {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path, size_t buffer_bytes = 1 << 20);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile& operator=(AtomicFile&&) = delete;
  ~AtomicFile();

  void write(const void* data, size_t length);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Writes `length` zero bytes (page padding).
  void write_zeros(size_t length);
  // Overwrites bytes already written at `offset` (a header whose contents
  // are known only at the end); not for files written in place.
  void rewrite(uint64_t offset, const void* data, size_t length);
  uint64_t bytes_written() const { return written_; }
  // From now on a full buffer is written by `worker` (which outlives this
  // file) while a second buffer of the same size fills: the copy into the
  // page cache leaves the writing thread. Errors come at a later write,
  // rewrite or finish.
  //
  // direct: whole pages go to the file with O_DIRECT, past the page
  // cache, where the file system allows it (a partial page and the rest
  // go through the cache). For files that are read only with O_DIRECT,
  // such as drive files: their copies in the cache would serve no one,
  // and making them cost a conversion of RMAT 23 a third of its time.
  void write_behind(SerialWorker& worker, bool direct = false);
  const std::string& path() const { return path_; }

  // Flushes, fsyncs and renames the temporary onto the final path.
  void commit() {
    finish();
    publish();
  }
  // The two halves of commit(), so a group can sync all before renaming
  // any. finish() releases the buffer: nothing more may be written.
  void finish();
  void publish();
  // Written in place (see above) rather than through a temporary.
  bool in_place() const { return temp_path_.empty(); }
  // Where the bytes go until commit() (empty when written in place):
  // other writers of the same file (MPI ranks) open it by this name.
  const std::string& temp_path() const { return temp_path_; }

 private:
  void flush();
  // flush(), then wait until the worker wrote it.
  void wait_for_writes();

  std::string path_;
  std::string final_path_;  // where the temporary is renamed: path_, or the file a link names
  std::string temp_path_;   // empty when written in place
  int fd_ = -1;
  size_t signal_ticket_ = no_ticket;  // the temporary, removed on SIGINT and SIGTERM until published
  int direct_fd_ = -1;  // the same file opened with O_DIRECT, when written so
  AlignedBuffer buffer_;
  size_t used_ = 0;
  SerialWorker* worker_ = nullptr;
  AlignedBuffer spare_;                    // being written by the worker
  SerialWorker::Ticket writing_ = 0;       // that write
  uint64_t written_ = 0;
  uint64_t flushed_ = 0;  // the bytes handed to the worker: where the next ones go
};

// Removes, in `dir`, the temporaries "NAME.tmp-XXXXXX" whose NAME begins
// with `name_prefix` and that no live writer holds (a writer that died
// left them): a layout's writer sweeps every name the layout could have
// had, not just those it writes now. Files written there later with such
// a name skip their own sweep.
void remove_dead_temporaries(const std::string& dir, const std::string& name_prefix);

// Commits a group of files together: either all appear or none does.
void commit_all(std::vector<AtomicFile>& files);

// Fails (std::runtime_error naming the path and why) unless `path` could be
// written: "-", an existing file or device that is writable, or a new name
// in a writable directory. For checking outputs before the work.
void check_writable(const std::string& path);


}  // namespace sluice::base
