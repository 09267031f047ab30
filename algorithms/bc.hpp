// Betweenness centrality by Brandes's algorithm, from one or more sources
// (exact when every vertex is a source, an estimate from a sample
// otherwise; scores are not normalized). Per source, a forward BFS over
// the out-edges counts shortest paths (sigma) level by level and keeps
// each level's frontier; the backward pass walks the levels deepest first
// over the transpose, where each vertex w pushes (1 + delta[w]) / sigma[w]
// to its predecessors one level up, which then multiply the sum by their
// own sigma: delta[v] = sigma[v] * sum over successors w of (1 + delta[w]) / sigma[w].
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct BcResult {
  base::Array<double> score;  // filled on the engine's threads
  uint64_t sources = 0;
  uint64_t levels = 0;  // forward levels, summed over sources
};

// Path counts and dependencies over every vertex, depths and scores over
// the own ones.
constexpr engine::VertexBytes bc_vertex_bytes{16, 16};

// `in` runs over the transpose; null when the graph is symmetric.
BcResult bc(engine::Engine& out, engine::Engine* in, const std::vector<uint64_t>& sources, RunTrace& trace);

}  // namespace sluice::algorithms
