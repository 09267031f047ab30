// The frontier an EDGEMAP builds: the destinations that gather activated,
// collected on any thread. A bitmap (set atomically) drops repeats; the
// ids go to per-thread lists, so a small next frontier costs its size,
// not the vertex count, and a large one is handed out as the bitmap (a
// list stops growing once it alone makes the frontier dense).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "engine/indexed_bitmap.hpp"
#include "engine/vertex_subset.hpp"

namespace sluice::engine {

class NextFrontier {
 public:
  NextFrontier(uint64_t vertices, int threads)
      : bits_(vertices), lists_(size_t(threads)), dense_above_(vertices / VertexSubset::dense_divisor) {}

  void add(int t, uint64_t v) {
    if (bits_.set_atomic(v)) note(lists_[size_t(t)], v);
  }
  // Adds the members of bits word w (vertices w*64 + i for each set bit i)
  // with one atomic or: pull activates runs of neighbouring destinations.
  void add_word(int t, uint64_t w, uint64_t bits) {
    if (!bits) return;
    List& list = lists_[size_t(t)];
    for (uint64_t added = bits_.set_word_atomic(w, bits); added; added &= added - 1) {
      note(list, w * 64 + uint64_t(std::countr_zero(added)));
    }
  }

  // The members added since the last take; leaves the builder empty.
  VertexSubset take() {
    const uint64_t n = bits_.size();
    uint64_t count = 0;
    for (auto& list : lists_) count += list.count;
    if (count > dense_above_) {
      for (auto& list : lists_) list = List{};
      IndexedBitmap full(n);
      std::swap(full, bits_);
      return VertexSubset::from_bitmap(std::move(full), count);
    }
    std::vector<uint64_t> ids;
    ids.reserve(count);
    for (auto& list : lists_) {
      ids.insert(ids.end(), list.ids.begin(), list.ids.end());
      list.ids.clear();
      list.count = 0;
    }
    for (uint64_t v : ids) bits_.reset(v);
    bits_.clear_index();
    return VertexSubset::from_ids(n, std::move(ids));
  }

  uint64_t memory_bytes() const { return bits_.memory_bytes(); }

 private:
  struct alignas(64) List {
    std::vector<uint64_t> ids;
    uint64_t count = 0;  // members this thread added; ids holds them while they may form a sparse frontier
  };
  void note(List& list, uint64_t v) {
    if (++list.count <= dense_above_ + 1) list.ids.push_back(v);
  }

  IndexedBitmap bits_;
  std::vector<List> lists_;
  uint64_t dense_above_;  // more members than this: the frontier is dense
};

}  // namespace sluice::engine
