// The in-memory graph forms the loaders produce: an edge list (COO) straight
// from parsing and the CSR built from it. V is the vertex id type: uint32_t
// when every id fits, uint64_t otherwise.
#pragma once

#include <cstdint>

#include "formats/array.hpp"
#include "formats/thread_count.hpp"

namespace sluice {

struct GraphInfo {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  unsigned id_bytes = 4;  // width of a vertex id: 4 or 8
  // Known to hold every edge both ways: built with symmetrize (or from a
  // symmetric Matrix Market file), or a layout that records it. Never
  // guessed from the edges.
  bool symmetric = false;
};

template <class V>
struct EdgeList {
  uint64_t vertices = 0;  // ids are in [0, vertices)
  Array<V> sources;
  Array<V> targets;
  Array<float> weights;  // empty when unweighted
  bool weighted = false;
  uint64_t size() const { return sources.size(); }
};

template <class V>
struct Csr {
  using id_type = V;
  uint64_t vertices = 0;
  Array<uint64_t> offsets;  // vertices + 1 entries; offsets[vertices] == edges
  Array<V> targets;
  Array<float> weights;  // empty when unweighted
  bool weighted = false;
  bool symmetric = false;  // see GraphInfo

  uint64_t edges() const { return vertices == 0 ? 0 : offsets[vertices]; }
  uint64_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
  GraphInfo info() const { return {vertices, edges(), weighted, unsigned(sizeof(V)), symmetric}; }
};

// What CSR building may do to the edges on the way.
struct BuildOptions {
  bool symmetrize = false;         // add (v,u) for every (u,v)
  bool transpose = false;          // build the CSR of the reversed edges
  bool drop_self_loops = false;    // remove (v,v)
  bool remove_duplicates = false;  // keep the first of equal (u,v); implies sorting
  bool sort_neighbors = false;     // each neighbour list ascending by target
  int threads = 0;                 // 0: OpenMP's default
  bool progress = false;           // the passes' progress on a terminal
  bool changes_edges() const {
    return symmetrize || transpose || drop_self_loops || remove_duplicates || sort_neighbors;
  }
};

}  // namespace sluice
