// Lists of a vertex range held in DRAM, as an algorithm keeps them (a
// filtered, sorted part of each out-list: triangle counting's oriented
// lists), so that lists streamed later can be intersected against them;
// and the ranges a byte budget allows. Each compute thread appends what it
// keeps to its own blocks: no list is copied twice, and no growth doubles
// the memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace sluice::engine {

template <class Id>
class ResidentLists {
 public:
  // Ids a block holds; a longer list gets a block of its own.
  static constexpr uint64_t block_ids = uint64_t(1) << 18;
  // DRAM per vertex of the range beyond its ids: where its list lies.
  static constexpr uint64_t bytes_per_vertex = sizeof(std::span<const Id>);

  ResidentLists(uint64_t first, uint64_t last, int threads)
      : first_(first), last_(last), where_(last - first), arenas_(size_t(std::max(1, threads))) {}

  uint64_t first() const { return first_; }
  uint64_t last() const { return last_; }
  bool holds(uint64_t v) const { return v >= first_ && v < last_; }
  // v's kept list (empty when it kept none); v in [first, last).
  std::span<const Id> of(uint64_t v) const { return where_[v - first_]; }
  // Ids held, and the bytes they and the index take (blocks' unused tails included).
  uint64_t ids() const { return ids_held_; }
  uint64_t bytes() const {
    uint64_t total = where_.size() * bytes_per_vertex;
    for (const Arena& arena : arenas_) total += arena.bytes;
    return total;
  }

  // Keeps `list` as v's on compute thread t; each v once. Threads append
  // to their own blocks only.
  void keep(int t, uint64_t v, std::span<const Id> list) {
    if (list.empty()) return;
    Arena& arena = arenas_[size_t(t)];
    if (arena.blocks.empty() || arena.used + list.size() > arena.capacity) {
      const uint64_t capacity = std::max<uint64_t>(block_ids, list.size());
      arena.blocks.push_back(std::make_unique_for_overwrite<Id[]>(capacity));
      arena.capacity = capacity;
      arena.used = 0;
      arena.bytes += capacity * sizeof(Id);
    }
    Id* at = arena.blocks.back().get() + arena.used;
    std::copy(list.begin(), list.end(), at);
    arena.used += list.size();
    arena.ids += list.size();
    where_[v - first_] = std::span<const Id>(at, list.size());
  }
  // After the threads kept their lists: the totals.
  void seal() {
    ids_held_ = 0;
    for (const Arena& arena : arenas_) ids_held_ += arena.ids;
  }

 private:
  struct Arena {
    std::vector<std::unique_ptr<Id[]>> blocks;
    uint64_t capacity = 0, used = 0, bytes = 0, ids = 0;
  };
  uint64_t first_, last_;
  std::vector<std::span<const Id>> where_;
  std::vector<Arena> arenas_;
  uint64_t ids_held_ = 0;
};

// [0, vertices) cut into consecutive ranges whose lists, bytes_of(v) each
// (an upper bound of what will be kept, plus the index's share), fit
// `budget`; a vertex whose list alone exceeds it is a range of its own.
template <class BytesOf>
std::vector<std::pair<uint64_t, uint64_t>> list_ranges(uint64_t vertices, uint64_t budget, BytesOf&& bytes_of) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  uint64_t first = 0, used = 0;
  for (uint64_t v = 0; v < vertices; ++v) {
    const uint64_t bytes = bytes_of(v);
    if (v > first && used + bytes > budget) {
      ranges.emplace_back(first, v);
      first = v;
      used = 0;
    }
    used += bytes;
  }
  if (vertices > first || ranges.empty()) ranges.emplace_back(first, vertices);
  return ranges;
}

}  // namespace sluice::engine
