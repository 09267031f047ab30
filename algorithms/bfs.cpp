#include "algorithms/bfs.hpp"

#include <stdexcept>
#include <string>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

// One level: the value sent along src -> dst is src, the would-be parent,
// as an Id (32 bits whenever the ids fit: 8-byte bin records); the tree
// holds Vertex values (int32 or int64).
template <class Id, class Vertex>
struct BfsLevel {
  Vertex* parent;
  Vertex* depth;
  Vertex next_depth;

  bool cond(uint64_t dst) const { return relaxed_load(parent[dst]) < 0; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = Id(src);
    return true;
  }
  // The engine calls cond(dst) just before, on this thread: dst is unvisited.
  bool gather(uint64_t dst, const Id& src) {
    relaxed_store(parent[dst], Vertex(src));
    depth[dst] = next_depth;
    return true;
  }
  bool gather_atomic(uint64_t dst, const Id& src) {
    Vertex unvisited = -1;
    if (!std::atomic_ref<Vertex>(parent[dst]).compare_exchange_strong(unvisited, Vertex(src), std::memory_order_relaxed)) return false;
    depth[dst] = next_depth;
    return true;
  }
  void prefetch_destination(uint64_t dst) const {
    __builtin_prefetch(parent + dst, 1);
    __builtin_prefetch(depth + dst, 1);
  }
};

template <class Id, class Vertex>
BfsResult run(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  BfsTree<Vertex> tree;
  // Filled on the compute threads: on one, faulting these arrays in made most
  // of the time outside the EDGEMAPs of an in-memory BFS on RMAT 22. Both
  // are read and written at the destinations alone: on ranks, the own range.
  tree.parent = engine.filled_owned_array<Vertex>(n, -1, "BFS's parents");
  tree.depth = engine.filled_owned_array<Vertex>(n, -1, "BFS's depths");
  tree.parent[source] = Vertex(source);
  tree.depth[source] = 0;
  BfsResult result;
  result.reached = 1;
  engine::VertexSubset frontier = engine::VertexSubset::single(n, source);
  engine::OpenDestinations unvisited;  // cond (not visited) only turns false
  while (!frontier.empty()) {
    BfsLevel<Id, Vertex> level{tree.parent.data(), tree.depth.data(), Vertex(result.levels + 1)};
    frontier = engine.edge_map<Id>(frontier, level, unvisited);
    trace.record(engine, "level", result.levels);
    ++result.levels;
    result.reached += frontier.size();
  }
  result.tree = std::move(tree);
  return result;
}

}  // namespace

base::Array<int64_t> BfsResult::parents(engine::Engine& engine) const {
  return std::visit([&](const auto& t) { return engine.converted_array<int64_t>(t.parent, "BFS's parents in int64"); }, tree);
}

base::Array<int64_t> BfsResult::depths(engine::Engine& engine) const {
  return std::visit([&](const auto& t) { return engine.converted_array<int64_t>(t.depth, "BFS's depths in int64"); }, tree);
}

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (source >= n) throw std::invalid_argument("source vertex " + std::to_string(source) + " is not below " + std::to_string(n));
  // int32 holds every id below n, and -1, when n <= 2^31.
  if (n <= uint64_t(INT32_MAX) + 1) return run<uint32_t, int32_t>(engine, source, trace);
  return n <= (uint64_t(1) << 32) ? run<uint32_t, int64_t>(engine, source, trace) : run<uint64_t, int64_t>(engine, source, trace);
}

}  // namespace sluice::algorithms
