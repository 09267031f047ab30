// The aligned buffers IO services read into, and the queue of those free.
// One pool may serve several services (edge sets) whose reads never run
// at once, as a rank's part and its transpose's part do (their engines
// take turns): the process then holds one set of buffers for both, with
// the same depth for whichever reads.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "base/aligned_buffer.hpp"
#include "io/blocking_queue.hpp"

namespace sluice::io {

class BufferPool {
 public:
  // count buffers of `bytes` each, all free.
  BufferPool(unsigned count, uint64_t bytes);
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  size_t size() const { return buffers_.size(); }
  uint64_t buffer_bytes() const { return bytes_; }
  std::span<const base::AlignedBuffer> buffers() const { return buffers_; }
  const base::AlignedBuffer& operator[](int buffer) const { return buffers_[size_t(buffer)]; }

  // A free buffer's index, if one is free now (or comes back within
  // `wait`). -1 is a wake-up token, not a buffer (wake()).
  bool try_take(int& buffer) { return free_.try_dequeue(buffer); }
  bool take_within(int& buffer, std::chrono::milliseconds wait) { return free_.wait_dequeue_timed(buffer, wait); }
  void give_back(int buffer) { free_.enqueue(buffer); }
  // Wakes a thread waiting in take_within with the token -1; a token
  // nobody waits for is dropped by whichever service takes it next.
  void wake() { free_.enqueue(-1); }

 private:
  uint64_t bytes_;
  std::vector<base::AlignedBuffer> buffers_;
  BlockingQueue<int> free_;
};

}  // namespace sluice::io
