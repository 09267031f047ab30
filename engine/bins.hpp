// Blaze's online binning, lean and work-conserving. A scatter thread turns
// (src, dst) into a record (dst's 32-bit offset inside its bin, value),
// written once, into its own block for dst's bin; a bin is a power-of-two
// range of destinations, so the bin is a shift and a gather touches one
// slice of the vertex state. A full block is pushed onto its bin's
// lock-free list; the thread that brings a bin to `gather_blocks` blocks
// gathers it on the spot, unless another thread is gathering that bin
// already (then that thread takes the new blocks too). One thread gathers
// a bin at a time (the bin's busy flag), so gather needs no atomics, and
// no thread ever waits for a dedicated gather thread: every compute
// thread scatters while there are pages and gathers whatever bin fills.
//
// Memory is a fixed pool of blocks (the bin space). A thread that finds
// the pool empty gathers some bin to get blocks back; the pool always has
// more blocks than the threads can hold unfilled, so some bin then holds
// blocks.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice::engine {

// Left uninitialized (take() and push() set count and next), so that the
// pool's pages are touched only as blocks are first used: a short EDGEMAP
// does not pay for faulting in the whole bin space.
template <class Value>
struct BinBlock {
  static constexpr uint32_t capacity = 64;  // records
  BinBlock* next;
  uint32_t count;
  uint32_t offsets[capacity];  // destination - the bin's first vertex
  Value values[capacity];
};

// Bytes per record, for sizing: 8 for 4-byte values, 12 for 8-byte ones.
template <class Value>
constexpr uint64_t bin_record_bytes = sizeof(uint32_t) + sizeof(Value);

// The geometry shared by every value type: how many bins, how wide.
struct BinGeometry {
  unsigned shift = 0;  // a bin holds destinations [b << shift, (b + 1) << shift)
  uint32_t count = 1;
  // At most `bins` bins over [0, vertices), each at most 2^32 vertices wide.
  static BinGeometry of(uint64_t vertices, uint32_t bins);
};

inline BinGeometry BinGeometry::of(uint64_t vertices, uint32_t bins) {
  BinGeometry g;
  const uint64_t width = std::max<uint64_t>(1, (vertices + std::max<uint32_t>(1, bins) - 1) / std::max<uint32_t>(1, bins));
  g.shift = std::min(32u, unsigned(std::bit_width(width - 1)));  // the next power of two >= width
  g.count = uint32_t(std::max<uint64_t>(1, (vertices + (uint64_t(1) << g.shift) - 1) >> g.shift));
  return g;
}

template <class Value>
class Bins {
 public:
  using Block = BinBlock<Value>;
  // Blocks a thread keeps for itself before returning them to the pool.
  static constexpr size_t cache_blocks = 32;

  // The fewest blocks that keep every thread supplied: a current block per
  // bin and a cache each, twice over.
  static uint64_t min_blocks(const BinGeometry& g, int threads) {
    return 2 * uint64_t(threads) * (g.count + 2 * cache_blocks);
  }

  // gather_blocks: how many full blocks make a bin gathered; 0: the blocks
  // beyond what the threads hold, spread over the bins, halved.
  Bins(const BinGeometry& geometry, int threads, uint64_t space_bytes, uint32_t gather_blocks = 0)
      : geometry_(geometry),
        total_(std::max<uint64_t>(space_bytes / sizeof(Block), min_blocks(geometry, threads))),
        blocks_(std::make_unique_for_overwrite<Block[]>(total_)),
        bins_(std::make_unique<Bin[]>(geometry.count)),
        threads_(size_t(threads)) {
    // What the threads may hold unfilled; the rest is spread over the bins.
    const uint64_t held = uint64_t(threads) * (geometry.count + 2 * cache_blocks);
    gather_blocks_ = gather_blocks ? gather_blocks : uint32_t(std::clamp<uint64_t>((total_ - held) / geometry.count / 2, 1, 1024));
    free_.reserve(total_);
    for (uint64_t i = 0; i < total_; ++i) free_.push_back(&blocks_[i]);
    for (auto& t : threads_) t.current.assign(geometry.count, nullptr);
  }

  uint32_t count() const { return geometry_.count; }
  uint32_t bin_of(uint64_t dst) const { return uint32_t(dst >> geometry_.shift); }
  uint64_t first_vertex(uint32_t b) const { return uint64_t(b) << geometry_.shift; }
  uint64_t bytes() const { return total_ * sizeof(Block); }
  uint32_t gather_blocks() const { return gather_blocks_; }

  // Gives thread t a current block for every bin (at the start of a
  // scatter, when no bin holds blocks).
  template <class Gather>
  void begin(int t, Gather& gather) {
    for (auto& block : threads_[t].current) {
      if (!block) block = take(t, gather);
    }
  }

  // Appends one record on thread t; may gather bins that fill up.
  // gather(list, first_vertex) applies a list of blocks of one bin.
  template <class Gather>
  void put(int t, uint64_t dst, const Value& value, Gather& gather) {
    const uint32_t b = bin_of(dst);
    Block* block = threads_[t].current[b];
    const uint32_t i = block->count;
    block->offsets[i] = uint32_t(dst - first_vertex(b));
    block->values[i] = value;
    block->count = i + 1;
    if (i + 1 == Block::capacity) {
      threads_[t].current[b] = take(t, gather);
      publish(t, b, block, gather);
    }
  }

  // After thread t's last put: its partly filled blocks go to their bins
  // (to be gathered by gather_all).
  void flush(int t) {
    for (uint32_t b = 0; b < geometry_.count; ++b) {
      Block*& block = threads_[t].current[b];
      if (block && block->count) {
        push(bins_[b], block);
        block = nullptr;
      }
    }
  }

  // Once every thread has flushed: gathers every bin that holds blocks,
  // the bins spread over the callers (thread t of `threads`).
  template <class Gather>
  void gather_all(int t, Gather& gather) {
    for (uint32_t b = next_bin_.fetch_add(1); b < geometry_.count; b = next_bin_.fetch_add(1)) drain(t, b, gather);
  }
  // Before the next gather_all.
  void reset_sweep() { next_bin_ = 0; }

 private:
  struct alignas(64) Bin {
    std::atomic<Block*> head{nullptr};
    std::atomic<uint32_t> blocks{0};
    std::atomic<bool> busy{false};
  };
  struct alignas(64) ThreadBlocks {
    std::vector<Block*> current;  // per bin, being filled
    std::vector<Block*> cache;    // empty blocks
  };

  void push(Bin& bin, Block* block) {
    block->next = bin.head.load(std::memory_order_relaxed);
    while (!bin.head.compare_exchange_weak(block->next, block, std::memory_order_release, std::memory_order_relaxed)) {
    }
    bin.blocks.fetch_add(1);
  }

  template <class Gather>
  void publish(int t, uint32_t b, Block* block, Gather& gather) {
    push(bins_[b], block);
    if (bins_[b].blocks.load() >= gather_blocks_) drain(t, b, gather);
  }

  // Gathers everything in bin b unless another thread is at it. The flag
  // and the count are sequentially consistent: a thread that pushes while
  // the gatherer finishes either is seen by the gatherer's last look at
  // the count or finds the flag clear and gathers itself.
  template <class Gather>
  bool drain(int t, uint32_t b, Gather& gather) {
    Bin& bin = bins_[b];
    bool gathered = false;
    do {
      if (bin.busy.exchange(true)) return gathered;
      while (Block* list = bin.head.exchange(nullptr, std::memory_order_acquire)) {
        gather(static_cast<const Block*>(list), first_vertex(b));
        uint32_t taken = 0;
        for (Block* block = list; block;) {
          Block* next = block->next;
          give(t, block);
          block = next;
          ++taken;
        }
        bin.blocks.fetch_sub(taken);
        gathered = true;
      }
      bin.busy.store(false);
    } while (bin.blocks.load() >= gather_blocks_);
    return gathered;
  }

  template <class Gather>
  Block* take(int t, Gather& gather) {
    auto& cache = threads_[t].cache;
    for (uint32_t scan = 0;; ++scan) {
      if (!cache.empty()) {
        Block* block = cache.back();
        cache.pop_back();
        block->count = 0;
        return block;
      }
      {
        std::lock_guard lock(free_mutex_);
        const size_t n = std::min(cache_blocks, free_.size());
        cache.insert(cache.end(), free_.end() - ptrdiff_t(n), free_.end());
        free_.resize(free_.size() - n);
      }
      if (!cache.empty()) continue;
      // The pool is empty: gather some bin to get blocks back, else wait
      // for another thread's gathering to return some.
      bool gathered = false;
      for (uint32_t i = 0; i < geometry_.count && !gathered; ++i) {
        const uint32_t b = (scan + i) % geometry_.count;
        if (bins_[b].blocks.load(std::memory_order_relaxed)) gathered = drain(t, b, gather);
      }
      if (!gathered) {
        std::unique_lock lock(free_mutex_);
        returned_.wait_for(lock, std::chrono::milliseconds(1), [&] { return !free_.empty(); });
      }
    }
  }

  void give(int t, Block* block) {
    auto& cache = threads_[t].cache;
    cache.push_back(block);
    if (cache.size() < 2 * cache_blocks) return;
    const auto extra = cache.end() - ptrdiff_t(cache_blocks);
    {
      std::lock_guard lock(free_mutex_);
      free_.insert(free_.end(), extra, cache.end());
    }
    cache.erase(extra, cache.end());
    returned_.notify_all();
  }

  BinGeometry geometry_;
  uint64_t total_;
  uint32_t gather_blocks_ = 1;
  std::unique_ptr<Block[]> blocks_;
  std::unique_ptr<Bin[]> bins_;
  std::vector<ThreadBlocks> threads_;
  std::mutex free_mutex_;
  std::condition_variable returned_;
  std::vector<Block*> free_;
  std::atomic<uint32_t> next_bin_{0};
};

}  // namespace sluice::engine
