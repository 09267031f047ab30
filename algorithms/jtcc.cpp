#include "algorithms/jtcc.hpp"

#include <atomic>
#include <limits>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

class ConcurrentUnionFind {
 public:
  ConcurrentUnionFind(uint64_t n, uint64_t seed) : parent_(n), seed_(seed) {
    for (uint64_t v = 0; v < n; ++v) parent_[v] = v;
  }

  // Path splitting: every vertex on the way is pointed at its grandparent;
  // a failed CAS only means someone else shortened the path first.
  uint64_t find(uint64_t x) {
    for (;;) {
      uint64_t p = relaxed_load(parent_[x]);
      if (p == x) return x;
      uint64_t grandparent = relaxed_load(parent_[p]);
      if (p != grandparent) std::atomic_ref<uint64_t>(parent_[x]).compare_exchange_weak(p, grandparent, std::memory_order_relaxed);
      x = p;
    }
  }

  void unite(uint64_t a, uint64_t b) {
    for (;;) {
      a = find(a);
      b = find(b);
      if (a == b) return;
      if (priority(a) > priority(b)) std::swap(a, b);
      // Link a under b only if a is still a root.
      uint64_t expected = a;
      if (std::atomic_ref<uint64_t>(parent_[a]).compare_exchange_strong(expected, b, std::memory_order_relaxed)) return;
    }
  }

  std::vector<uint64_t>& parents() { return parent_; }

 private:
  // A random-looking order of the vertices: a bijective mix of the id, so
  // two vertices never tie.
  uint64_t priority(uint64_t v) const {
    uint64_t x = v ^ seed_;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
  }

  std::vector<uint64_t> parent_;
  uint64_t seed_;
};

}  // namespace

JtccResult jtcc(BlockGraph& graph, uint64_t seed) {
  const uint64_t n = graph.info().vertices;
  ConcurrentUnionFind sets(n, seed);
  std::atomic<uint64_t> edges{0};
  auto id = graph.request(0, n, [&](const EdgeBlock& block) {
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        sets.unite(v, block.target(e - block.first_edge()));
      }
    }
    edges += block.edges;
    graph.release(block);
  });
  graph.wait(id);

  JtccResult result;
  result.edges = edges;
  // Relabel by smallest member: scanning ascending, the first vertex seen
  // of a root is its component's smallest, and it is stored at the root
  // (whose own label is that same value).
  std::vector<uint64_t>& parent = sets.parents();
  for (uint64_t v = 0; v < n; ++v) parent[v] = sets.find(v);
  result.label.assign(n, std::numeric_limits<uint64_t>::max());
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t root = parent[v];
    if (result.label[root] == std::numeric_limits<uint64_t>::max()) result.label[root] = v;
    result.label[v] = result.label[root];
  }
  result.rounds = 1;
  summarize_components(result);
  return result;
}

}  // namespace sluice::algorithms
