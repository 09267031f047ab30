// JT-CC: connected components by Jayanti and Tarjan's randomized
// concurrent union-find. One pass streams the edges block by block through
// the block API (any format, decoded in parallel by the library threads);
// every edge is one independent unite(src, dst): find both roots with path
// splitting, and link the root of lower random priority under the other
// with one compare-and-swap. No engine, no frontier: memory is O(|V|)
// (a parent per vertex), and the edges are read exactly once.
#pragma once

#include <cstdint>

#include "algorithms/wcc.hpp"
#include "formats/block_graph.hpp"

namespace sluice::algorithms {

struct JtccResult : ComponentsResult {
  uint64_t edges = 0;  // edges united
};

constexpr uint64_t jtcc_bytes_per_vertex = 16;

// Labels are the smallest vertex id of each component, as wcc() gives.
JtccResult jtcc(BlockGraph& graph, uint64_t seed = 0x5eed);

}  // namespace sluice::algorithms
