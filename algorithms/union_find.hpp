// A concurrent union-find forest over vertex ids, lock-free in the way of
// Jayanti and Tarjan: link(u, v) hooks one root under the other vertex's
// tree with one compare-and-swap, the order of the hook given by a strict
// total order on the vertices (the root that ranks lower goes under), so
// parent pointers only ever climb and any number of threads may link and
// find at once. Two orders:
//   SmallerIdWins  (Afforest, Sutton et al. 2018): every root is the
//                  smallest vertex of its set;
//   RandomRank     (Jayanti and Tarjan): a seeded random ranking, for
//                  their expected-case bounds.
// Id is uint32_t whenever the ids fit: half the memory traffic.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

#include "base/array.hpp"

namespace sluice::algorithms {

struct SmallerIdWins {
  bool below(uint64_t x, uint64_t y) const { return x > y; }
};

struct RandomRank {
  uint64_t seed = 0x5eed;
  // A bijective mix of the id: two vertices never tie.
  uint64_t rank(uint64_t v) const {
    uint64_t x = v ^ seed;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
  }
  bool below(uint64_t x, uint64_t y) const { return rank(x) < rank(y); }
};

template <class Id, class Order = SmallerIdWins>
class ConcurrentForest {
 public:
  // Every vertex its own root.
  explicit ConcurrentForest(uint64_t n, Order order = {}) : owned_(n, "the union-find forest"), parent_(owned_.data()), order_(order) {
    for (uint64_t v = 0; v < n; ++v) parent_[v] = Id(v);
  }
  // Over parent pointers made elsewhere (every vertex its own root, set on
  // the engine's threads: afforest::singletons).
  explicit ConcurrentForest(base::Array<Id> parent, Order order = {})
      : owned_(std::move(parent)), parent_(owned_.data()), order_(order) {}
  // The same over parent pointers held in memory the caller owns, which
  // outlives the forest (WCC's labels, which the forest turns into).
  explicit ConcurrentForest(Id* parent, Order order = {}) : parent_(parent), order_(order) {}
  ConcurrentForest(ConcurrentForest&& other) noexcept
      : owned_(std::move(other.owned_)), parent_(std::exchange(other.parent_, nullptr)), order_(other.order_) {}
  ConcurrentForest(const ConcurrentForest&) = delete;
  ConcurrentForest& operator=(const ConcurrentForest&) = delete;
  ConcurrentForest& operator=(ConcurrentForest&&) = delete;

  Id parent(uint64_t v) const { return load(v); }

  // Joins the sets of u and v; returns whether they were two sets.
  bool link(uint64_t u, uint64_t v) {
    for (;;) {
      const Id a = find(u), b = find(v);
      if (a == b) return false;
      const Id low = order_.below(a, b) ? a : b, high = low == a ? b : a;
      Id expected = low;  // hook low only while it is still a root
      if (std::atomic_ref<Id>(parent_[low]).compare_exchange_strong(expected, high, std::memory_order_relaxed)) return true;
    }
  }

  // v's root (halving the path on the way: each step points a vertex at
  // its grandparent, which is still one of its ancestors whatever other
  // threads do, so plain stores suffice).
  Id find(uint64_t v) {
    Id x = Id(v);
    for (Id p = load(x); p != x; p = load(x)) {
      const Id grandparent = load(p);
      if (grandparent != p) std::atomic_ref<Id>(parent_[x]).store(grandparent, std::memory_order_relaxed);
      x = grandparent;
    }
    return x;
  }

  // Starts loading v's parent pointer into the cache.
  void prefetch(uint64_t v) const { __builtin_prefetch(&parent_[v]); }
  // Points v at its root, writing v's entry alone, as GAPBS's compress
  // does: once threads have run it over every vertex with no link
  // between, every vertex points at its root. A find's halving would not
  // do: it may write an older ancestor over the root another thread had
  // just stored there.
  void compress(uint64_t v) {
    const Id parent = load(v);
    Id root = parent;
    for (Id p = load(root); p != root; p = load(root)) root = p;
    if (root != parent) std::atomic_ref<Id>(parent_[v]).store(root, std::memory_order_relaxed);
  }

 private:
  Id load(uint64_t v) const { return std::atomic_ref<Id>(const_cast<Id&>(parent_[v])).load(std::memory_order_relaxed); }

  base::Array<Id> owned_;  // empty where the caller holds the parents
  Id* parent_;
  Order order_;
};

}  // namespace sluice::algorithms
