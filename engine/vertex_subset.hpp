// A frontier: a set of vertices held sparse (a sorted list of ids) or dense
// (an indexed bitmap), switching by density as Ligra does: dense once more
// than vertices / 20 are active.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/indexed_bitmap.hpp"

namespace sluice::engine {

class VertexSubset {
 public:
  static constexpr uint64_t dense_divisor = 20;

  explicit VertexSubset(uint64_t vertices = 0) : vertices_(vertices) {}
  static VertexSubset single(uint64_t vertices, uint64_t v) {
    VertexSubset s(vertices);
    s.sparse_.push_back(v);
    s.count_ = 1;
    return s;
  }
  static VertexSubset all(uint64_t vertices);
  // From any list of ids (sorted and deduplicated here).
  static VertexSubset from_ids(uint64_t vertices, std::vector<uint64_t> ids);
  // From ids already ascending and distinct.
  static VertexSubset from_sorted_ids(uint64_t vertices, std::vector<uint64_t> ids);
  // The ids of pieces that follow each other (each sorted, each past the
  // one before: the compute threads' pieces of a range, in thread order).
  static VertexSubset from_sorted_pieces(uint64_t vertices, std::vector<std::vector<uint64_t>> pieces);
  // From a bitmap with `count` bits set.
  static VertexSubset from_bitmap(IndexedBitmap bitmap, uint64_t count);
  // The members of either.
  static VertexSubset unite(const VertexSubset& a, const VertexSubset& b);

  uint64_t vertices() const { return vertices_; }
  uint64_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool is_all() const { return count_ == vertices_; }
  bool is_dense() const { return dense_.has_value(); }
  bool contains(uint64_t v) const {
    return dense_ ? dense_->test(v) : std::binary_search(sparse_.begin(), sparse_.end(), v);
  }

  // Calls f(v) for every member, ascending.
  template <class F>
  void for_each(F&& f) const {
    if (dense_) {
      dense_->for_each(f);
    } else {
      for (uint64_t v : sparse_) f(v);
    }
  }

  void to_dense();
  void to_sparse();
  // The form its density calls for.
  void normalize() {
    if (count_ * dense_divisor > vertices_) to_dense();
    else to_sparse();
  }
  const IndexedBitmap* bitmap() const { return dense_ ? &*dense_ : nullptr; }
  const std::vector<uint64_t>& ids() const { return sparse_; }

 private:
  uint64_t vertices_;
  uint64_t count_ = 0;
  std::vector<uint64_t> sparse_;
  std::optional<IndexedBitmap> dense_;
};

}  // namespace sluice::engine
