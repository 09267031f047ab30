#include "algorithms/kcore.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

constexpr uint64_t remaining = std::numeric_limits<uint64_t>::max();  // coreness not decided yet

// The peeled vertices tell each neighbour still in the graph that it lost
// an edge.
struct Peel {
  uint32_t* degree;
  const uint64_t* core;

  bool cond(uint64_t dst) const { return core[dst] == remaining; }
  bool scatter(uint64_t, uint64_t, float, uint32_t& out) const {
    out = 1;
    return true;
  }
  bool gather(uint64_t dst, const uint32_t& lost) {
    degree[dst] -= lost;
    return false;
  }
  bool gather_atomic(uint64_t dst, const uint32_t& lost) {
    std::atomic_ref<uint32_t>(degree[dst]).fetch_sub(lost, std::memory_order_relaxed);
    return false;
  }
  uint32_t combine(const uint32_t& a, const uint32_t& b) const { return a + b; }
};

}  // namespace

KcoreResult kcore(engine::Engine& engine, RunTrace& trace) {
  const engine::DiskGraph& graph = engine.graph();
  const uint64_t n = graph.vertices();
  KcoreResult result;
  result.core.assign(n, remaining);
  // The remaining degrees are lowered and read at the own vertices alone.
  base::Array<uint32_t> degree(n, "k-core's remaining degrees");
  for (uint64_t v = engine.owned_begin(); v < engine.owned_end(); ++v) degree[v] = engine.out_degree(v);
  // On several ranks each peels its own range (its degrees are the ones
  // the peels lower) and the peeled vertices are shared.
  engine::RankExchange& ranks = engine.ranks();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  engine::VertexSubset left = engine::VertexSubset::all(n);
  uint64_t k = 0;
  while (!left.empty()) {
    // The vertices of degree at most k leave with coreness k; the least
    // degree of those that stay is where k goes when none leaves.
    std::atomic<uint64_t> least{remaining};
    const engine::VertexSubset peeled = ranks.frontier(engine.vertex_map(left, [&](uint64_t v) {
      if (v < first || v >= last) return false;
      if (degree[v] <= k) return true;
      uint64_t seen = least.load(std::memory_order_relaxed);
      while (degree[v] < seen && !least.compare_exchange_weak(seen, degree[v], std::memory_order_relaxed)) {
      }
      return false;
    }));
    if (peeled.empty()) {
      uint64_t next = least.load();
      ranks.communicator().min(std::span<uint64_t>(&next, 1));
      k = next;
      continue;
    }
    engine.vertex_map(peeled, [&](uint64_t v) {
      result.core[v] = k;
      return false;
    });
    left = engine.vertex_map(left, [&](uint64_t v) { return result.core[v] == remaining; });
    Peel peel{degree.data(), result.core.data()};
    engine.edge_map<uint32_t>(peeled, peel, false);
    trace.record(engine, "core", k);
    ++result.rounds;
  }
  for (uint64_t c : result.core) {
    if (c > result.largest) result.largest = c, result.in_largest = 0;
    if (c == result.largest) ++result.in_largest;
  }
  return result;
}

}  // namespace sluice::algorithms
