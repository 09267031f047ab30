// A concurrent union-find forest over vertex ids (Afforest's, after
// Sutton, Ben-Nun and Barak): link(u, v) hooks the larger of the two roots
// under the smaller with one compare-and-swap, so every tree's root is the
// smallest vertex of its set, and any number of threads may link and find
// at once. Id is uint32_t whenever the ids fit: half the memory traffic.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace sluice::algorithms {

template <class Id>
class ConcurrentForest {
 public:
  explicit ConcurrentForest(uint64_t n) : parent_(n) {
    for (uint64_t v = 0; v < n; ++v) parent_[v] = Id(v);
  }

  Id parent(uint64_t v) const { return load(v); }

  void link(uint64_t u, uint64_t v) {
    Id a = load(u), b = load(v);
    while (a != b) {
      const Id high = a > b ? a : b, low = a + b - high;
      Id up = load(high);
      if (up == low) return;  // already hooked there
      if (up == high && std::atomic_ref<Id>(parent_[high]).compare_exchange_strong(up, low, std::memory_order_relaxed)) return;
      // high was not a root (or stopped being one): climb and retry.
      a = load(load(high));
      b = load(low);
    }
  }

  // v's root (halving the path on the way).
  Id find(uint64_t v) {
    Id x = Id(v);
    for (Id p = load(x); p != x; p = load(x)) {
      const Id grandparent = load(p);
      if (grandparent != p) std::atomic_ref<Id>(parent_[x]).store(grandparent, std::memory_order_relaxed);
      x = grandparent;
    }
    return x;
  }

  // Points v at its root.
  void compress(uint64_t v) {
    const Id root = find(v);
    if (load(v) != root) std::atomic_ref<Id>(parent_[v]).store(root, std::memory_order_relaxed);
  }

  std::vector<Id>& parents() { return parent_; }

 private:
  Id load(uint64_t v) const { return std::atomic_ref<Id>(const_cast<Id&>(parent_[v])).load(std::memory_order_relaxed); }

  std::vector<Id> parent_;
};

}  // namespace sluice::algorithms
