// Edge pages kept in DRAM from one EDGEMAP to the next (--page-cache).
// Sparse frontiers that come back to the same pages, as SSSP's buckets
// do, otherwise read them again in every EDGEMAP: on a weighted RMAT 21,
// SSSP with a bucket width of 1 read 90 times the edge set's bytes. The
// pages read from the drives are copied in as the walks take them, until
// the budget is full; later plans take the pages held from here and read
// only the others. Nothing is evicted: which pages stay is decided by
// the EDGEMAPs that first read them.
//
// A page is kept as read, or, for a compressed page, decoded into its
// walk's records (more bytes, and no decode at each use), each in as
// many bytes as it needs. The cache holds graph data only, so it is right
// for any functions object.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "base/array.hpp"

namespace sluice::engine {

class PageCache {
 public:
  // An edge set of `pages` logical pages, `read_bytes` of them as read;
  // budget_bytes for the cache: the pages held and the table of where
  // each one is.
  PageCache(uint64_t pages, uint64_t read_bytes, uint64_t budget_bytes);

  // The budget that holds `pages` pages of `bytes` in all, the table
  // included.
  static uint64_t bytes_to_hold(uint64_t pages, uint64_t bytes) { return bytes + pages * (alignment + sizeof(uint64_t)); }
  // Whether the budget holds anything beside the table.
  bool usable() const { return capacity_ > 0; }
  // Bytes of pages held now.
  uint64_t held_bytes() const { return std::min(used_.load(std::memory_order_relaxed), capacity_); }

  // Between walks: whether logical page `page` is held, its bytes, and
  // whether they are its records decoded.
  bool holds(uint64_t page) const { return at_[page] != none; }
  const char* bytes(uint64_t page) const { return bytes_.data() + (at_[page] & ~decoded_bit); }
  bool decoded(uint64_t page) const { return (at_[page] & decoded_bit) != 0; }

  // A walk's view. held_mark() when it starts; held_before(page, mark):
  // whether the page was held then (a read may still bring it, in a gap
  // merged into the read).
  uint64_t held_mark() const { return held_bytes(); }
  bool held_before(uint64_t page, uint64_t mark) const { return at_[page] != none && (at_[page] & ~decoded_bit) < mark; }
  // During a walk, on any thread, for a page read and not held: whether
  // it may be kept decoded in `decoded_bytes`, where it takes `read_bytes`
  // as read: while what is left holds every page not kept yet as read
  // (so a budget that holds the set as read still does, and decoding
  // never costs a page its place).
  bool may_decode(uint64_t decoded_bytes, uint64_t read_bytes);
  // Room for its `bytes` (null once the budget is spent), then hold()
  // once they are written there. Each page at most once a walk.
  char* room(uint64_t bytes);
  void hold(uint64_t page, const char* at, bool decoded) {
    at_[page] = uint64_t(at - bytes_.data()) | (decoded ? decoded_bit : 0);
  }

 private:
  static constexpr uint64_t none = UINT64_MAX;
  static constexpr uint64_t decoded_bit = uint64_t(1) << 63;
  static constexpr uint64_t alignment = 16;  // records of 64-bit ids and weights stay aligned
  uint64_t capacity_;
  base::Array<char> bytes_;  // the records held (unwritten pages of it cost nothing)
  std::vector<uint64_t> at_;  // per logical page: where its records start, or none
  std::atomic<uint64_t> used_{0};
  std::atomic<int64_t> spare_{0};  // bytes beyond every page as read (may_decode)
};

}  // namespace sluice::engine
