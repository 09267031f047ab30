// Linux native AIO through libaio: one context per drive thread, one iocb
// slot per request in flight.
#include <libaio.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/read_backend.hpp"

namespace sluice::io {

std::unique_ptr<ReadBackend> make_aio_backend(int fd, unsigned depth);

namespace {

class AioBackend : public ReadBackend {
 public:
  AioBackend(int fd, unsigned depth) : fd_(fd), slots_(depth), events_(depth) {
    int rc = io_setup(int(depth), &context_);
    if (rc < 0) throw std::runtime_error(std::string("io_setup: ") + std::strerror(-rc));
    for (unsigned i = 0; i < depth; ++i) free_.push_back(&slots_[i]);
  }
  ~AioBackend() override { io_destroy(context_); }
  const char* name() const override { return "aio"; }

  void submit(std::span<ReadRequest* const> requests) override {
    std::vector<iocb*> batch;
    for (ReadRequest* r : requests) {
      if (free_.empty()) throw std::runtime_error("libaio: more requests than the queue depth");
      iocb* cb = free_.back();
      free_.pop_back();
      io_prep_pread(cb, fd_, r->buffer, r->length, static_cast<long long>(r->offset));
      cb->data = r;
      batch.push_back(cb);
    }
    size_t done = 0;
    while (done < batch.size()) {
      int rc = io_submit(context_, long(batch.size() - done), batch.data() + done);
      if (rc == -EINTR || rc == -EAGAIN) continue;
      if (rc < 0) throw std::runtime_error(std::string("io_submit: ") + std::strerror(-rc));
      done += size_t(rc);
    }
  }

  size_t wait(std::span<ReadRequest*> done, size_t min) override {
    long want = long(std::min(done.size(), events_.size()));
    int rc;
    do {
      rc = io_getevents(context_, long(min), want, events_.data(), nullptr);
    } while (rc == -EINTR);
    if (rc < 0) throw std::runtime_error(std::string("io_getevents: ") + std::strerror(-rc));
    for (int i = 0; i < rc; ++i) {
      auto* r = static_cast<ReadRequest*>(events_[i].data);
      long res = long(events_[i].res);
      r->result = res;
      free_.push_back(events_[i].obj);
      done[i] = r;
    }
    return size_t(rc);
  }

 private:
  int fd_;
  io_context_t context_ = nullptr;
  std::vector<iocb> slots_;
  std::vector<iocb*> free_;
  std::vector<io_event> events_;
};

}  // namespace

std::unique_ptr<ReadBackend> make_aio_backend(int fd, unsigned depth) { return std::make_unique<AioBackend>(fd, depth); }

}  // namespace sluice::io
