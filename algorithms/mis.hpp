// Maximal independent set (Ligra's MIS): every vertex gets a pseudo-random
// priority from a fixed seed; in each round the undecided vertices with no
// undecided neighbour of higher priority join, and their neighbours leave.
// The set is the one a sequential greedy pass in priority order picks
// (Blelloch, Fineman and Shun, SPAA 2012), so it depends on the seed only,
// not on threads, drives or ranks. Self loops are ignored. The graph must
// store every edge both ways.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct MisResult {
  std::vector<uint64_t> member;  // 1: in the set, 0: not
  uint64_t members = 0;
  uint64_t rounds = 0;
};

// The state (1 byte), whether a neighbour of higher priority is undecided
// (1), and the result (8).
constexpr uint64_t mis_bytes_per_vertex = 10;

// Vertex v's priority (lower goes first; ties: the lower id).
uint64_t mis_priority(uint64_t v, uint64_t seed);

MisResult mis(engine::Engine& engine, uint64_t seed, RunTrace& trace);

}  // namespace sluice::algorithms
