// Single-source shortest paths by delta-stepping (Meyer and Sanders, as
// GAPBS's sssp) over EDGEMAP. Distances fall into buckets of width delta;
// the lowest bucket's vertices relax their out-edges, again and again
// while relaxations land in that bucket, then the next non-empty bucket
// goes. Relaxed distances land in DRAM (4 bytes a vertex); only the pages
// of the vertices being relaxed are read. A destination takes the least
// distance offered (binning: one thread per destination; pull: the least
// of a page's offers, combined in a register).
//
// delta = infinity puts every distance in one bucket: Bellman-Ford over
// the frontier of changed vertices, which also takes negative weights (a
// negative cycle reachable from the source is an error after |V| rounds).
// With a finite delta, weights must not be negative (an error naming the
// edge's source). Unweighted graphs have weight 1 (delta 1: BFS levels).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"
#include "layout/manifest.hpp"

namespace sluice::algorithms {

struct SsspOptions {
  double delta = 1;  // bucket width (GAPBS's -d); infinity: Bellman-Ford
};

struct SsspResult {
  std::vector<float> distance;  // infinity where not reached
  uint64_t reached = 0;
  uint64_t buckets = 0;  // buckets emptied
  uint64_t rounds = 0;   // EDGEMAPs
};

// The errors name vertices by the engine's ids; a caller whose users know
// them by other names (a relabelled layout) builds the message again from
// `vertex` with message().
struct NegativeWeight : std::invalid_argument {
  explicit NegativeWeight(uint64_t source) : std::invalid_argument(message(std::to_string(source))), vertex(source) {}
  static std::string message(const std::string& source) {
    return "an edge out of vertex " + source + " has a negative weight: delta-stepping needs weights of at least 0 (delta "
           "infinity runs Bellman-Ford, which takes them)";
  }
  uint64_t vertex;  // the edge's source
};
struct NegativeCycle : std::runtime_error {
  static constexpr uint64_t anywhere = UINT64_MAX;  // the search started from every vertex
  NegativeCycle(uint64_t source, uint64_t rounds)
      : std::runtime_error(message(source == anywhere ? "" : std::to_string(source), rounds)), vertex(source), rounds(rounds) {}
  // `source` empty: the search started from every vertex.
  static std::string message(const std::string& source, uint64_t rounds) {
    return (source.empty() ? "the graph has a negative cycle" : "a negative cycle is reachable from vertex " + source) +
           ": distances still fall after " + std::to_string(rounds) + " rounds";
  }
  uint64_t vertex;  // the source of the search, or anywhere
  uint64_t rounds;
};

// The bucket width for a graph's weights when none is asked for: the
// largest weight. Out of core each bucket rereads its frontier's pages, so
// few wide buckets beat many narrow ones (RMAT 22 and uniform 21 with
// weights 1-255, from disk: 7-10x faster than width 1, and within 15% of
// the best width in memory; experiments/README.md). Negative weights take
// Bellman-Ford (infinity), the only width that handles them; unweighted
// graphs width 1 (BFS levels). `weights` unknown (a layout written before
// sluice recorded them): 1, GAPBS's default.
struct ChosenDelta {
  double delta;
  const char* reason;
  bool unrecorded = false;  // a weighted layout without its weights' range: worth a warning
};
ChosenDelta delta_for_weights(bool weighted, const std::optional<layout::WeightRange>& weights);

// Distances (4), and the waiting bins: at most 1.25 ids an own vertex
// (10), and a bit each while their stale ids are dropped.
constexpr uint64_t sssp_bytes_per_vertex = 16;

SsspResult sssp(engine::Engine& engine, uint64_t source, const SsspOptions& options, RunTrace& trace);

// Every vertex starts at distance 0, as if a virtual source reached each
// by an edge of weight 0: each vertex's least distance from any vertex
// (at most 0). With delta infinity these are Johnson's potentials, and a
// negative cycle anywhere in the graph throws NegativeCycle (networkx's
// negative_edge_cycle).
SsspResult sssp_from_every_vertex(engine::Engine& engine, const SsspOptions& options, RunTrace& trace);

}  // namespace sluice::algorithms
