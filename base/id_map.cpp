#include "base/id_map.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sluice::base {

IdMap::IdMap(Array<uint64_t> originals) : originals_(std::move(originals)) {
  const uint64_t n = originals_.size();
  if (std::is_sorted(originals_.begin(), originals_.end())) {
    // Sorted: distinct when no two neighbours are equal.
    for (uint64_t v = 1; v < n; ++v) {
      if (originals_[v] == originals_[v - 1]) throw std::invalid_argument("id map: the input id " + std::to_string(originals_[v]) + " is given to two vertices");
    }
    permutes_ = n > 0 && originals_[n - 1] == n - 1;
    return;
  }
  // Distinct ids below n are exactly 0 .. n - 1 (checked below).
  permutes_ = std::all_of(originals_.begin(), originals_.end(), [&](uint64_t id) { return id < n; });
  by_original_ = Array<uint64_t>(n, "the id map's order");
  std::iota(by_original_.begin(), by_original_.end(), uint64_t(0));
  std::sort(by_original_.begin(), by_original_.end(), [&](uint64_t a, uint64_t b) { return originals_[a] < originals_[b]; });
  for (uint64_t i = 1; i < n; ++i) {
    if (originals_[by_original_[i]] == originals_[by_original_[i - 1]]) {
      throw std::invalid_argument("id map: the input id " + std::to_string(originals_[by_original_[i]]) + " is given to two vertices");
    }
  }
}

std::optional<uint64_t> IdMap::vertex_of(uint64_t original) const {
  if (empty()) return original;
  const uint64_t n = originals_.size();
  // Binary search over the vertices in original order.
  uint64_t low = 0, high = n;
  while (low < high) {
    const uint64_t mid = low + (high - low) / 2;
    if (originals_[in_original_order(mid)] < original) low = mid + 1; else high = mid;
  }
  if (low < n && originals_[in_original_order(low)] == original) return in_original_order(low);
  return std::nullopt;
}

uint64_t IdMap::position_in_original_order(uint64_t v) const {
  if (in_layout_order()) return v;
  if (permutes_) return originals_[v];  // the ids are the positions
  // How many input ids are smaller than v's.
  const uint64_t id = originals_[v];
  uint64_t low = 0, high = by_original_.size();
  while (low < high) {
    const uint64_t mid = low + (high - low) / 2;
    if (originals_[by_original_[mid]] < id) low = mid + 1; else high = mid;
  }
  return low;
}

IdMap IdMap::copy() const {
  if (empty()) return {};
  Array<uint64_t> originals(originals_.size(), "the id map");
  std::copy(originals_.begin(), originals_.end(), originals.begin());
  return IdMap(std::move(originals));
}

}  // namespace sluice::base
