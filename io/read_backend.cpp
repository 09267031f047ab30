// The psync backend, fault injection, and choosing a backend.
#include "io/read_backend.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <deque>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace sluice::io {

std::unique_ptr<ReadBackend> make_uring_backend(int fd, unsigned depth, std::span<const base::AlignedBuffer> buffers);
std::unique_ptr<ReadBackend> make_aio_backend(int fd, unsigned depth);
std::unique_ptr<ReadBackend> make_memory_backend(int fd);

uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

namespace {

// pread on the drive thread: submit() queues, wait() reads.
class PsyncBackend : public ReadBackend {
 public:
  explicit PsyncBackend(int fd) : fd_(fd) {}
  const char* name() const override { return "psync"; }
  void submit(std::span<ReadRequest* const> requests) override { pending_.insert(pending_.end(), requests.begin(), requests.end()); }
  size_t wait(std::span<ReadRequest*> done, size_t min) override {
    if (min == 0) return 0;  // nothing completes here without reading
    size_t count = 0;
    while (count < done.size() && !pending_.empty()) {
      ReadRequest* r = pending_.front();
      pending_.pop_front();
      uint64_t got = 0;
      int64_t result = 0;
      while (got < r->length) {
        ssize_t n = ::pread(fd_, r->buffer + got, r->length - got, off_t(r->offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          result = -errno;
          break;
        }
        if (n == 0) break;
        got += uint64_t(n);
      }
      r->result = result < 0 ? result : int64_t(got);
      done[count++] = r;
      if (count >= min) break;
    }
    return count;
  }

 private:
  int fd_;
  std::deque<ReadRequest*> pending_;
};

// Wraps a backend: every Nth completion fails or comes back short.
class FaultyBackend : public ReadBackend {
 public:
  FaultyBackend(std::unique_ptr<ReadBackend> inner, FaultOptions faults) : inner_(std::move(inner)), faults_(faults) {}
  const char* name() const override { return inner_->name(); }
  void ready() override { inner_->ready(); }
  void submit(std::span<ReadRequest* const> requests) override {
    if (faults_.delay_us) std::this_thread::sleep_for(std::chrono::microseconds(faults_.delay_us));
    inner_->submit(requests);
  }
  size_t wait(std::span<ReadRequest*> done, size_t min) override {
    size_t n = inner_->wait(done, min);
    for (size_t i = 0; i < n; ++i) {
      ++completed_;
      if (faults_.fail_every && completed_ % faults_.fail_every == 0) done[i]->result = -EIO;
      else if (faults_.shorten_every && completed_ % faults_.shorten_every == 0 && done[i]->result > 0) done[i]->result /= 2;
    }
    return n;
  }

 private:
  std::unique_ptr<ReadBackend> inner_;
  FaultOptions faults_;
  uint64_t completed_ = 0;
};

}  // namespace

const char* backend_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::automatic: return "auto";
    case BackendKind::uring: return "uring";
    case BackendKind::aio: return "aio";
    case BackendKind::psync: return "psync";
    case BackendKind::memory: return "memory";
  }
  return "?";
}

std::unique_ptr<ReadBackend> make_backend(BackendKind kind, int fd, unsigned depth, std::span<const base::AlignedBuffer> buffers,
                                          const FaultOptions& faults) {
  if (depth == 0) throw std::invalid_argument("the queue depth must be at least 1");
  std::unique_ptr<ReadBackend> backend;
  switch (kind) {
    case BackendKind::uring: backend = make_uring_backend(fd, depth, buffers); break;
    case BackendKind::aio: backend = make_aio_backend(fd, depth); break;
    case BackendKind::psync: backend = std::make_unique<PsyncBackend>(fd); break;
    case BackendKind::memory: backend = make_memory_backend(fd); break;
    case BackendKind::automatic:
      try {
        backend = make_uring_backend(fd, depth, buffers);
      } catch (const std::exception& e) {
        std::cerr << "warning: io_uring unavailable (" << e.what() << "); using libaio\n";
        try {
          backend = make_aio_backend(fd, depth);
        } catch (const std::exception& e2) {
          std::cerr << "warning: libaio unavailable (" << e2.what() << "); using psync\n";
          backend = std::make_unique<PsyncBackend>(fd);
        }
      }
      break;
  }
  if (faults.active()) backend = std::make_unique<FaultyBackend>(std::move(backend), faults);
  return backend;
}

}  // namespace sluice::io
