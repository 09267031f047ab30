// Breadth-first search (Blaze's Algorithm 1): the frontier's out-edges
// claim every unvisited neighbour, which records its parent and depth.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct BfsResult {
  base::Array<int64_t> parent;  // -1: not reached; the source is its own parent
  base::Array<int64_t> depth;   // -1: not reached
  uint64_t reached = 0;
  uint64_t levels = 0;          // EDGEMAP rounds
};

// Vertex state bytes per vertex, for the engine's memory budget.
constexpr uint64_t bfs_bytes_per_vertex = 16;

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace);

}  // namespace sluice::algorithms
