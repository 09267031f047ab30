#include "algorithms/bc.hpp"

#include <stdexcept>
#include <string>

#include "algorithms/relaxed.hpp"
#include "algorithms/sum_into_destination.hpp"
#include "base/array.hpp"

namespace sluice::algorithms {

namespace {

// Forward: counts shortest paths into the next level.
struct CountPaths {
  int64_t* depth;
  double* sigma;
  int64_t next_depth;

  bool cond(uint64_t dst) const {
    int64_t d = relaxed_load(depth[dst]);
    return d < 0 || d == next_depth;
  }
  // Path counts add up: gathering a then b is gathering a + b.
  static double combine(double a, double b) { return a + b; }
  bool scatter(uint64_t src, uint64_t, float, double& out) const {
    out = sigma[src];
    return true;
  }
  bool gather(uint64_t dst, const double& paths) {
    if (depth[dst] < 0) {
      relaxed_store(depth[dst], next_depth);
      sigma[dst] = paths;
      return true;
    }
    if (depth[dst] == next_depth) sigma[dst] += paths;
    return false;
  }
  bool gather_atomic(uint64_t dst, const double& paths) {
    int64_t unvisited = -1;
    bool first = std::atomic_ref<int64_t>(depth[dst]).compare_exchange_strong(unvisited, next_depth, std::memory_order_relaxed);
    if (!first && unvisited != next_depth) return false;
    atomic_add(sigma[dst], paths);
    return first;
  }
  void prefetch_destination(uint64_t dst) const {
    __builtin_prefetch(depth + dst, 1);
    __builtin_prefetch(sigma + dst, 1);
  }
};

// Backward, over the transpose: a vertex w at depth L pushes to its
// predecessors v (edges v -> w) at depth L - 1.
}  // namespace

BcResult bc(engine::Engine& out, engine::Engine* in, const std::vector<uint64_t>& sources, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  if (in && in->graph().vertices() != n) throw std::invalid_argument("the transpose has another vertex count");
  engine::Engine& backward = in ? *in : out;
  // On several ranks each owns a range: path counts and dependencies are
  // computed there, and sent to the ranks that scatter from them (the
  // transpose's readers in the backward pass).
  engine::RankExchange& ranks = out.ranks();
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  auto owned = [&](uint64_t v) { return v >= first && v < last; };
  BcResult result;
  // The scores and the depths are read and written at the own vertices
  // alone (on ranks, the range); the path counts and dependencies are
  // read at the sources too.
  result.score = out.filled_owned_array(n, 0.0, "BC's scores");
  // Not zeroed here: each source fills them on the compute threads, which
  // also spreads the first touch of their pages over the threads.
  base::Array<int64_t> depth(n, "BC's depths");
  base::Array<double> sigma(n, "BC's path counts"), delta(n, "BC's dependencies");
  for (uint64_t source : sources) {
    if (source >= n) throw std::invalid_argument("source vertex " + std::to_string(source) + " is not below " + std::to_string(n));
    out.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
      std::fill(sigma.begin() + ptrdiff_t(begin), sigma.begin() + ptrdiff_t(end), 0.0);
      std::fill(delta.begin() + ptrdiff_t(begin), delta.begin() + ptrdiff_t(end), 0.0);
    });
    out.parallel_for(last - first, [&](int, uint64_t begin, uint64_t end) {
      std::fill(depth.begin() + ptrdiff_t(first + begin), depth.begin() + ptrdiff_t(first + end), -1);
    });
    depth[source] = 0;
    sigma[source] = 1;
    std::vector<engine::VertexSubset> levels;
    levels.push_back(engine::VertexSubset::single(n, source));
    engine::OpenDestinations open;  // unvisited or on the level being found: once past, never again
    for (;;) {
      ranks.member_values(levels.back(), sigma.data());
      CountPaths count{depth.data(), sigma.data(), int64_t(levels.size())};
      engine::VertexSubset next = out.edge_map<double>(levels.back(), count, open);
      trace.record(out, "forward", levels.size() - 1);
      if (next.empty()) break;
      levels.push_back(std::move(next));
    }
    result.levels += levels.size();
    for (size_t level = levels.size() - 1; level > 0; --level) {
      // Each w of this level sends (1 + delta[w]) / sigma[w] to its
      // predecessors, the in-neighbours one level up.
      const int64_t above = int64_t(level) - 1;
      backward.ranks().member_values(levels[level], sigma.data());
      backward.ranks().member_values(levels[level], delta.data());
      auto value = [d = delta.data(), s = sigma.data()](uint64_t w, float) { return (1 + d[w]) / s[w]; };
      auto predecessor = [d = depth.data(), above](uint64_t v) { return d[v] == above; };
      SumIntoDestination<decltype(value), decltype(predecessor)> accumulate{value, delta.data(), predecessor};
      backward.edge_map<double>(levels[level], accumulate, false);
      trace.record(backward, "backward", level);
      // The level above now holds sum (1 + delta[w]) / sigma[w]; scale it.
      out.vertex_map(levels[level - 1], [&](uint64_t v) {
        if (owned(v)) delta[v] *= sigma[v];
        return false;
      });
    }
    for (size_t level = 1; level < levels.size(); ++level) {
      out.vertex_map(levels[level], [&](uint64_t v) {
        if (owned(v)) result.score[v] += delta[v];
        return false;
      });
    }
    ++result.sources;
  }
  return result;
}

}  // namespace sluice::algorithms
