#include "algorithms/sssp.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

constexpr float unreached = std::numeric_limits<float>::infinity();

// One round of relaxations: src offers distance[src] + w to dst, which
// keeps the least offer.
struct Relax {
  float* distance;
  uint64_t* negative_source;  // the source of a negative weight seen, else UINT64_MAX

  static constexpr bool cond_always_true = true;  // any destination may still improve
  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float w, float& out) const {
    if (w < 0) relaxed_store(*negative_source, src);
    out = relaxed_load(distance[src]) + w;
    return true;
  }
  bool gather(uint64_t dst, const float& offer) {
    if (!(offer < distance[dst])) return false;
    relaxed_store(distance[dst], offer);
    return true;
  }
  bool gather_atomic(uint64_t dst, const float& offer) {
    std::atomic_ref<float> d(distance[dst]);
    float seen = d.load(std::memory_order_relaxed);
    while (offer < seen) {
      if (d.compare_exchange_weak(seen, offer, std::memory_order_relaxed)) return true;
    }
    return false;
  }
  float combine(const float& a, const float& b) const { return std::min(a, b); }
};

// Delta-stepping from the vertices at distance 0 in `result` (every
// other unreached), which form the first frontier: `source`, or every
// vertex (NegativeCycle::anywhere).
SsspResult shortest_paths(engine::Engine& engine, uint64_t source, SsspResult result, engine::VertexSubset frontier,
                          const SsspOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (!(o.delta > 0)) throw std::invalid_argument("the bucket width delta must be positive (infinity: Bellman-Ford)");
  const bool bellman_ford = std::isinf(o.delta);
  float* distance = result.distance.data();
  auto bucket = [&](uint64_t v) -> uint64_t {
    if (bellman_ford) return 0;
    const double k = std::floor(double(distance[v]) / o.delta);
    return k < 9e18 ? uint64_t(k) : uint64_t(9e18);
  };

  uint64_t negative_source = UINT64_MAX;
  // The vertices waiting for a later bucket, binned by the bucket they
  // had when set aside (GAPBS's bins): a vertex that moved to a lower
  // bucket since is stale in its old bin and skipped there, and one set
  // aside twice in one bucket is there twice. So that the bins stay within
  // the budget, those are dropped once the bins hold 1.25 ids an own
  // vertex (the next drop is then at least a quarter of them away), and a
  // bin is a deque: no doubling slack.
  std::map<uint64_t, std::deque<uint64_t>> waiting;
  uint64_t waiting_ids = 0;
  uint64_t current = 0;
  // On several ranks each lowers the distances of its own range, bins its
  // own vertices, and sends the frontier's distances to the ranks that
  // relax their edges; the next bucket is the lowest of all ranks'.
  engine::RankExchange& ranks = engine.ranks();
  const uint64_t first = ranks.owned_begin(), owned = ranks.owned_end() - first;
  const uint64_t drop_above = owned + owned / 4 + 1024;
  auto drop_stale = [&] {
    std::vector<bool> kept(owned, false);
    waiting_ids = 0;
    for (auto bin = waiting.begin(); bin != waiting.end();) {
      std::deque<uint64_t>& ids = bin->second;
      ids.erase(std::remove_if(ids.begin(), ids.end(), [&](uint64_t v) {
                  if (bucket(v) != bin->first || kept[v - first]) return true;
                  kept[v - first] = true;
                  return false;
                }), ids.end());
      ids.shrink_to_fit();
      waiting_ids += ids.size();
      bin = ids.empty() ? waiting.erase(bin) : std::next(bin);
    }
  };
  for (;;) {
    // Empty the current bucket: relax, and keep relaxing the vertices that
    // land in it (or, with negative weights, below it); later ones wait.
    while (!frontier.empty()) {
      ranks.member_values(frontier, distance);
      Relax relax{distance, &negative_source};
      const engine::VertexSubset changed = engine.edge_map<float>(frontier, relax);
      trace.record(engine, "bucket", current);
      ++result.rounds;
      if (negative_source != UINT64_MAX && !bellman_ford) {
        throw NegativeWeight(negative_source);
      }
      if (bellman_ford && result.rounds > n) {
        throw NegativeCycle(source, n);
      }
      const engine::VertexSubset next = engine.vertex_map(changed, [&](uint64_t v) { return ranks.owns(v) && bucket(v) <= current; });
      changed.for_each([&](uint64_t v) {
        if (!ranks.owns(v)) return;
        if (const uint64_t k = bucket(v); k > current) {
          waiting[k].push_back(v);
          if (++waiting_ids > drop_above) drop_stale();
        }
      });
      frontier = ranks.frontier(next);
    }
    ++result.buckets;
    // The next bucket: the lowest bin holding a vertex still in it (a bin
    // whose vertices all moved lower since is dropped).
    std::vector<uint64_t> ids;
    uint64_t lowest = UINT64_MAX;
    while (!waiting.empty()) {
      auto bin = waiting.begin();
      for (uint64_t v : bin->second) {
        if (bucket(v) == bin->first) ids.push_back(v);
      }
      if (!ids.empty()) {
        lowest = bin->first;
        break;
      }
      waiting_ids -= bin->second.size();
      waiting.erase(bin);
    }
    uint64_t next = lowest;
    ranks.communicator().min(std::span<uint64_t>(&next, 1));
    if (next == UINT64_MAX) break;
    current = next;
    if (lowest == next) {
      waiting_ids -= waiting.begin()->second.size();
      waiting.erase(waiting.begin());
    } else {
      ids.clear();  // this rank's lowest bin waits for a later bucket
    }
    frontier = ranks.frontier(engine::VertexSubset::from_ids(n, std::move(ids)));
  }
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) result.reached += distance[v] < unreached;
  result.reached = ranks.communicator().sum(result.reached);
  return result;
}

}  // namespace

SsspResult sssp(engine::Engine& engine, uint64_t source, const SsspOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (source >= n) throw std::invalid_argument("source vertex " + std::to_string(source) + " is not below " + std::to_string(n));
  SsspResult start;
  start.distance.assign(n, unreached);
  start.distance[source] = 0;
  return shortest_paths(engine, source, std::move(start), engine::VertexSubset::single(n, source), o, trace);
}

SsspResult sssp_from_every_vertex(engine::Engine& engine, const SsspOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  SsspResult start;
  start.distance.assign(n, 0.0f);
  // On ranks too every vertex is in the first frontier (each rank's own
  // range, united), and every rank already holds the 0 it would be sent.
  return shortest_paths(engine, NegativeCycle::anywhere, std::move(start), engine::VertexSubset::all(n), o, trace);
}

ChosenDelta delta_for_weights(bool weighted, const std::optional<layout::WeightRange>& weights) {
  if (!weighted) return {1, "unweighted: every weight is 1"};
  if (!weights) return {1, "no weight range recorded", true};
  if (weights->empty()) return {1, "no edges"};
  if (weights->least < 0) return {std::numeric_limits<double>::infinity(), "negative weights: Bellman-Ford"};
  if (!(weights->most > 0)) return {1, "every weight is 0"};
  return {double(weights->most), "the largest weight"};
}

}  // namespace sluice::algorithms
