// Parallel loaders of the text and binary formats that are not CSR on disk:
// whitespace edge lists (SNAP, GAPBS .el/.wel), Matrix Market coordinate
// files, binary edge lists and Ligra's adjacency graphs. Edge-list formats
// load into an EdgeList and are turned into CSR by build_csr. Each reads a
// MappedFile (so compressed files and pipes too); the path forms open one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>

#include "base/mapped_file.hpp"
#include "formats/csr.hpp"

namespace sluice::formats {

using AnyEdgeList = std::variant<EdgeList<uint32_t>, EdgeList<uint64_t>>;
using AnyCsr = std::variant<Csr<uint32_t>, Csr<uint64_t>>;

struct LoadOptions {
  int base = -1;           // ids are 0- or 1-based; -1: the format's default
  uint64_t vertices = 0;   // declared vertex count; 0: from the file or max id + 1
  int threads = 0;
  unsigned id_bytes = 0;   // 0: 32-bit ids when they fit; 8: always 64-bit
  bool progress = false;   // decoding and parsing progress on a terminal
  // Ids of any 64-bit size: --relabel numbers them densely afterwards.
  bool relabel = false;
  // An edge list's share `share` of `shares` (a rank's share of one
  // file, programs/convert_on_ranks.hpp): of a text file, its lines from
  // the share's first byte, cut at line ends (the header is read whole
  // either way); of a binary one, its share of the pairs.
  unsigned share = 0, shares = 1;
};

// "u v" or "u v w" lines; '#' and '%' start comments. A SNAP header line
// "# Nodes: N ..." declares the vertex count. Weights are required when
// `require_weights` (.wel) and otherwise detected from the first data line.
AnyEdgeList read_text_edge_list(const base::MappedFile& file, const LoadOptions& options, bool require_weights);
inline AnyEdgeList read_text_edge_list(const std::string& path, const LoadOptions& options, bool require_weights) {
  return read_text_edge_list(base::MappedFile(path), options, require_weights);
}

struct MatrixMarketGraph {
  AnyEdgeList edges;
  bool symmetric = false;  // the file stores one triangle; build with symmetrize
};
MatrixMarketGraph read_matrix_market(const base::MappedFile& file, const LoadOptions& options);
inline MatrixMarketGraph read_matrix_market(const std::string& path, const LoadOptions& options) {
  return read_matrix_market(base::MappedFile(path), options);
}

// Little-endian pairs of 32- or 64-bit ids, no header; an empty file is a
// graph without edges.
AnyEdgeList read_binary_edge_list(const base::MappedFile& file, unsigned id_bytes, const LoadOptions& options);
// Of a binary edge list's `pairs` pairs, those [first, last) of its share
// (LoadOptions::share of shares).
std::pair<uint64_t, uint64_t> share_of_pairs(uint64_t pairs, const LoadOptions& options);
inline AnyEdgeList read_binary_edge_list(const std::string& path, unsigned id_bytes, const LoadOptions& options) {
  return read_binary_edge_list(base::MappedFile(path, /*allow_empty=*/true), id_bytes, options);
}

// Ligra's AdjacencyGraph / WeightedAdjacencyGraph text format.
AnyCsr read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options);
inline AnyCsr read_adjacency_graph(const std::string& path, const LoadOptions& options) {
  return read_adjacency_graph(base::MappedFile(path), options);
}

// Conversion in bounded memory: an edge-list file's edges handed over
// window by window (64-bit ids, in file order) instead of loaded; each
// window's pages are released once parsed.
struct EdgeWindows {
  uint64_t window_bytes = uint64_t(64) << 20;
  std::function<void(EdgeList<uint64_t>&)> consume;
};
struct WindowedRead {
  uint64_t vertices = 0;   // as the loaders above would count them
  bool weighted = false;
  bool symmetric = false;  // Matrix Market's one triangle: build with symmetrize
};
WindowedRead read_text_edge_list(const base::MappedFile& file, const LoadOptions& options, bool require_weights,
                                 const EdgeWindows& windows);
WindowedRead read_matrix_market(const base::MappedFile& file, const LoadOptions& options, const EdgeWindows& windows);
WindowedRead read_binary_edge_list(const base::MappedFile& file, unsigned id_bytes, const LoadOptions& options,
                                   const EdgeWindows& windows);
// Ligra's adjacency graph with only its offsets held (8 bytes a vertex).
WindowedRead read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options, const EdgeWindows& windows);

AnyCsr build_any_csr(const AnyEdgeList& edges, const BuildOptions& options);

}  // namespace sluice::formats
