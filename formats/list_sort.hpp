// One neighbour list sorted, as compressed pages need them (gaps of
// sorted targets), and a weighted list's weights with it; `--sort` and
// `--dedup` sort unweighted lists with it too (csr_builder).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace sluice::formats {

// Sorts a list of ids below 2^bits, and a weighted list's weights with
// them, ties by the weight's bits (so that equal targets come in one
// order whatever the input's): insertion sort for short lists, else a
// radix sort in as few passes of equal digits as digits of at most 8
// bits allow (11 for lists of 8192 or more, whose count arrays cost
// little beside them), then each run of equal ids by weight. Most lists
// of a skewed graph are short, and most of its edges are in long ones:
// on RMAT 24's out-lists this took 6 ns an edge, and 7.7 with ids of 26
// bits, where std::sort below 512 and 11-bit digits above took 13-15 (a
// 2048-entry count array cleared and summed in every pass of a list of a
// few hundred ids), and 8-bit digits for every list 14 with 26-bit ids
// (a fourth pass for two bits).
template <class Id>
class ListSort {
 public:
  explicit ListSort(unsigned id_bits) : bits(id_bits) {}
  void ids_only(Id* list, uint64_t count) { sort<false>(list, nullptr, count); }
  void with_weights(Id* list, float* list_weights, uint64_t count) { sort<true>(list, list_weights, count); }
  // Into the order compressed pages store a list in (a weighted one's with
  // `list_weights`, else null), unless it is in it already: lists often
  // come sorted (a transpose's always, built from the other edge set in
  // source order).
  void into_stored_order(Id* list, float* list_weights, uint64_t count) {
    if (!list_weights) {
      if (!std::is_sorted(list, list + count)) ids_only(list, count);
    } else if (std::adjacent_find(list, list + count, std::greater_equal<Id>()) != list + count) {  // not ascending without ties
      with_weights(list, list_weights, count);
    }
  }

 private:
  unsigned bits;
  std::vector<Id> ids;  // the radix passes' other arrays
  std::vector<float> weights;

  template <bool Weighted>
  void sort(Id* list, float* list_weights, uint64_t count) {
    auto key = [](float w) { return std::bit_cast<uint32_t>(w); };
    auto after = [&](Id a, float wa, Id b, float wb) { return a > b || (Weighted && a == b && key(wa) > key(wb)); };
    if (count < 32) {
      for (uint64_t i = 1; i < count; ++i) {
        const Id id = list[i];
        const float w = Weighted ? list_weights[i] : 0.0f;
        uint64_t at = i;
        for (; at > 0 && after(list[at - 1], Weighted ? list_weights[at - 1] : 0.0f, id, w); --at) {
          list[at] = list[at - 1];
          if constexpr (Weighted) list_weights[at] = list_weights[at - 1];
        }
        list[at] = id;
        if constexpr (Weighted) list_weights[at] = w;
      }
      return;
    }
    const unsigned widest = count >= 8192 ? 11 : 8;
    const unsigned passes = (bits + widest - 1) / widest;
    const unsigned digit = (bits + passes - 1) / passes;
    const uint64_t radix = uint64_t(1) << digit;
    uint64_t counts[uint64_t(1) << 11];
    ids.resize(count);
    Id* from = list;
    Id* to = ids.data();
    float* weights_from = list_weights;
    float* weights_to = nullptr;
    if constexpr (Weighted) weights.resize(count), weights_to = weights.data();
    for (unsigned shift = 0; shift < bits; shift += digit) {
      std::fill(counts, counts + radix, 0);
      for (uint64_t i = 0; i < count; ++i) ++counts[(from[i] >> shift) & (radix - 1)];
      uint64_t sum = 0;
      for (uint64_t d = 0; d < radix; ++d) sum += std::exchange(counts[d], sum);
      for (uint64_t i = 0; i < count; ++i) {
        const uint64_t at = counts[(from[i] >> shift) & (radix - 1)]++;
        to[at] = from[i];
        if constexpr (Weighted) weights_to[at] = weights_from[i];
      }
      std::swap(from, to);
      std::swap(weights_from, weights_to);
    }
    if (from != list) {
      std::copy(from, from + count, list);
      if constexpr (Weighted) std::copy(weights_from, weights_from + count, list_weights);
    }
    if constexpr (Weighted) {
      for (uint64_t first = 0, last; first < count; first = last) {
        for (last = first + 1; last < count && list[last] == list[first]; ++last) {}
        if (last - first > 1) std::sort(list_weights + first, list_weights + last, [&](float a, float b) { return key(a) < key(b); });
      }
    }
  }
};

}  // namespace sluice::formats
