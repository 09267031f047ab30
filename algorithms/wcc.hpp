// Weakly connected components by label propagation: every vertex starts
// labelled with its own id; each round the vertices whose label dropped
// push it along their out-edges and along the transpose's (their
// in-edges), a neighbour keeps the smaller label, and then pointer jumping
// (label <- label of label, in VERTEXMAP) shortcuts chains of labels.
// Each component ends labelled with its smallest vertex id.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct ComponentsResult {
  std::vector<uint64_t> label;  // the smallest vertex id of the component
  uint64_t components = 0;
  uint64_t largest = 0;         // vertices in the largest component
  uint64_t rounds = 0;
};

constexpr uint64_t wcc_bytes_per_vertex = 8;

// `in` runs over the transpose; null when the graph is symmetric (every
// edge stored both ways), where the out-edges are the in-edges.
ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace);

// Counts the components and the largest one of a labelling by smallest id.
void summarize_components(ComponentsResult& result);

}  // namespace sluice::algorithms
