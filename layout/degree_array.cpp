#include "layout/degree_array.hpp"

#include <stdexcept>
#include <string>

namespace sluice::layout {

DegreeArray::DegreeArray(uint64_t vertices, const char* what)
    : bytes_(base::Array<uint8_t>::zeros(vertices, what)), blocks_(base::Array<Block>::zeros(vertices / 64 + 1, what)) {}

DegreeArray::DegreeArray(std::span<const uint32_t> degrees, const char* what) : DegreeArray(degrees.size(), what) {
  set_from(0, degrees);
}

void DegreeArray::set_from(uint64_t first, std::span<const uint32_t> values) {
  if (first < set_end_ || first + values.size() > size()) {
    throw std::logic_error("DegreeArray::set_from: [" + std::to_string(first) + ", +" + std::to_string(values.size()) +
                           ") is not after the ranges set, within " + std::to_string(size()) + " vertices");
  }
  for (uint64_t i = 0; i < values.size(); ++i) {
    const uint64_t v = first + i;
    if (values[i] < large_mark) {
      bytes_[v] = uint8_t(values[i]);
      continue;
    }
    Block& block = blocks_[v / 64];
    if (!block.large) block.large_before = large_.size();  // the blocks before are all set
    block.large |= uint64_t(1) << (v % 64);
    bytes_[v] = large_mark;
    large_.push_back(values[i]);
  }
  set_end_ = first + values.size();
  held_bytes_ += values.size();
}

}  // namespace sluice::layout
