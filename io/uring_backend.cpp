// io_uring through liburing: one ring per drive thread, the drive file
// registered (IOSQE_FIXED_FILE) and the buffer pool registered so reads use
// READ_FIXED; submissions are batched into one io_uring_submit.
//
// Registering pins the buffers, which makes them resident, and takes
// 13-28 ms for 64 MiB on this machine. A program whose algorithm reads
// the set registers it before its first trial (ready()). Otherwise a ring
// reads unregistered until it has read a quarter of its pool's bytes,
// then registers the pool whole: a pool whose edge set is never read
// (PageRank's out-edges when it pulls) costs no memory, and a few pages
// read from a set the algorithm hardly uses (WCC's lists outside the
// largest component) cost no registration. Unregistered, PageRank 10 from
// the drives took 2.40-2.58 s against 1.50-1.96 s registered (plain
// pages, RMAT 22); registered into empty slots taken at the start
// (io_uring_register_buffers_sparse, then an update at the first read)
// the buffers read about 1.2x slower in BFS, trial after trial.
#include <liburing.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "io/read_backend.hpp"

namespace sluice::io {

std::unique_ptr<ReadBackend> make_uring_backend(int fd, unsigned depth, std::span<const base::AlignedBuffer> buffers);

namespace {

class UringBackend : public ReadBackend {
 public:
  UringBackend(int fd, unsigned depth, std::span<const base::AlignedBuffer> buffers) {
    int rc = io_uring_queue_init(depth, &ring_, 0);
    if (rc < 0) throw std::runtime_error(std::string("io_uring_queue_init: ") + std::strerror(-rc));
    rc = io_uring_register_files(&ring_, &fd, 1);
    if (rc < 0) {
      io_uring_queue_exit(&ring_);
      throw std::runtime_error(std::string("io_uring_register_files: ") + std::strerror(-rc));
    }
    for (auto& b : buffers) unregistered_.push_back({b.data(), b.size()}), pool_bytes_ += b.size();
  }
  ~UringBackend() override { io_uring_queue_exit(&ring_); }
  const char* name() const override { return "uring"; }
  void ready() override { register_pool(); }

  void submit(std::span<ReadRequest* const> requests) override {
    if (!registration_decided_) {
      for (const ReadRequest* r : requests) unregistered_reads_ += r->length;
      if (unregistered_reads_ >= pool_bytes_ / 4) register_pool();
    }
    for (ReadRequest* r : requests) {
      io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
      if (!sqe) {  // ring full: push what we have first
        flush();
        sqe = io_uring_get_sqe(&ring_);
        if (!sqe) throw std::runtime_error("io_uring: no submission entry available");
      }
      if (registered_ && r->buffer_index >= 0) {
        io_uring_prep_read_fixed(sqe, 0, r->buffer, r->length, r->offset, r->buffer_index);
      } else {
        io_uring_prep_read(sqe, 0, r->buffer, r->length, r->offset);
      }
      sqe->flags |= IOSQE_FIXED_FILE;
      io_uring_sqe_set_data(sqe, r);
    }
    flush();
  }

  size_t wait(std::span<ReadRequest*> done, size_t min) override {
    size_t count = 0;
    while (count < done.size()) {
      io_uring_cqe* cqe = nullptr;
      int rc = count < min ? io_uring_wait_cqe(&ring_, &cqe) : io_uring_peek_cqe(&ring_, &cqe);
      if (rc == -EINTR) continue;
      if (rc == -EAGAIN || !cqe) break;
      if (rc < 0) throw std::runtime_error(std::string("io_uring_wait_cqe: ") + std::strerror(-rc));
      auto* r = static_cast<ReadRequest*>(io_uring_cqe_get_data(cqe));
      r->result = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      done[count++] = r;
    }
    return count;
  }

 private:
  void register_pool() {
    std::call_once(registration_, [this] {
      // Registration may exceed RLIMIT_MEMLOCK; plain reads work without it.
      if (!unregistered_.empty()) {
        registered_ = io_uring_register_buffers(&ring_, unregistered_.data(), unsigned(unregistered_.size())) == 0;
      }
      unregistered_.clear();
      registration_decided_ = true;
    });
  }
  void flush() {
    for (;;) {
      int rc = io_uring_submit(&ring_);
      if (rc >= 0) return;
      if (rc != -EINTR && rc != -EAGAIN) throw std::runtime_error(std::string("io_uring_submit: ") + std::strerror(-rc));
    }
  }

  io_uring ring_{};
  std::vector<iovec> unregistered_;  // the pool, until reads or ready() register it
  uint64_t pool_bytes_ = 0;
  std::once_flag registration_;
  // Read on the drive's thread alone; ready() sets it while that thread
  // has nothing in flight (ReadBackend::ready).
  std::atomic<bool> registration_decided_{false};
  uint64_t unregistered_reads_ = 0;  // bytes read before the pool was registered
  bool registered_ = false;
};

}  // namespace

std::unique_ptr<ReadBackend> make_uring_backend(int fd, unsigned depth, std::span<const base::AlignedBuffer> buffers) {
  return std::make_unique<UringBackend>(fd, depth, buffers);
}

}  // namespace sluice::io
