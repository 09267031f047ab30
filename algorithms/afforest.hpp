// What Afforest over the engine (wcc.cpp, wcc_ranks.cpp) needs on one
// process and on ranks alike: the linking EDGEMAP, the sample's size and
// the guess at the largest component. Internal to algorithms/.
#pragma once

#include <atomic>
#include <cstdint>
#include <random>
#include <unordered_map>

#include "algorithms/union_find.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms::afforest {

// Sets parent[v] = v for n vertices on the engine's threads (each
// touches its piece's pages first).
template <class Id>
void make_singletons(engine::Engine& engine, Id* parent, uint64_t n) {
  engine.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
    for (uint64_t v = begin; v < end; ++v) parent[v] = Id(v);
  });
}

// n vertices, each its own root.
template <class Id>
ConcurrentForest<Id> singletons(engine::Engine& engine, uint64_t n) {
  base::Array<Id> parent(n, "the union-find forest");
  make_singletons(engine, parent.data(), n);
  return ConcurrentForest<Id>(std::move(parent));
}

// Afforest's sample: the first edges of each list linked before the
// largest component is guessed.
inline constexpr uint32_t sampled_edges = 2;

// Joins the two ends of every edge it sees; safe on any thread, so the
// engine streams the pages without bins. With `joined`, sets it once an
// edge joins two sets (written once, so the threads share its line
// unchanged after that).
template <class Id>
struct Link {
  ConcurrentForest<Id>& forest;
  std::atomic<bool>* joined = nullptr;
  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = Id(src);
    return true;
  }
  bool gather_atomic(uint64_t dst, const Id& src) {
    if (forest.link(src, dst) && joined && !joined->load(std::memory_order_relaxed)) joined->store(true, std::memory_order_relaxed);
    return false;
  }
  void prefetch_destination(uint64_t dst) const { forest.prefetch(dst); }
};

// The most frequent of label(v) among 1024 vertices sampled from
// [begin, end) (by default seed, so runs repeat).
template <class Id, class Label>
Id most_frequent(uint64_t begin, uint64_t end, Label&& label) {
  std::mt19937_64 random(1);
  std::unordered_map<Id, uint32_t> count;
  Id best = 0;
  uint32_t best_count = 0;
  for (int i = 0; i < 1024; ++i) {
    const Id l = label(begin + random() % (end - begin));
    if (++count[l] > best_count) best_count = count[l], best = l;
  }
  return best;
}

// Afforest's guess at the largest component: the most frequent root among
// 1024 vertices sampled from [begin, end).
template <class Id>
Id most_frequent_root(ConcurrentForest<Id>& forest, uint64_t begin, uint64_t end) {
  return most_frequent<Id>(begin, end, [&](uint64_t v) { return forest.find(v); });
}

}  // namespace sluice::algorithms::afforest
