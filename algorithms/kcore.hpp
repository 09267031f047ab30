// k-core decomposition (Ligra's KCore): the coreness of every vertex, the
// largest k such that the vertex belongs to a subgraph where every vertex
// has degree at least k. Peeling over EDGEMAP: the vertices of degree at
// most k leave with coreness k and push one lost degree to each neighbour
// (summed per destination: binning, or combined per page when pulled),
// until none is left at k; then k jumps to the least remaining degree.
//
// The graph must be undirected (every edge stored both ways: a symmetric
// layout, or --symmetric checked). Degrees count stored edges: a repeated
// edge counts twice and a self loop once, as the layout holds them; the
// coreness of the simple graph (networkx's core_number) comes from a
// layout converted with --symmetrize --dedup --drop-self-loops.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct KcoreResult {
  std::vector<uint64_t> core;  // coreness per vertex
  uint64_t largest = 0;        // the largest coreness (the degeneracy)
  uint64_t in_largest = 0;     // vertices of that coreness
  uint64_t rounds = 0;         // peeling EDGEMAPs
};

// The coreness over every vertex (read where a peel starts), the
// remaining degree over the own ones.
constexpr engine::VertexBytes kcore_vertex_bytes{8, 4};

KcoreResult kcore(engine::Engine& engine, RunTrace& trace);

}  // namespace sluice::algorithms
