#include "programs/symmetry_check.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <vector>

#include "formats/block_graph.hpp"
#include "formats/sluice_format.hpp"
#include "layout/sluice_layout.hpp"
#include "programs/command_line.hpp"

namespace sluice::programs {

namespace {

std::vector<uint64_t> targets_of(const formats::GraphSource& source, uint64_t v, bool wide) {
  uint64_t range[2];
  source.read_offsets(v, v + 1, range);
  std::vector<uint64_t> out(range[1] - range[0]);
  if (wide) {
    source.read_edges(v, v + 1, out.data(), nullptr);
  } else {
    std::vector<uint32_t> narrow(out.size());
    source.read_edges(v, v + 1, narrow.data(), nullptr);
    std::copy(narrow.begin(), narrow.end(), out.begin());
  }
  return out;
}

[[noreturn]] void not_symmetric(const engine::DiskGraph& graph, const std::string& why) {
  throw po::error("--symmetric: " + graph.layout().path() + " does not store every edge both ways (" + why +
                  "); convert it with --symmetrize (which records it in the layout), or leave --symmetric out");
}

}  // namespace

std::string check_symmetric(const engine::DiskGraph& graph, int threads, unsigned samples) {
  const uint64_t n = graph.vertices();
  std::string checked;
  // In-degrees: the transpose's out-degrees, or counted over every edge.
  std::vector<uint64_t> in_degree(n, 0);
  if (const layout::EdgeSet* in = graph.layout().in()) {
    for (uint64_t v = 0; v < n; ++v) in_degree[v] = in->index().degree(v);
    checked = "in-degree = out-degree at all " + std::to_string(n) + " vertices (from the transpose's index)";
  } else {
    formats::OpenOptions options;
    options.format = "sluice";
    options.blocks.threads = threads;
    auto blocks = formats::BlockGraph::open(graph.layout().path(), options);
    std::unique_ptr<std::atomic<uint64_t>[]> counts(new std::atomic<uint64_t>[n]());
    blocks->wait(blocks->request(0, n, [&](const formats::EdgeBlock& block) {
      for (uint64_t i = 0; i < block.edges; ++i) counts[block.target(i)].fetch_add(1, std::memory_order_relaxed);
    }));
    for (uint64_t v = 0; v < n; ++v) in_degree[v] = counts[v].load(std::memory_order_relaxed);
    checked = "in-degree = out-degree at all " + std::to_string(n) + " vertices (one pass over " +
              std::to_string(graph.edges()) + " edges)";
  }
  for (uint64_t v = 0; v < n; ++v) {
    if (in_degree[v] != graph.degree(v)) {
      not_symmetric(graph, "vertex " + std::to_string(graph.layout().ids().original(v)) + " has " + std::to_string(graph.degree(v)) + " out-edges and " +
                               std::to_string(in_degree[v]) + " in-edges");
    }
  }
  // Equal degrees hold for a directed cycle too: edges drawn at random must
  // each have their reverse.
  if (graph.edges() > 0) {
    auto source = formats::open_sluice_layout(graph.layout().path());
    const bool wide = graph.info().id_bytes == 8;
    std::mt19937_64 random(0x5eed);
    const unsigned draws = unsigned(std::min<uint64_t>(samples, graph.edges()));
    for (unsigned s = 0; s < draws; ++s) {
      const uint64_t e = random() % graph.edges();
      // The source of edge e: the last vertex whose offset is at most e.
      uint64_t lo = 0, hi = n - 1;
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (graph.offset(mid) <= e) lo = mid; else hi = mid - 1;
      }
      const uint64_t u = lo, v = targets_of(*source, u, wide)[e - graph.offset(u)];
      const std::vector<uint64_t> back = targets_of(*source, v, wide);
      if (std::find(back.begin(), back.end(), u) == back.end()) {
        const base::IdMap& ids = graph.layout().ids();  // named as the input names them
        not_symmetric(graph, "edge " + std::to_string(ids.original(u)) + " -> " + std::to_string(ids.original(v)) + " has no reverse");
      }
    }
    checked += ", and " + std::to_string(draws) + " edges drawn at random each have their reverse";
  }
  return checked;
}

}  // namespace sluice::programs
