// The input's vertex ids of a graph whose ids were relabelled (`sluice
// convert --relabel` keeps only the ids that appear in an edge, numbered
// densely from 0): vertex v of the layout is original(v) of the input.
// Whatever a user reads or types — sources, output files, summaries —
// goes through it; the engine works in the dense ids.
#pragma once

#include <cstdint>
#include <optional>

#include "base/array.hpp"

namespace sluice::base {

class IdMap {
 public:
  // No map: every vertex is its own id.
  IdMap() = default;
  // originals[v]: vertex v's id in the input, distinct (checked).
  explicit IdMap(Array<uint64_t> originals);

  bool empty() const { return originals_.size() == 0; }
  uint64_t original(uint64_t v) const { return empty() ? v : originals_[v]; }
  // The vertex the input called `original`, if any vertex was.
  std::optional<uint64_t> vertex_of(uint64_t original) const;
  // Vertex v of a listing in the input's id order (the identity when the
  // dense ids ascend with the original ones, as --relabel numbers them).
  uint64_t in_original_order(uint64_t i) const { return by_original_.size() ? by_original_[i] : i; }
  // Whether that listing is in the layout's order (no --reorder).
  bool in_layout_order() const { return by_original_.size() == 0; }
  // Where vertex v comes in that listing: in_original_order's inverse.
  uint64_t position_in_original_order(uint64_t v) const;
  // The input's ids are 0 .. n - 1, only in another order (--reorder
  // without --relabel): files can list values by position, in input order.
  bool permutes() const { return permutes_; }
  const Array<uint64_t>& originals() const { return originals_; }
  // What the map holds in memory: 8 bytes a vertex, 16 when the order
  // by original id is kept too.
  uint64_t memory_bytes() const { return (originals_.size() + by_original_.size()) * sizeof(uint64_t); }
  IdMap copy() const;

 private:
  Array<uint64_t> originals_;
  Array<uint64_t> by_original_;  // vertices sorted by original id; empty when they already are
  bool permutes_ = false;
};

}  // namespace sluice::base
