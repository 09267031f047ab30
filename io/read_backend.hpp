// One drive's asynchronous reads behind one interface, with three
// implementations: io_uring (batched submission, registered file and
// buffers), libaio, and psync (pread on the calling thread); and a fourth,
// memory, that serves the file from DRAM (the in-memory baseline). A backend is
// used by one thread, the drive's IO thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/aligned_buffer.hpp"

namespace sluice::io {

struct ReadRequest {
  uint64_t offset = 0;
  uint32_t length = 0;
  char* buffer = nullptr;
  int buffer_index = -1;  // index among the registered buffers, -1 if none
  int64_t result = 0;     // bytes read, or -errno
  uint64_t submitted_ns = 0;
};

class ReadBackend {
 public:
  virtual ~ReadBackend() = default;
  virtual const char* name() const = 0;
  // Starts the requests (at most depth() in flight at once).
  virtual void submit(std::span<ReadRequest* const> requests) = 0;
  // Blocks until at least `min` requests have completed; stores up to
  // done.size() of them in `done` and returns how many. With min 0 it
  // never blocks: only what has already completed.
  virtual size_t wait(std::span<ReadRequest*> done, size_t min) = 0;
  // Readies the first read (io_uring pins the buffers now, not at it).
  // Thread-safe, and safe beside the drive's thread while it has nothing
  // in flight.
  virtual void ready() {}
};

enum class BackendKind { automatic, uring, aio, psync, memory };

const char* backend_name(BackendKind kind);

// Fault injection for tests: every Nth completed request fails with EIO or
// comes back short; every request may be delayed.
struct FaultOptions {
  uint64_t fail_every = 0;
  uint64_t shorten_every = 0;
  uint64_t delay_us = 0;
  bool active() const { return fail_every || shorten_every || delay_us; }
};

// Builds the backend for one drive file. `automatic` tries io_uring, then
// libaio, then psync, printing one warning line for each fallback.
// `buffers` are registered with io_uring when given.
std::unique_ptr<ReadBackend> make_backend(BackendKind kind, int fd, unsigned depth,
                                          std::span<const base::AlignedBuffer> buffers, const FaultOptions& faults = {});

uint64_t now_ns();

}  // namespace sluice::io
