// Blaze's online binning: scatter threads turn (src, dst) into (dst, value)
// records and append them, through small per-thread buffers, to the bin of
// dst's vertex range (a power-of-two range, so the bin is a shift, and a
// gather thread touches one slice of the vertex state at a time); a bin's buffer that fills up goes on an MPMC queue of
// full bins and the bin continues in its other buffer (double buffering);
// a bin has only two buffers, so at most one of them is out for gathering
// at a time: one gather thread applies a bin's records alone, and gather
// never needs an atomic (every record of one destination is in its bin).
#pragma once

#include "io/blocking_queue.hpp"

#include <bit>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "io/handoff.hpp"

namespace sluice::engine {

// Records a scatter thread gathers per bin before appending them to the bin.
constexpr uint32_t local_bin_records = 32;

template <class Value>
struct BinRecord {
  uint64_t dst;
  Value value;
};

template <class Value>
class Bins {
 public:
  using Record = BinRecord<Value>;
  struct Full {
    uint32_t bin;
    std::vector<Record>* records;
  };

  // At most `count` bins over vertices [0, vertices).
  Bins(uint32_t count, uint64_t vertices, size_t capacity) : capacity_(capacity) {
    const uint64_t width = std::max<uint64_t>(1, (vertices + count - 1) / std::max<uint32_t>(1, count));
    shift_ = unsigned(std::bit_width(width - 1));  // the next power of two >= width
    bins_ = std::vector<Bin>(std::max<uint64_t>(1, (vertices + (uint64_t(1) << shift_) - 1) >> shift_));
    for (auto& b : bins_) {
      b.buffers[0].reserve(capacity);
      b.buffers[1].reserve(capacity);
      b.current = &b.buffers[0];
      b.spare = &b.buffers[1];
    }
  }

  uint32_t count() const { return uint32_t(bins_.size()); }
  uint32_t bin_of(uint64_t dst) const { return uint32_t(dst >> shift_); }

  // Appends a thread's local buffer to bin `b`; hands full buffers to the
  // queue. Blocks (never spins) while both of the bin's buffers are full.
  void append(uint32_t b, const Record* records, size_t count) {
    Bin& bin = bins_[b];
    std::unique_lock lock(bin.mutex);
    while (count > 0) {
      size_t room = capacity_ - bin.current->size();
      size_t take = std::min(room, count);
      bin.current->insert(bin.current->end(), records, records + take);
      records += take;
      count -= take;
      if (bin.current->size() == capacity_) {
        bin.spare_ready.wait(lock, [&] { return bin.spare != nullptr; });
        hand_over(b, bin);
      }
    }
  }

  // After scattering: every non-empty current buffer goes to the queue.
  void flush_all() {
    for (uint32_t b = 0; b < bins_.size(); ++b) {
      Bin& bin = bins_[b];
      std::unique_lock lock(bin.mutex);
      if (bin.current->empty()) continue;
      bin.spare_ready.wait(lock, [&] { return bin.spare != nullptr; });
      hand_over(b, bin);
    }
  }

  // Blocks until every buffer handed over has been gathered and recycled.
  // Stop tokens may only be sent after this: the queue is not FIFO across
  // producers, so a stop could otherwise overtake a scatter thread's buffer.
  void wait_until_gathered() {
    for (auto& bin : bins_) {
      std::unique_lock lock(bin.mutex);
      bin.spare_ready.wait(lock, [&] { return bin.spare != nullptr; });
    }
  }

  // The next full buffer for a gather thread; blocks.
  Full take() {
    Full full;
    full_.wait_dequeue(full);
    if (full.records) io::handoff_acquire(full.records);
    return full;
  }
  // Wakes one gather thread with "no more work".
  void stop_one() { full_.enqueue({0, nullptr}); }

  // The gathered buffer becomes the bin's spare again.
  void recycle(const Full& full) {
    Bin& bin = bins_[full.bin];
    full.records->clear();
    {
      std::lock_guard lock(bin.mutex);
      bin.spare = full.records;
    }
    bin.spare_ready.notify_all();
  }

 private:
  struct Bin;
  void hand_over(uint32_t b, Bin& bin) {  // with bin.mutex held and a spare present
    io::handoff_release(bin.current);
    full_.enqueue({b, bin.current});
    bin.current = bin.spare;
    bin.spare = nullptr;
  }

  struct Bin {
    std::mutex mutex;
    std::condition_variable spare_ready;
    std::vector<Record> buffers[2];
    std::vector<Record>* current = nullptr;
    std::vector<Record>* spare = nullptr;
  };
  size_t capacity_;
  unsigned shift_ = 0;
  std::vector<Bin> bins_;
  io::BlockingQueue<Full> full_;
};

}  // namespace sluice::engine
