#include "io/io_service.hpp"

#include <system_error>

#include <algorithm>
#include <cstring>

#include "io/handoff.hpp"

namespace sluice::io {

namespace {
constexpr auto idle_wait = std::chrono::milliseconds(20);
}

IoService::IoService(const DriveSet& drives, const IoOptions& options, std::shared_ptr<BufferPool> pool)
    : drives_(drives), options_(options), pool_(std::move(pool)) {
  if (options_.queue_depth == 0) throw std::invalid_argument("the queue depth must be at least 1");
  if (options_.completion_batch == 0 || options_.handoff_batch == 0) {
    throw std::invalid_argument("the completion and hand-off batches must be at least 1");
  }
  if (options_.max_request_bytes < base::io_alignment || options_.max_request_bytes % base::io_alignment) {
    throw std::invalid_argument("the maximum request size must be a multiple of 4096 bytes");
  }
  if (!pool_) {
    pool_ = std::make_shared<BufferPool>(options_.buffers ? options_.buffers : 2 * options_.queue_depth * drives.drives(),
                                         options_.max_request_bytes);
  } else if (pool_->buffer_bytes() < options_.max_request_bytes) {
    throw std::invalid_argument("the shared IO buffers (" + std::to_string(pool_->buffer_bytes()) +
                                " bytes) are smaller than a request (" + std::to_string(options_.max_request_bytes) + " bytes)");
  }
  for (unsigned d = 0; d < drives.drives(); ++d) {
    auto state = std::make_unique<Drive>();
    state->backend = make_backend(options_.backend, drives.drive(d).fd(), options_.queue_depth, pool_->buffers(), options_.faults);
    backend_name_ = state->backend->name();
    drive_state_.push_back(std::move(state));
  }
  for (unsigned d = 0; d < drives.drives(); ++d) {
    try {
      drive_state_[d]->thread = std::thread([this, d] { run_drive(d); });
    } catch (const std::system_error& e) {
      stop_drives();  // the IO threads that did start
      throw std::runtime_error("cannot start the IO thread of drive " + std::to_string(d) + " (" + drives.drive(d).path() +
                               "): " + e.what() + "; the system allows no more threads (ulimit -u?)");
    }
  }
}

IoService::~IoService() { stop_drives(); }

void IoService::stop_drives() {
  stopping_ = true;
  // Wake every IO thread at once: an empty read on each drive queue, and a
  // token for a thread waiting on the pool (a shared pool's other services
  // drop what this one's threads leave).
  for (auto& d : drive_state_) {
    d->queue.enqueue({0, 0});
    pool_->wake();
  }
  for (auto& d : drive_state_) {
    if (d->thread.joinable()) d->thread.join();
  }
}

void IoService::ready() {
  for (auto& d : drive_state_) d->backend->ready();
}

void IoService::read(unsigned drive, std::span<const Extent> extents) {
  if (drive >= drive_state_.size()) throw std::out_of_range("no drive " + std::to_string(drive));
  const DriveFile& file = drives_.drive(drive);
  std::vector<Pending> requests;
  auto emit = [&](uint64_t offset, uint64_t length) {
    while (length > 0) {
      uint64_t take = std::min(length, options_.max_request_bytes);
      requests.push_back({offset, uint32_t(take)});
      offset += take;
      length -= take;
    }
  };
  uint64_t start = 0, length = 0;
  for (const Extent& e : extents) {
    if (e.offset + e.length > file.size()) {
      throw IoError(file.path(), drive, e.offset, "read of " + std::to_string(e.length) + " bytes past the end of the drive file (" +
                                                     std::to_string(file.size()) + " bytes)");
    }
    if (file.direct() && (e.offset % base::io_alignment || e.length % base::io_alignment)) {
      throw std::invalid_argument(file.path() + ": O_DIRECT reads must be 4096-byte aligned (offset " +
                                  std::to_string(e.offset) + ", length " + std::to_string(e.length) + ")");
    }
    if (e.length == 0) continue;
    if (length > 0 && start + length == e.offset) {
      length += e.length;  // adjacent: one request (split again at max_request_bytes)
      continue;
    }
    if (length > 0) emit(start, length);
    start = e.offset;
    length = e.length;
  }
  if (length > 0) emit(start, length);
  if (requests.empty()) return;
  outstanding_ += requests.size();
  drive_state_[drive]->queue.enqueue_bulk(requests.data(), requests.size());
}

void IoService::run_drive(unsigned d) {
  Drive& drive = *drive_state_[d];
  const unsigned depth = options_.queue_depth;
  std::vector<ReadRequest> slots(depth);
  std::vector<ReadRequest*> free_slots;
  for (auto& s : slots) free_slots.push_back(&s);
  std::vector<ReadRequest*> batch, done(depth);
  // At most completion_batch completions per wait, then refill: requests
  // go back to the device one by one, not in bursts of the queue depth.
  const std::span<ReadRequest*> reap = std::span<ReadRequest*>(done).first(std::min(options_.completion_batch, depth));
  uint64_t in_flight = 0, busy_since = 0;
  Pending pending{};
  bool have_pending = false;
  int held_buffer = -1;

  // Completions are handed to the consumers in groups: one wake-up per
  // group instead of one per request.
  const size_t handoff_batch = options_.handoff_batch;
  std::vector<Completion> ready;
  ready.reserve(depth);
  auto hand_off = [&] {
    if (ready.empty()) return;
    filled_.enqueue_bulk(ready.data(), ready.size());
    ready.clear();
  };
  auto drop = [&] {
    outstanding_.fetch_sub(1);
    have_pending = false;
  };

  for (;;) {
    batch.clear();
    while (in_flight + batch.size() < depth) {
      if (!have_pending) {
        if (!drive.queue.try_dequeue(pending)) break;
        if (pending.length == 0) continue;  // a wake-up, not a read
        have_pending = true;
      }
      if (stopping_) {
        drop();
        continue;
      }
      if (held_buffer < 0 && !pool_->try_take(held_buffer)) break;
      if (held_buffer < 0) break;  // a wake-up token from the destructor
      handoff_acquire(&(*pool_)[held_buffer]);
      ReadRequest* r = free_slots.back();
      free_slots.pop_back();
      r->offset = pending.offset;
      r->length = pending.length;
      r->buffer = (*pool_)[held_buffer].data();
      r->buffer_index = held_buffer;
      r->submitted_ns = now_ns();
      batch.push_back(r);
      held_buffer = -1;
      have_pending = false;
    }
    if (!batch.empty()) {
      if (in_flight == 0) busy_since = now_ns();
      drive.backend->submit(batch);
      in_flight += batch.size();
    }
    if (in_flight > 0) {
      // Take what has completed without blocking; before blocking, hand
      // over what is held so that no consumer waits on a sleeping IO thread.
      size_t n = drive.backend->wait(reap, 0);
      if (n == 0) {
        hand_off();
        n = drive.backend->wait(reap, 1);
      }
      uint64_t now = now_ns();
      for (size_t i = 0; i < n; ++i) {
        ReadRequest* r = done[i];
        drive.stats.latency.record(now - r->submitted_ns);
        drive.stats.latency_ns.fetch_add(now - r->submitted_ns, std::memory_order_relaxed);
        drive.stats.requests.fetch_add(1, std::memory_order_relaxed);
        if (r->result > 0) drive.stats.bytes.fetch_add(uint64_t(r->result), std::memory_order_relaxed);
        handoff_release(&(*pool_)[r->buffer_index]);
        if (stopping_) {
          pool_->give_back(r->buffer_index);
          outstanding_.fetch_sub(1);
        } else {
          ready.push_back({d, r->offset, r->length, r->buffer_index, r->result});
        }
        free_slots.push_back(r);
      }
      // Busy time is counted before the hand-off: a consumer that takes the
      // last read and then looks at the statistics must see it.
      in_flight -= n;
      if (in_flight == 0) drive.stats.busy_ns.fetch_add(now - busy_since, std::memory_order_relaxed);
      if (ready.size() >= handoff_batch) hand_off();
      continue;
    }
    hand_off();
    if (stopping_) {
      while (drive.queue.try_dequeue(pending)) {
        if (pending.length) outstanding_.fetch_sub(1);
      }
      if (have_pending) drop();
      if (held_buffer >= 0) pool_->give_back(held_buffer);
      return;
    }
    // Idle: wait for work, or for a buffer to come back.
    if (have_pending) {
      if (held_buffer < 0) pool_->take_within(held_buffer, idle_wait);
    } else if (drive.queue.wait_dequeue_timed(pending, idle_wait)) {
      have_pending = pending.length != 0;
    }
  }
}

bool IoService::next(Filled& out) {
  for (;;) {
    // Registered as waiting before looking, so that whoever takes the last
    // read either sees us and wakes us, or we see that nothing is left.
    waiting_consumers_.fetch_add(1);
    if (outstanding_.load() == 0) {
      waiting_consumers_.fetch_sub(1);
      return false;
    }
    Completion c;
    bool got = filled_.wait_dequeue_timed(c, idle_wait);
    waiting_consumers_.fetch_sub(1);
    if (!got || c.buffer < 0) continue;  // timeout or wake-up
    handoff_acquire(&(*pool_)[c.buffer]);
    if (outstanding_.fetch_sub(1) == 1) {
      for (uint64_t n = waiting_consumers_.load(); n > 0; --n) filled_.enqueue({0, 0, 0, -1, 0});
    }
    const DriveFile& file = drives_.drive(c.drive);
    if (c.result < 0) {
      handoff_release(&(*pool_)[c.buffer]);
      pool_->give_back(c.buffer);
      throw IoError(file.path(), c.drive, c.offset, std::string("read failed: ") + std::strerror(int(-c.result)));
    }
    if (uint64_t(c.result) != c.length) {
      handoff_release(&(*pool_)[c.buffer]);
      pool_->give_back(c.buffer);
      throw IoError(file.path(), c.drive, c.offset + uint64_t(c.result),
                    "short read: " + std::to_string(c.result) + " of " + std::to_string(c.length) +
                        " bytes (the drive file ends early or was truncated)");
    }
    out = {c.drive, c.offset, c.length, (*pool_)[c.buffer].data(), c.buffer};
    return true;
  }
}

void IoService::release(const Filled& filled) {
  if (filled.buffer < 0 || size_t(filled.buffer) >= pool_->size()) throw std::logic_error("release of an unknown IO buffer");
  handoff_release(&(*pool_)[filled.buffer]);
  pool_->give_back(filled.buffer);
}

void IoService::reset_stats() {
  for (auto& d : drive_state_) d->stats.reset();
}

}  // namespace sluice::io
