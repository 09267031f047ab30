#include "algorithms/radii.hpp"

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <string>

namespace sluice::algorithms {

namespace {

// The masks of the level's sources flow to their neighbours; a vertex whose
// mask grows is at this level from some source, and goes on.
struct Spread {
  const uint64_t* seen;  // as the level began
  uint64_t* next;        // as it grows
  int64_t* radius;
  int64_t level;
  uint64_t everyone;  // every source's bit: a mask that cannot grow

  bool cond(uint64_t dst) const { return std::atomic_ref<uint64_t>(next[dst]).load(std::memory_order_relaxed) != everyone; }
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) const {
    out = seen[src];
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& mask) {
    const uint64_t before = next[dst];
    if ((before | mask) == before) return false;
    std::atomic_ref<uint64_t>(next[dst]).store(before | mask, std::memory_order_relaxed);
    if (radius[dst] == level) return false;  // grew already this level: in the next frontier once
    radius[dst] = level;
    return true;
  }
  bool gather_atomic(uint64_t dst, const uint64_t& mask) {
    const uint64_t before = std::atomic_ref<uint64_t>(next[dst]).fetch_or(mask, std::memory_order_relaxed);
    if ((before | mask) == before) return false;
    return std::atomic_ref<int64_t>(radius[dst]).exchange(level, std::memory_order_relaxed) != level;
  }
  uint64_t combine(const uint64_t& a, const uint64_t& b) const { return a | b; }
};

}  // namespace

std::vector<uint64_t> radii_sources(uint64_t vertices, uint64_t seed) {
  std::vector<uint64_t> sources;
  if (vertices <= radii_most_sources) {
    for (uint64_t v = 0; v < vertices; ++v) sources.push_back(v);
    return sources;
  }
  std::mt19937_64 draw(seed);
  while (sources.size() < radii_most_sources) {
    const uint64_t v = draw() % vertices;
    if (std::find(sources.begin(), sources.end(), v) == sources.end()) sources.push_back(v);
  }
  std::sort(sources.begin(), sources.end());
  return sources;
}

RadiiResult radii(engine::Engine& engine, const std::vector<uint64_t>& sources, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (sources.size() > radii_most_sources) throw std::invalid_argument("radii takes at most 64 sources");
  engine::RankExchange& ranks = engine.ranks();
  RadiiResult result;
  result.sources = sources;
  result.radius.assign(n, -1);
  std::vector<uint64_t> seen(n, 0), next(n, 0);
  uint64_t everyone = 0;
  std::vector<uint64_t> starts;
  for (size_t i = 0; i < sources.size(); ++i) {
    const uint64_t s = sources[i];
    if (s >= n) throw std::invalid_argument("source vertex " + std::to_string(s) + " is not below " + std::to_string(n));
    seen[s] = next[s] |= uint64_t(1) << i;
    result.radius[s] = 0;
    everyone |= uint64_t(1) << i;
    starts.push_back(s);
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  engine::VertexSubset frontier = engine::VertexSubset::from_sorted_ids(n, std::move(starts));
  // On ranks each grows its own range's masks; the masks of a level's
  // members go to the ranks whose parts read them.
  for (int64_t level = 1; !frontier.empty(); ++level) {
    ranks.member_values(frontier, seen.data());
    Spread spread{seen.data(), next.data(), result.radius.data(), level, everyone};
    frontier = engine.edge_map<uint64_t>(frontier, spread);
    trace.record(engine, "level", uint64_t(level - 1));
    engine.vertex_map(frontier, [&](uint64_t v) {
      seen[v] = next[v];
      return false;
    });
    ++result.rounds;
  }
  // Each rank's own range is its share of the output; the largest
  // estimate is the ranks' largest.
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) result.largest = std::max(result.largest, result.radius[v]);
  result.largest = ranks.communicator().fold(result.largest, [](int64_t a, int64_t b) { return std::max(a, b); });
  return result;
}

}  // namespace sluice::algorithms
