// Breadth-first search (Blaze's Algorithm 1): the frontier's out-edges
// claim every unvisited neighbour, which records its parent and depth.
#pragma once

#include <cstdint>
#include <variant>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

// The search tree as the kernel keeps it: in int32 whenever every id fits
// (as GAPBS's parents), so that a run faults in and writes half the
// memory of int64 state.
template <class Vertex>
struct BfsTree {
  base::Array<Vertex> parent;  // -1: not reached; the source is its own parent
  base::Array<Vertex> depth;   // -1: not reached
};

struct BfsResult {
  std::variant<BfsTree<int32_t>, BfsTree<int64_t>> tree;
  uint64_t reached = 0;
  uint64_t levels = 0;  // EDGEMAP rounds

  // The tree in int64, filled on the engine's threads.
  base::Array<int64_t> parents(engine::Engine& engine) const;
  base::Array<int64_t> depths(engine::Engine& engine) const;
};

// Vertex state bytes per vertex, for the engine's memory budget: an int64
// tree, or an int32 one whose arrays are widened in place for the
// outputs (base::Array::widened), one after the other; of the own
// vertices only (a gather's destinations: on ranks, the rank's range).
constexpr engine::VertexBytes bfs_vertex_bytes{0, 16};

BfsResult bfs(engine::Engine& engine, uint64_t source, RunTrace& trace);

}  // namespace sluice::algorithms
