// Radii estimation (Ligra's Radii): a BFS from up to 64 sampled sources at
// once, each vertex keeping a bit mask of the sources that have reached
// it; a vertex's estimate is the last level at which its mask grew, that
// is its distance from the farthest sampled source that reaches it. With
// every vertex a source (64 vertices or fewer) on an undirected graph,
// that is its eccentricity.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct RadiiResult {
  std::vector<int64_t> radius;  // per vertex: the estimate; -1 where no source reaches
  std::vector<uint64_t> sources;
  int64_t largest = 0;          // the largest estimate: a lower bound of the diameter
  uint64_t rounds = 0;
};

// The masks seen and being built (8 + 8) and the estimate (8).
constexpr uint64_t radii_bytes_per_vertex = 24;
constexpr unsigned radii_most_sources = 64;

// The sampled sources: every vertex when there are at most 64, else 64
// distinct vertices drawn with `seed`, ascending.
std::vector<uint64_t> radii_sources(uint64_t vertices, uint64_t seed);

RadiiResult radii(engine::Engine& engine, const std::vector<uint64_t>& sources, RunTrace& trace);

}  // namespace sluice::algorithms
