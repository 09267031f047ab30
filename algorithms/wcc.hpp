// Weakly connected components by Afforest (Sutton, Ben-Nun and Barak,
// IPDPS 2018) over the engine: a concurrent union-find joins every vertex
// with its first two out-neighbours (reading only the pages holding them),
// the most frequent root of a sample names the largest component, and only
// the vertices outside it stream the rest of their out-edges and their
// in-edges (the chunk planner skips the rest). Each component ends
// labelled with its smallest vertex id.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct ComponentsResult {
  base::Array<uint64_t> label;  // the smallest vertex id of the component
  uint64_t components = 0;
  uint64_t largest = 0;         // vertices in the largest component
  uint64_t rounds = 0;          // passes over (some of) the edges
};

// The labels (8 bytes a vertex), which hold the forest until it is
// widened into them, and then count the components' sizes too.
constexpr engine::VertexBytes wcc_vertex_bytes{8, 0, 0, 0};
// On ranks: the forest and the label agreement's two labels, an id each
// over every vertex id, and over the own range the final labels (8 bytes)
// and which ranks linked each own vertex (a bit per other rank: 8 bytes
// cover 65 ranks).
constexpr engine::VertexBytes wcc_ranks_vertex_bytes{0, 16, 3, 0};

// `in` runs over the transpose; null when the graph is symmetric (every
// edge stored both ways), where the out-edges are the in-edges. On several
// ranks (engines over a ranked layout's parts; `in` over the transpose
// graph's part) each rank reads its own vertices' lists and the edges of
// the vertices outside the largest component in its part, and the ranks
// then agree on labels through the vertices they share (wcc_ranks.cpp
// says how): the labels are the same, valid on each rank's own range.
// The kernel computes the labels alone: `components` and `largest` are
// left for the caller to count (summarize_components; GAPBS's CC counts
// after its timed kernel too).
ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace);
// wcc() on several ranks (wcc_ranks.cpp).
ComponentsResult wcc_on_ranks(engine::Engine& out, engine::Engine* in, RunTrace& trace);

// Counts the components and the largest one of a labelling by smallest id.
void summarize_components(ComponentsResult& result);
// The same from each rank's own range of labels: every rank sends the
// sizes of its labels' pieces to the labels' owners, which add them up;
// no rank gathers the labels.
void summarize_components(ComponentsResult& result, engine::RankExchange& ranks);

}  // namespace sluice::algorithms
