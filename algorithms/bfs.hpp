// Breadth-first search (Blaze's Algorithm 1): the frontier's out-edges
// claim every unvisited neighbour, which records its parent and depth.
#pragma once

#include <cstdint>
#include <variant>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

// The search tree as the kernel keeps it: in 32-bit words whenever every id
// and the `none` mark fit (GAPBS's int32 parents), so that a run faults in
// and writes half the memory of 64-bit state.
template <class Vertex>
struct BfsTree {
  static constexpr Vertex none = Vertex(-1);
  base::Array<Vertex> parent;  // none: not reached; the source is its own parent
  base::Array<Vertex> depth;   // none: not reached
};

struct BfsResult {
  std::variant<BfsTree<uint32_t>, BfsTree<uint64_t>> tree;
  uint64_t reached = 0;
  uint64_t levels = 0;  // EDGEMAP rounds

  // The tree as signed 64-bit values, -1 for not reached: what the outputs
  // and Python return. Each is filled on the engine's threads.
  base::Array<int64_t> parents(engine::Engine& engine) const;
  base::Array<int64_t> depths(engine::Engine& engine) const;
};

// Vertex state bytes per vertex, for the engine's memory budget: 64-bit
// trees, or 32-bit ones while both 64-bit copies are made.
constexpr uint64_t bfs_bytes_per_vertex = 24;

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace);

}  // namespace sluice::algorithms
