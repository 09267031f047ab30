// Triangle counting on an undirected graph, out of core (MGT, Hu et al.,
// SIGMOD 2013, with GAPBS's ordering): each edge is oriented from the end
// of lower degree to the end of higher degree (ties: towards the higher
// id), so that every triangle u < v < w in that order is found once, as w
// in both u's and v's oriented lists. The oriented lists of as large a
// vertex range as the budget holds are kept in DRAM; then every list of
// the graph is streamed once against them. ceil(oriented bytes / budget)
// ranges; one range needs no scan beyond reading its lists.
//
// Lists are deduplicated and sorted per list in memory, and self loops
// dropped, so the counts are the simple graph's (networkx's triangles,
// clustering, transitivity and average_clustering) whatever the layout
// holds. The graph must store every edge both ways.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

struct TcOptions {
  // Bytes for the held lists, and for a 4-byte tally per vertex per compute
  // thread when those take at most a quarter of it (else triangles are credited
  // with atomic adds); 0: what the engine's memory limit leaves.
  uint64_t list_memory = 0;
};

struct TcResult {
  std::vector<uint64_t> triangles;  // per vertex: the triangles it belongs to
  std::vector<double> clustering;   // per vertex: local clustering coefficient
  uint64_t total = 0;               // triangles in the graph, each once
  double transitivity = 0, average_clustering = 0;
  uint64_t ranges = 0;        // vertex ranges whose lists were held in turn
  uint64_t passes = 0;        // reads of the graph's pages: the held ranges' (once in all), plus a scan per range when there are several
  uint64_t list_memory = 0;   // the budget the ranges were cut to
  uint64_t held_bytes = 0;    // the most any range held
  uint64_t oriented_edges = 0;
};

// Triangles by rank and by vertex, clustering coefficients (8 + 8 + 8
// bytes), the oriented degrees out and in (4 + 4), each vertex's rank and
// the vertex of each rank (4 + 4 where the ids fit 32 bits).
constexpr uint64_t tc_bytes_per_vertex = 40;
// The least list budget: below it every few vertices would cost a scan.
constexpr uint64_t tc_least_list_memory = uint64_t(1) << 20;

TcResult tc(engine::Engine& engine, const TcOptions& options, RunTrace& trace);

}  // namespace sluice::algorithms
