#include "algorithms/bfs.hpp"

#include <stdexcept>
#include <string>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

// One level: the value sent along src -> dst is src, the would-be parent,
// as a Vertex (32 bits whenever the ids fit: 8-byte bin records).
template <class Vertex>
struct BfsLevel {
  static constexpr Vertex none = BfsTree<Vertex>::none;
  Vertex* parent;
  Vertex* depth;
  Vertex next_depth;

  bool cond(uint64_t dst) const { return relaxed_load(parent[dst]) == none; }
  bool scatter(uint64_t src, uint64_t, float, Vertex& out) const {
    out = Vertex(src);
    return true;
  }
  // The engine calls cond(dst) just before, on this thread: dst is unvisited.
  bool gather(uint64_t dst, const Vertex& src) {
    relaxed_store(parent[dst], src);
    depth[dst] = next_depth;
    return true;
  }
  bool gather_atomic(uint64_t dst, const Vertex& src) {
    Vertex unvisited = none;
    if (!std::atomic_ref<Vertex>(parent[dst]).compare_exchange_strong(unvisited, src, std::memory_order_relaxed)) return false;
    depth[dst] = next_depth;
    return true;
  }
  void prefetch_destination(uint64_t dst) const {
    __builtin_prefetch(parent + dst, 1);
    __builtin_prefetch(depth + dst, 1);
  }
};

template <class Vertex>
BfsResult run(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  BfsTree<Vertex> tree;
  // Filled on the compute threads: on one, faulting these arrays in made most
  // of the time outside the EDGEMAPs of an in-memory BFS on RMAT 22.
  tree.parent = engine.filled_array<Vertex>(n, BfsTree<Vertex>::none, "BFS's parents");
  tree.depth = engine.filled_array<Vertex>(n, BfsTree<Vertex>::none, "BFS's depths");
  tree.parent[source] = Vertex(source);
  tree.depth[source] = 0;
  BfsResult result;
  result.reached = 1;
  engine::VertexSubset frontier = engine::VertexSubset::single(n, source);
  engine::OpenDestinations unvisited;  // cond (not visited) only turns false
  while (!frontier.empty()) {
    BfsLevel<Vertex> level{tree.parent.data(), tree.depth.data(), Vertex(result.levels + 1)};
    frontier = engine.edge_map<Vertex>(frontier, level, unvisited);
    trace.record(engine, "level", result.levels);
    ++result.levels;
    result.reached += frontier.size();
  }
  result.tree = std::move(tree);
  return result;
}

// `values` as int64, none as -1.
template <class Vertex>
base::Array<int64_t> widened(engine::Engine& engine, const base::Array<Vertex>& values) {
  base::Array<int64_t> wide(values.size(), "BFS's 64-bit results");
  engine.parallel_for(values.size(), [&](int, uint64_t begin, uint64_t end) {
    for (uint64_t v = begin; v < end; ++v) wide[v] = values[v] == BfsTree<Vertex>::none ? -1 : int64_t(values[v]);
  });
  return wide;
}

}  // namespace

base::Array<int64_t> BfsResult::parents(engine::Engine& engine) const {
  return std::visit([&](const auto& t) { return widened(engine, t.parent); }, tree);
}

base::Array<int64_t> BfsResult::depths(engine::Engine& engine) const {
  return std::visit([&](const auto& t) { return widened(engine, t.depth); }, tree);
}

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (source >= n) throw std::invalid_argument("source vertex " + std::to_string(source) + " is not below " + std::to_string(n));
  // 32-bit words hold every id below n and none (2^32 - 1) when n < 2^32.
  return n < (uint64_t(1) << 32) ? run<uint32_t>(engine, source, trace) : run<uint64_t>(engine, source, trace);
}

}  // namespace sluice::algorithms
