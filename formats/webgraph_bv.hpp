// WebGraph's BV compressed graphs (Boldi and Vigna), decoded natively:
// BASENAME.properties (counts, window, reference limit, minimum interval
// length, zeta k, compression flags), BASENAME.graph (the bit stream) and
// BASENAME.offsets (gamma-coded gaps between the bit offsets of successive
// nodes, n + 1 of them). Each node's list is its outdegree, then a
// reference to one of the previous `windowsize` lists with copy blocks,
// then intervals and residuals; see decode_node in webgraph_bv.cpp.
//
// Served through the block API: any block of nodes decodes on its own
// (references that reach before the block are decoded on demand), so the
// async API decodes blocks in parallel. Intervals are always gamma-coded,
// as WebGraph writes them whatever INTERVALS_* says.
#pragma once

#include <memory>
#include <string>

#include "formats/bit_reader.hpp"
#include "formats/graph_source.hpp"

namespace sluice::formats {

struct BvProperties {
  uint64_t nodes = 0, arcs = 0;
  unsigned window = 7, max_ref_count = 3, min_interval_length = 4, zeta_k = 3;
  BitCode outdegrees = BitCode::gamma, references = BitCode::unary, blocks = BitCode::gamma,
          residuals = BitCode::zeta, offsets = BitCode::gamma, block_count = BitCode::gamma;

  static BvProperties read(const std::string& path);
};

// "cnr-2000", "cnr-2000.graph" and "cnr-2000.properties" all name the graph.
std::string bv_basename(const std::string& path);

struct BvOpenOptions {
  bool save_offsets = false;  // write BASENAME.offsets when it had to be built
  int threads = 0;
};

std::unique_ptr<GraphSource> open_bv_graph(const std::string& path, const BvOpenOptions& options = {});

}  // namespace sluice::formats
