// The in-memory graph forms the loaders produce: an edge list (COO) straight
// from parsing and the CSR built from it. V is the vertex id type: uint32_t
// when every id fits, uint64_t otherwise.
#pragma once

#include <cstdint>
#include <string>

#include "base/array.hpp"
#include "base/graph_info.hpp"
#include "base/thread_count.hpp"

namespace sluice::formats {

template <class V>
struct EdgeList {
  uint64_t vertices = 0;  // ids are in [0, vertices)
  base::Array<V> sources;
  base::Array<V> targets;
  base::Array<float> weights;  // empty when unweighted
  bool weighted = false;
  uint64_t size() const { return sources.size(); }
};

template <class V>
struct Csr {
  using id_type = V;
  uint64_t vertices = 0;
  base::Array<uint64_t> offsets;  // vertices + 1 entries; offsets[vertices] == edges
  base::Array<V> targets;
  base::Array<float> weights;  // empty when unweighted
  bool weighted = false;
  bool symmetric = false;  // see GraphInfo

  uint64_t edges() const { return vertices == 0 ? 0 : offsets[vertices]; }
  uint64_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
  base::GraphInfo info() const { return {vertices, edges(), weighted, unsigned(sizeof(V)), symmetric}; }
};

// Where CSR building may spill: building within `limit` bytes
// (formats/external_csr.hpp) when the edges do not fit in memory.
struct BuildMemory {
  uint64_t limit = 0;    // 0: build in memory
  std::string temp_dir;  // scratch files ("": the working directory)
  uint64_t range_bytes = 0;  // the records placed at once (0: half of what the limit leaves; tests make it tiny)
  // Bytes a vertex that the conversion holds beside a build: the other
  // edge set's offsets and the writer's degrees and index; a ranked
  // conversion holds more (formats/ranked_writer.cpp).
  uint64_t held_per_vertex = 16;
  bool bounded() const { return limit != 0; }
};

// What CSR building may do to the edges on the way.
struct BuildOptions {
  bool symmetrize = false;         // add (v,u) for every (u,v)
  bool transpose = false;          // build the CSR of the reversed edges
  bool drop_self_loops = false;    // remove (v,v)
  bool remove_duplicates = false;  // keep the first of equal (u,v); implies sorting
  bool sort_neighbors = false;     // each neighbour list ascending by target
  bool relabel = false;            // keep the ids that appear in an edge, dense from 0 (formats/relabel.hpp)
  bool order_by_degree = false;    // renumber by descending degree (formats/relabel.hpp)
  int threads = 0;                 // 0: OpenMP's default
  bool progress = false;           // the passes' progress on a terminal
  // Bounded builds: the transpose's records are spilled as the graph's
  // ranges are placed, for GraphSource::built_transpose.
  bool transpose_alongside = false;
  // The writer stores each list sorted (compressed pages, where they hold
  // the graph): a bounded build sorts each range's lists as its lanes
  // place them, side by side, and the writer finds them so. The edges
  // are not changed: plain pages get the input's order.
  bool sorted_for_pages = false;
  BuildMemory memory;
  bool changes_edges() const {
    return symmetrize || transpose || drop_self_loops || remove_duplicates || sort_neighbors || relabel || order_by_degree;
  }
};

}  // namespace sluice::formats
