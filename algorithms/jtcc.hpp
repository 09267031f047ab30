// JT-CC: connected components by Jayanti and Tarjan's randomized
// concurrent union-find (union_find.hpp, RandomRank). One pass streams the
// edges block by block through the block API (any format, decoded in
// parallel by the library threads); every edge is one independent link:
// find both roots with path halving, and hook the root of lower random
// rank under the other with one compare-and-swap. No engine, no frontier:
// memory is O(|V|) (a 32-bit parent per vertex when the ids fit, and the
// labels), and the edges are read exactly once.
#pragma once

#include <cstdint>

#include "algorithms/wcc.hpp"
#include "engine/communicator.hpp"
#include "formats/block_graph.hpp"

namespace sluice::algorithms {

struct JtccResult : ComponentsResult {
  uint64_t edges = 0;  // edges united
};

constexpr uint64_t jtcc_bytes_per_vertex = 16;

// Rank r's share of `vertices`: [begin, end), the r-th of even shares.
struct VertexShare {
  uint64_t begin, end;
};
VertexShare jtcc_share(uint64_t vertices, const engine::Communicator& ranks);

// Labels are the smallest vertex id of each component, as wcc() gives.
// With a communicator of several ranks, rank r reads the r-th share of
// the vertices' blocks (every rank opens the same graph), and one allreduce
// merges the ranks' labellings: every rank returns the whole result.
JtccResult jtcc(formats::BlockGraph& graph, uint64_t seed = 0x5eed, engine::Communicator* communicator = nullptr);

}  // namespace sluice::algorithms
