#include "algorithms/bfs.hpp"

#include <stdexcept>
#include <string>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

// One level: the value sent along src -> dst is src, the would-be parent,
// as an Id (32 bits whenever the ids fit: 8-byte bin records).
template <class Id>
struct BfsLevel {
  int64_t* parent;
  int64_t* depth;
  int64_t next_depth;

  bool cond(uint64_t dst) const { return relaxed_load(parent[dst]) < 0; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = Id(src);
    return true;
  }
  // The engine calls cond(dst) just before, on this thread: dst is unvisited.
  bool gather(uint64_t dst, const Id& src) {
    relaxed_store(parent[dst], int64_t(src));
    depth[dst] = next_depth;
    return true;
  }
  bool gather_atomic(uint64_t dst, const Id& src) {
    int64_t unvisited = -1;
    if (!std::atomic_ref<int64_t>(parent[dst]).compare_exchange_strong(unvisited, int64_t(src), std::memory_order_relaxed)) {
      return false;
    }
    depth[dst] = next_depth;
    return true;
  }
  void prefetch_destination(uint64_t dst) const {
    __builtin_prefetch(parent + dst, 1);
    __builtin_prefetch(depth + dst, 1);
  }
};

template <class Id>
BfsResult run(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  BfsResult result;
  // Filled on the compute threads: on one, faulting in these 16 bytes per
  // vertex made most of the 0.029 s outside the EDGEMAPs of an in-memory
  // BFS on RMAT 22 (0.15 s in all).
  result.parent = engine.filled_array<int64_t>(n, -1, "BFS's parents");
  result.depth = engine.filled_array<int64_t>(n, -1, "BFS's depths");
  result.parent[source] = int64_t(source);
  result.depth[source] = 0;
  result.reached = 1;
  engine::VertexSubset frontier = engine::VertexSubset::single(n, source);
  engine::OpenDestinations unvisited;  // cond (not visited) only turns false
  while (!frontier.empty()) {
    BfsLevel<Id> level{result.parent.data(), result.depth.data(), int64_t(result.levels) + 1};
    frontier = engine.edge_map<Id>(frontier, level, unvisited);
    trace.record(engine, "level", result.levels);
    ++result.levels;
    result.reached += frontier.size();
  }
  return result;
}

}  // namespace

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (source >= n) throw std::invalid_argument("source vertex " + std::to_string(source) + " is not below " + std::to_string(n));
  return n <= (uint64_t(1) << 32) ? run<uint32_t>(engine, source, trace) : run<uint64_t>(engine, source, trace);
}

}  // namespace sluice::algorithms
