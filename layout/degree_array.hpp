// Vertex degrees in about a byte and a quarter a vertex instead of four.
// A degree below 255 is its vertex's byte; a larger one is kept apart, in
// vertex order, and found through its 64-vertex block: a mask of the
// block's large degrees and the count of those before the block. Most
// degrees of a sparse graph are small (RMAT 22's out-degrees: 99.2%), so
// the planners' and walks' per-vertex loads stay a byte, and the degrees
// of a billion vertices take 1.25 GB where they took 4.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "base/array.hpp"

namespace sluice::layout {

class DegreeArray {
  static constexpr uint8_t large_mark = 255;
  struct Block {
    uint64_t large;         // bit i: vertex 64 * block + i's degree is kept apart
    uint64_t large_before;  // large degrees of the blocks before
  };

 public:
  // The pointers a lookup reads, by value: a loop's copy stays in
  // registers, where the array's own members would be loaded again after
  // each store the loop makes (the walks' links and gathers).
  class Reader {
   public:
    uint32_t operator[](uint64_t v) const {
      const uint8_t small = bytes_[v];
      if (small != large_mark) [[likely]] return small;
      const Block& block = blocks_[v / 64];
      return large_[block.large_before + uint64_t(std::popcount(block.large & ((uint64_t(1) << (v % 64)) - 1)))];
    }

   private:
    friend class DegreeArray;
    Reader(const uint8_t* bytes, const Block* blocks, const uint32_t* large) : bytes_(bytes), blocks_(blocks), large_(large) {}
    const uint8_t* bytes_;
    const Block* blocks_;
    const uint32_t* large_;
  };

  DegreeArray() = default;
  // Zero degrees for `vertices`, held only where later set (set_from).
  DegreeArray(uint64_t vertices, const char* what);
  DegreeArray(std::span<const uint32_t> degrees, const char* what);

  uint64_t size() const { return bytes_.size(); }
  Reader reader() const { return Reader(bytes_.data(), blocks_.data(), large_.data()); }
  uint32_t operator[](uint64_t v) const { return reader()[v]; }

  // Sets the degrees of [first, first + values.size()); calls come in
  // ascending order of first, each after the last one's range.
  void set_from(uint64_t first, std::span<const uint32_t> values);
  // What is held: the bytes of the ranges set, the blocks and the large degrees.
  uint64_t memory_bytes() const { return held_bytes_ + blocks_.size() * sizeof(Block) + large_.size() * 4; }

 private:
  base::Array<uint8_t> bytes_;
  base::Array<Block> blocks_;
  std::vector<uint32_t> large_;
  uint64_t set_end_ = 0;  // set_from's ranges so far end here
  uint64_t held_bytes_ = 0;
};

}  // namespace sluice::layout
