// Pull's cache of open in-lists. A pull that stops at the first frontier
// source (BFS) walks the whole in-list of every destination it leaves
// open, and the next pull wants those destinations again: after the dense
// level of a BFS on RMAT 22, 0.27 M low-degree vertices with 0.35 M
// in-edges between them, scattered over 47 k of the 65 k in-edge pages,
// so that pulling them re-reads almost the whole transpose. The pull
// therefore keeps the records of such lists (those lying within one
// page) in DRAM, up to a budget, and the next pull walks them from memory
// and plans no page for them.
//
// The cache holds graph data only (records already read and verified),
// so it is right for any functions object; which lists it holds is
// decided by the last pull that built it. One PullCache per pull side.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/indexed_bitmap.hpp"

namespace sluice::engine {

class PullCache {
 public:
  // budget_bytes: records and per-list headers together (0: never keeps).
  PullCache(uint64_t vertices, int threads, uint64_t budget_bytes);

  uint64_t budget() const { return budget_; }
  // Whether dst's whole in-list is in the cache, and how many lists are.
  bool holds(uint64_t dst) const { return held_.test(dst); }
  // holds() of destinations word * 64 ... word * 64 + 63, as bits.
  uint64_t held_word(uint64_t word) const { return held_.word(word); }
  uint64_t lists() const { return lists_; }
  // DRAM the cache may hold at most: the budget and the held bitmap.
  static uint64_t memory_bytes(uint64_t vertices, uint64_t budget_bytes) { return budget_bytes + vertices / 8 + 8; }

  // Walking the cache on every compute thread at once: visit(dst,
  // records, count) for each list, each list on one thread. Call
  // begin_walk() once before the threads start.
  void begin_walk() { next_segment_ = 0; }
  template <class Visit>
  void walk(Visit&& visit);

  // While walking (cache or pages), on thread t: keeps dst's records for
  // the next cache; false once the budget is spent.
  bool keep(int t, uint64_t dst, const char* records, uint64_t count, unsigned record_bytes);
  // After a walk that kept lists: they become the cache (what was held
  // and not kept again is dropped).
  void publish();
  // Empties the cache and what was kept (after a failed walk).
  void clear();

 private:
  // Lists stored inline in 8-byte words: dst, count, then the records
  // padded to whole words. A part is one thread's; segments cut the parts
  // into pieces the walking threads take one at a time.
  struct alignas(64) Part {
    std::vector<uint64_t> words;
    std::vector<uint64_t> segment_starts;  // word offsets
    uint64_t quota = 0;                    // bytes taken from the budget, not yet used
    uint64_t lists = 0;
    void reset() {  // empty, keeping the reserved capacity
      words.clear();
      segment_starts.clear();
      quota = 0;
      lists = 0;
    }
  };
  struct Segment {
    const Part* part;
    uint64_t begin, end;  // word offsets
  };
  static constexpr uint64_t lists_per_segment = 1024;
  static constexpr uint64_t quota_step = 64 << 10;

  uint64_t budget_;
  std::vector<Part> held_parts_, kept_parts_;
  std::vector<Segment> segments_;  // of held_parts_
  IndexedBitmap held_;
  uint64_t lists_ = 0;
  std::atomic<uint64_t> next_segment_{0};
  std::atomic<uint64_t> taken_{0};  // bytes of the budget handed out as quotas
};

template <class Visit>
void PullCache::walk(Visit&& visit) {
  for (uint64_t s = next_segment_.fetch_add(1); s < segments_.size(); s = next_segment_.fetch_add(1)) {
    const Segment& segment = segments_[s];
    const uint64_t* words = segment.part->words.data();
    for (uint64_t w = segment.begin; w < segment.end;) {
      const uint64_t dst = words[w], count = words[w + 1];
      const uint64_t record_words = words[w + 2];
      visit(dst, reinterpret_cast<const char*>(words + w + 3), count);
      w += 3 + record_words;
    }
  }
}

}  // namespace sluice::engine
