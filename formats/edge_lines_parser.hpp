// The second pass of text edge-list loading, shared by whitespace edge lists
// and the body of Matrix Market files: every chunk parses "u v [w]" lines
// straight into its own slots of the edge arrays.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/mapped_file.hpp"
#include "formats/csr.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

struct EdgeLinesFormat {
  uint64_t body_begin = 0;    // byte offset of the first edge line
  uint64_t body_end = UINT64_MAX;  // and of the end of the last (UINT64_MAX: the file's end)
  uint64_t first_line = 1;    // its line number
  bool weighted = false;      // a third column holds the weight
  int base = 0;               // ids in the file are 0- or 1-based
  uint64_t source_limit = UINT64_MAX;  // declared bounds on ids (UINT64_MAX: none)
  uint64_t target_limit = UINT64_MAX;
  uint64_t vertices = 0;      // declared vertex count (0: max id + 1)
  std::optional<uint64_t> expected_edges;  // Matrix Market's declared count (any value, 2^64 - 1 too)
  const char* limit_name = "declared vertex count";
  int threads = 0;
  bool progress = false;
  bool any_ids = false;       // ids of any 64-bit size (relabelled afterwards)
};

// Parses with ids of type V. Returns false (and nothing) when an id does
// not fit in V, so the caller can retry with 64-bit ids.
template <class V>
bool parse_edge_lines(const base::MappedFile& file, const EdgeLinesFormat& format, EdgeList<V>& out);

// Parses the body window by window, each about `window_bytes` and cut at
// a line's end, handing each window's edges (64-bit ids, in file order)
// to `consume` and releasing its pages; the declared count of edges, if
// any, is checked over all of them. Returns the graph's vertex count
// (format.vertices, or the largest id + 1).
uint64_t parse_edge_lines_in_windows(const base::MappedFile& file, EdgeLinesFormat format, uint64_t window_bytes,
                                     const std::function<void(EdgeList<uint64_t>&)>& consume);

// Parses with 32-bit ids when every id fits (and id_bytes is not 8), with
// 64-bit ids otherwise.
AnyEdgeList parse_edge_lines_narrowest(const base::MappedFile& file, const EdgeLinesFormat& format, unsigned id_bytes);

}  // namespace sluice::formats
