// The path from the drives to the compute threads, as Blaze builds it: one
// IO thread per drive, each with its own backend (io_uring, libaio or
// psync), a pool of aligned buffers (its own, or one shared with services
// that never read at the same time: buffer_pool.hpp), and two MPMC queues
// (free buffers, filled buffers). Callers ask for byte extents of a drive;
// adjacent extents are merged into one request up to max_request_bytes;
// at most queue_depth requests are in flight per drive. Nothing spins: the
// IO threads block in the kernel or on the queues.
#pragma once

#include <atomic>
#include "io/blocking_queue.hpp"
#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "base/aligned_buffer.hpp"
#include "io/buffer_pool.hpp"
#include "io/drive_set.hpp"
#include "io/io_error.hpp"
#include "io/io_stats.hpp"
#include "io/read_backend.hpp"

namespace sluice::io {

struct IoOptions {
  BackendKind backend = BackendKind::automatic;
  unsigned queue_depth = 32;
  // 1 MiB: full scans on this kind of virtual disk ran ~1.3x faster than
  // with 256 KiB requests at the same depth (experiments/README.md).
  uint64_t max_request_bytes = 1 << 20;
  // 0: queue_depth per drive, plus as many again for the consumers (a
  // service given a pool reads into the pool's buffers instead).
  unsigned buffers = 0;
  // Completions taken per wait before the IO thread refills the device. 1
  // (fio's default) keeps the device's queue full: taking the whole depth
  // at once sends requests back in bursts, and the device idles between.
  unsigned completion_batch = 1;
  // Completions handed to the consumers at once (and always before the IO
  // thread blocks): fewer wake-ups of sleeping consumers.
  unsigned handoff_batch = 8;
  FaultOptions faults;
};

struct Extent {
  uint64_t offset = 0;  // bytes on the drive
  uint64_t length = 0;
};

struct Filled {
  unsigned drive = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  const char* data = nullptr;
  int buffer = -1;
};

class IoService {
 public:
  // pool: the buffers to read into, shared with services whose reads
  // never run while this one's do (their buffers must hold
  // max_request_bytes); null: a pool of the service's own.
  IoService(const DriveSet& drives, const IoOptions& options, std::shared_ptr<BufferPool> pool = nullptr);
  ~IoService();  // drops queued reads, waits for the ones in flight, joins the IO threads
  IoService(const IoService&) = delete;
  IoService& operator=(const IoService&) = delete;

  // Queues reads (thread-safe). Extents must be aligned to 4 KiB when the
  // drive is opened with O_DIRECT and must lie inside the drive file.
  void read(unsigned drive, std::span<const Extent> extents);
  // The next filled buffer (any drive, completion order); blocks. Returns
  // false when every queued read has been delivered. A failed or short read
  // throws IoError naming the drive and offset.
  bool next(Filled& out);
  void release(const Filled& filled);
  // Readies every drive's first read (ReadBackend::ready), while no read is queued.
  void ready();

  const char* backend_name() const { return backend_name_; }
  const DriveStats& stats(unsigned drive) const { return drive_state_[drive]->stats; }
  void reset_stats();
  const IoOptions& options() const { return options_; }
  const std::shared_ptr<BufferPool>& buffers() const { return pool_; }

 private:
  void stop_drives();  // wakes and joins the IO threads that were started
  struct Pending {
    uint64_t offset;
    uint32_t length;
  };
  struct Completion {
    unsigned drive;
    uint64_t offset;
    uint32_t length;
    int buffer;
    int64_t result;
  };
  struct Drive {
    BlockingQueue<Pending> queue;
    std::unique_ptr<ReadBackend> backend;
    DriveStats stats;
    std::thread thread;
  };

  void run_drive(unsigned drive);

  const DriveSet& drives_;
  IoOptions options_;
  const char* backend_name_ = "";
  std::shared_ptr<BufferPool> pool_;
  BlockingQueue<Completion> filled_;
  std::atomic<uint64_t> outstanding_{0};  // queued, in flight, or filled and not yet taken
  std::atomic<uint64_t> waiting_consumers_{0};  // threads inside next(), woken when nothing is left
  std::atomic<bool> stopping_{false};
  std::vector<std::unique_ptr<Drive>> drive_state_;
};

}  // namespace sluice::io
