// Linux native AIO through libaio: one context per drive thread, one iocb
// slot per request in flight. Completions are taken from the ring that the
// kernel maps at the context's address where it can (no system call, as
// fio's userspace_reap); io_getevents only to block.
#include <libaio.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/read_backend.hpp"

namespace sluice::io {

std::unique_ptr<ReadBackend> make_aio_backend(int fd, unsigned depth);

namespace {

// The header of the completion ring the kernel maps at an aio context
// (struct aio_ring in fs/aio.c); io_events follow it. The kernel advances
// tail, the reader advances head.
struct AioRingHeader {
  unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
};
constexpr unsigned aio_ring_magic = 0xa10a10a1;

class AioBackend : public ReadBackend {
 public:
  AioBackend(int fd, unsigned depth) : fd_(fd), slots_(depth), events_(depth) {
    int rc = io_setup(int(depth), &context_);
    if (rc < 0) throw std::runtime_error(std::string("io_setup: ") + std::strerror(-rc));
    for (unsigned i = 0; i < depth; ++i) free_.push_back(&slots_[i]);
    ring_ = reinterpret_cast<AioRingHeader*>(context_);
    if (ring_->magic != aio_ring_magic || ring_->incompat_features != 0 || ring_->header_length != sizeof(AioRingHeader)) {
      ring_ = nullptr;  // an unknown layout: io_getevents only
    }
  }
  ~AioBackend() override { io_destroy(context_); }
  const char* name() const override { return "aio"; }

  void submit(std::span<ReadRequest* const> requests) override {
    batch_.clear();
    for (ReadRequest* r : requests) {
      if (free_.empty()) throw std::runtime_error("libaio: more requests than the queue depth");
      iocb* cb = free_.back();
      free_.pop_back();
      io_prep_pread(cb, fd_, r->buffer, r->length, static_cast<long long>(r->offset));
      cb->data = r;
      batch_.push_back(cb);
    }
    size_t done = 0;
    while (done < batch_.size()) {
      int rc = io_submit(context_, long(batch_.size() - done), batch_.data() + done);
      if (rc == -EINTR || rc == -EAGAIN) continue;
      if (rc < 0) throw std::runtime_error(std::string("io_submit: ") + std::strerror(-rc));
      done += size_t(rc);
    }
  }

  size_t wait(std::span<ReadRequest*> done, size_t min) override {
    size_t want = std::min(done.size(), events_.size());
    size_t count = reap_from_ring(done.first(want));
    if (count >= min || count == want) return count;
    int rc;
    do {
      rc = io_getevents(context_, long(min - count), long(want - count), events_.data(), nullptr);
    } while (rc == -EINTR);
    if (rc < 0) throw std::runtime_error(std::string("io_getevents: ") + std::strerror(-rc));
    for (int i = 0; i < rc; ++i) done[count++] = complete(events_[size_t(i)]);
    return count;
  }

 private:
  ReadRequest* complete(const io_event& event) {
    auto* r = static_cast<ReadRequest*>(event.data);
    r->result = long(event.res);
    free_.push_back(event.obj);
    return r;
  }

  // Takes completed events straight from the mapped ring; only this thread
  // reads it, the kernel only appends.
  size_t reap_from_ring(std::span<ReadRequest*> done) {
    if (!ring_) return 0;
    std::atomic_ref<unsigned> head(ring_->head), tail(ring_->tail);
    const unsigned nr = ring_->nr;
    const auto* events = reinterpret_cast<const io_event*>(ring_ + 1);
    unsigned at = head.load(std::memory_order_relaxed);
    const unsigned end = tail.load(std::memory_order_acquire);
    size_t count = 0;
    while (count < done.size() && at != end) {
      done[count++] = complete(events[at]);
      at = (at + 1) % nr;
    }
    if (count) head.store(at, std::memory_order_release);
    return count;
  }

  int fd_;
  io_context_t context_ = nullptr;
  AioRingHeader* ring_ = nullptr;
  std::vector<iocb> slots_;
  std::vector<iocb*> free_;
  std::vector<iocb*> batch_;  // reused by submit()
  std::vector<io_event> events_;
};

}  // namespace

std::unique_ptr<ReadBackend> make_aio_backend(int fd, unsigned depth) { return std::make_unique<AioBackend>(fd, depth); }

}  // namespace sluice::io
