#include "layout/compact_index.hpp"

namespace sluice::layout {

void CompactIndex::read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const {
  if (begin == vertices()) {
    out[0] = edges();
    return;
  }
  uint64_t offset = this->offset(begin);
  const DegreeArray::Reader degrees = degrees_.reader();
  for (uint64_t v = begin; v < end; ++v) {
    out[v - begin] = offset;
    offset += degrees[v];
  }
  out[end - begin] = offset;
}

uint64_t CompactIndex::first_inconsistency() const {
  const uint64_t n = degrees_.size();
  if (group_offsets_.size() != (n + group - 1) / group + 1) return 0;
  uint64_t offset = 0;
  for (uint64_t v = 0; v < n; ++v) {
    if (v % group == 0 && group_offsets_[v / group] != offset) return v;
    offset += degrees_[v];
  }
  return group_offsets_[group_offsets_.size() - 1] == offset ? UINT64_MAX : n;
}

}  // namespace sluice::layout
