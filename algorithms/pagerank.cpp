#include "algorithms/pagerank.hpp"

#include <cmath>
#include <stdexcept>

#include "algorithms/relaxed.hpp"
#include "algorithms/sum_into_destination.hpp"

namespace sluice::algorithms {

namespace {

// Pushes share[src] along every edge and sums what each vertex receives.
void check(const PageRankOptions& o) {
  if (!(o.damping >= 0 && o.damping <= 1)) throw std::invalid_argument("the damping factor must be in [0, 1]");
  if (!(o.tolerance >= 0)) throw std::invalid_argument("the tolerance must not be negative");
  if (!(o.delta_threshold >= 0)) throw std::invalid_argument("the delta threshold must not be negative");
  if (o.method == PageRankMethod::delta && o.dangling == Dangling::spread) {
    throw std::invalid_argument("PageRank-delta drops the rank of vertices without out-edges (use --method classic to spread it)");
  }
}

// What one pass of classic PageRank sums: the L1 change and the rank of
// the vertices without out-edges.
struct ChangeAndDangling {
  double change = 0, dangling = 0;
  ChangeAndDangling& operator+=(const ChangeAndDangling& other) {
    change += other.change;
    dangling += other.dangling;
    return *this;
  }
};

// On several ranks, each updates the ranks of its own range [first, last)
// and shares what the others read (shares, sums, the frontier). Share is
// what a vertex sends along each out-edge as stored (PageRankShares).
template <class Share>
PageRankResult classic(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  engine::RankExchange& ranks = engine.ranks();
  PageRankResult result;
  result.rank.assign(n, 1.0 / double(n));
  base::Array<Share> share = engine.filled_array(n, Share(0), "PageRank's shares");
  base::Array<double> received = engine.filled_array(n, 0.0, "PageRank's sums");
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  const double base = (1 - o.damping) / double(n);
  // What each vertex sends along each out-edge, and the rank of the
  // vertices without out-edges (spread or dropped).
  auto shares = [&](uint64_t v, double rank) {
    const uint32_t degree = engine.out_degree(v);
    share[v] = degree ? Share(rank / degree) : Share(0);
    return degree ? 0.0 : rank;
  };
  double dangling = ranks.communicator().sum(engine.parallel_sum<double>(first, last, [&](uint64_t v) { return shares(v, result.rank[v]); }));
  while (result.iterations < o.max_iterations) {
    ranks.source_values(share.span());
    SumIntoDestination<SourceValue<Share>> push{{share.data()}, received.data()};
    engine.edge_map<double>(all, push, false);
    trace.record(engine, "iteration", result.iterations);
    const double spread = o.dangling == Dangling::spread ? dangling / double(n) : 0.0;
    // One pass: the new rank, its change, and the next round's shares.
    ChangeAndDangling sums = engine.parallel_sum<ChangeAndDangling>(first, last, [&](uint64_t v) {
      const double next = base + o.damping * (received[v] + spread);
      received[v] = 0;
      const double change = std::fabs(next - result.rank[v]);
      result.rank[v] = next;
      return ChangeAndDangling{change, shares(v, next)};
    });
    sums.change = ranks.communicator().sum(sums.change);
    sums.dangling = ranks.communicator().sum(sums.dangling);
    dangling = sums.dangling;
    ++result.iterations;
    result.last_change = sums.change;
    if (sums.change < o.tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

template <class Share>
PageRankResult delta(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  engine::RankExchange& ranks = engine.ranks();
  PageRankResult result;
  // rank: the current estimate; pending: the part of it not yet pushed to
  // the out-neighbours. Everything starts at 1/n, all of it pending, so the
  // first round pushes the uniform start and later rounds push changes.
  // A change too small to push stays pending (Ligra drops it) and goes out
  // once it has grown past the threshold, so nothing is lost.
  result.rank.assign(n, 1.0 / double(n));
  base::Array<double> pending = engine.filled_array(n, 1.0 / double(n), "PageRank's pending changes");
  base::Array<double> received = engine.filled_array(n, 0.0, "PageRank's sums");
  base::Array<Share> share = engine.filled_array(n, Share(0), "PageRank's shares");
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  engine::VertexSubset frontier = all;
  const double base = (1 - o.damping) / double(n);
  // The vertex passes run on the compute threads: one thread walking
  // every vertex took 28% of the kernel on RMAT 22.
  while (result.iterations < o.max_iterations && !frontier.empty()) {
    engine.vertex_map(frontier, [&](uint64_t v) {
      if (v >= first && v < last) {  // another rank's: its share comes below
        const uint32_t degree = engine.out_degree(v);
        share[v] = degree ? Share(pending[v] / degree) : Share(0);
        pending[v] = 0;
      }
      return false;
    });
    ranks.member_values(frontier, share.data());
    SumIntoDestination<SourceValue<Share>> push{{share.data()}, received.data()};
    engine.edge_map<double>(frontier, push, false);
    trace.record(engine, "iteration", result.iterations);
    // In the first round the estimate moves from the start 1/n to
    // base + d x received; afterwards by d x received.
    const double offset = result.iterations == 0 ? base - 1.0 / double(n) : 0.0;
    const double total = ranks.communicator().sum(engine.parallel_sum<double>(first, last, [&](uint64_t v) {
      const double change = offset + o.damping * received[v];
      received[v] = 0;
      result.rank[v] += change;
      pending[v] += change;
      return std::fabs(change);
    }));
    ++result.iterations;
    result.last_change = total;
    frontier = ranks.frontier(engine.vertex_map(all, [&](uint64_t v) {
      return v >= first && v < last && std::fabs(pending[v]) > o.delta_threshold * result.rank[v];
    }));
    if (total < o.tolerance) break;
  }
  result.converged = (result.iterations > 0 && result.last_change < o.tolerance) || frontier.empty();
  return result;
}

}  // namespace

PageRankResult pagerank(engine::Engine& engine, const PageRankOptions& options, RunTrace& trace) {
  check(options);
  if (engine.graph().vertices() == 0) {
    PageRankResult nothing;
    nothing.converged = true;  // no vertex, nothing to change
    return nothing;
  }
  auto run = [&]<class Share>(Share) {
    return options.method == PageRankMethod::classic ? classic<Share>(engine, options, trace) : delta<Share>(engine, options, trace);
  };
  return options.shares == PageRankShares::float32 ? run(float{}) : run(double{});
}

}  // namespace sluice::algorithms
