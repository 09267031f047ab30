// What every graph source, layout and in-memory CSR says of itself.
#pragma once

#include <cstdint>

namespace sluice::base {

struct GraphInfo {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  unsigned id_bytes = 4;  // width of a vertex id: 4 or 8
  // Known to hold every edge both ways: built with symmetrize (or from a
  // symmetric Matrix Market file), or a layout that records it. Never
  // guessed from the edges.
  bool symmetric = false;
};

}  // namespace sluice::base
