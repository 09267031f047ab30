// The frontier an EDGEMAP builds: the destinations that gather activated,
// collected on any thread. A bitmap (set atomically) drops repeats; the
// ids go to per-thread lists, so a small next frontier costs its size,
// not the vertex count, and a large one is handed out as the bitmap.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/indexed_bitmap.hpp"
#include "engine/vertex_subset.hpp"

namespace sluice::engine {

class NextFrontier {
 public:
  NextFrontier(uint64_t vertices, int threads) : bits_(vertices), ids_(size_t(threads)) {}

  void add(int t, uint64_t v) {
    if (bits_.set_atomic(v)) ids_[size_t(t)].ids.push_back(v);
  }

  // The members added since the last take; leaves the builder empty.
  VertexSubset take() {
    const uint64_t n = bits_.size();
    uint64_t count = 0;
    for (auto& list : ids_) count += list.ids.size();
    if (count * VertexSubset::dense_divisor > n) {
      for (auto& list : ids_) list.ids.clear();
      IndexedBitmap full(n);
      std::swap(full, bits_);
      return VertexSubset::from_bitmap(std::move(full), count);
    }
    std::vector<uint64_t> ids;
    ids.reserve(count);
    for (auto& list : ids_) {
      ids.insert(ids.end(), list.ids.begin(), list.ids.end());
      list.ids.clear();
    }
    for (uint64_t v : ids) bits_.reset(v);
    bits_.clear_index();
    return VertexSubset::from_ids(n, std::move(ids));
  }

  uint64_t memory_bytes() const { return bits_.memory_bytes(); }

 private:
  struct alignas(64) Ids {
    std::vector<uint64_t> ids;
  };
  IndexedBitmap bits_;
  std::vector<Ids> ids_;
};

}  // namespace sluice::engine
