// Blaze's compact CSR index: the edge offset of every 16th vertex plus
// each vertex's degree (in a byte, most of them: degree_array.hpp), about
// 1.75 bytes per vertex instead of 8. The offset of any vertex is its
// group's offset plus at most 15 degrees.
#pragma once

#include <algorithm>
#include <cstdint>

#include "base/array.hpp"
#include "layout/degree_array.hpp"

namespace sluice::layout {

class CompactIndex {
 public:
  static constexpr uint64_t group = 16;

  CompactIndex() = default;
  CompactIndex(base::Array<uint64_t> group_offsets, DegreeArray degrees)
      : group_offsets_(std::move(group_offsets)), degrees_(std::move(degrees)) {}

  uint64_t vertices() const { return degrees_.size(); }
  uint64_t edges() const { return group_offsets_.empty() ? 0 : group_offsets_[group_offsets_.size() - 1]; }
  uint32_t degree(uint64_t v) const { return degrees_[v]; }
  uint64_t offset(uint64_t v) const {
    uint64_t offset = group_offsets_[v / group];
    const DegreeArray::Reader degrees = degrees_.reader();
    for (uint64_t u = v & ~(group - 1); u < v; ++u) offset += degrees[u];
    return offset;
  }
  // Where v's group's edges end: no list of the group reaches past it,
  // found without summing the degrees before v.
  uint64_t group_end(uint64_t v) const { return group_offsets_[v / group + 1]; }
  // out[i] = offset(begin + i) for i in [0, end - begin].
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const;

  // ceil(vertices / 16) + 1 entries; the last is the edge count.
  const base::Array<uint64_t>& group_offsets() const { return group_offsets_; }
  const DegreeArray& degrees() const { return degrees_; }
  // What is held: the group offsets and the degrees that were set (a
  // rank's CSC leaves those outside its range unset).
  uint64_t memory_bytes() const { return group_offsets_.size() * 8 + degrees_.memory_bytes(); }

  // Checks that the group offsets agree with the degrees; returns the first
  // vertex where they do not, or UINT64_MAX.
  uint64_t first_inconsistency() const;

 private:
  base::Array<uint64_t> group_offsets_;
  DegreeArray degrees_;
};

}  // namespace sluice::layout
