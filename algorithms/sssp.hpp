// Single-source shortest paths by delta-stepping (Meyer and Sanders, as
// GAPBS's sssp) over EDGEMAP. Distances fall into buckets of width delta;
// the lowest bucket's vertices relax their out-edges, again and again
// while relaxations land in that bucket, then the next non-empty bucket
// goes. Relaxed distances land in DRAM (4 bytes a vertex); only the pages
// of the vertices being relaxed are read. A destination takes the least
// distance offered (binning: one thread per destination; pull: the least
// of a page's offers, combined in a register).
//
// delta = infinity puts every distance in one bucket: Bellman-Ford over
// the frontier of changed vertices, which also takes negative weights (a
// negative cycle reachable from the source is an error after |V| rounds).
// With a finite delta, weights must not be negative (an error naming the
// edge's source). Unweighted graphs have weight 1 (delta 1: BFS levels).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct SsspOptions {
  double delta = 1;  // bucket width (GAPBS's -d); infinity: Bellman-Ford
};

struct SsspResult {
  std::vector<float> distance;  // infinity where not reached
  uint64_t reached = 0;
  uint64_t buckets = 0;  // buckets emptied
  uint64_t rounds = 0;   // EDGEMAPs
};

constexpr uint64_t sssp_bytes_per_vertex = 16;  // distances, and the waiting bins' ids at worst

SsspResult sssp(engine::Engine& engine, uint64_t source, const SsspOptions& options, RunTrace& trace);

}  // namespace sluice::algorithms
