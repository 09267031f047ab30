#include "algorithms/pagerank.hpp"

#include <cmath>
#include <span>
#include <stdexcept>
#include <type_traits>

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

// The method given, or the automatic one's first choice: delta, unless
// the dangling rank is spread (classic alone spreads it).
PageRankMethod preferred_method(const PageRankOptions& o) {
  if (o.method != PageRankMethod::automatic) return o.method;
  return o.dangling == Dangling::spread ? PageRankMethod::classic : PageRankMethod::delta;
}

// The automatic method resolved: the same on every rank, classic where
// any rank's engine was fitted with classic's arrays.
PageRankMethod method_to_run(engine::Engine& engine, const PageRankOptions& o) {
  const PageRankMethod preferred = preferred_method(o);
  if (o.method != PageRankMethod::automatic || preferred == PageRankMethod::classic) return preferred;
  const bool least = engine.ranks().communicator().sum(uint64_t(engine.fitted().least_arrays)) > 0;
  return least ? PageRankMethod::classic : PageRankMethod::delta;
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

// Whether a classic run starts with float shares, and below which L1
// change of an iteration it leaves them for double ones (0: never).
// Automatic switches while the change is still 100 times the most float
// rounding can have moved the ranks: a float share is off by at most
// 2^-24 of itself, so one iteration's ranks by at most 2^-24 of their sum
// (at most 1), and the damping d contracts what earlier iterations put
// in, to at most 2^-24 / (1 - d) in all. While on floats, rounding is
// under 1% of the last change, so it never decides where a run stops; the
// double rounds after converge as a run on doubles alone would.
bool starts_with_floats(const PageRankOptions& o) {
  return o.shares == PageRankShares::float32 || (o.shares == PageRankShares::automatic && o.damping < 1);
}
double leave_floats_below(const PageRankOptions& o) {
  return o.shares == PageRankShares::automatic ? 100 * 0x1p-24 / (1 - o.damping) : 0.0;
}

// Classic iterations over `shares`, what the edges read (sent to the
// ranks that read them): next(v, rank) stores v's new rank and share and
// returns its change and the rank it drops (no out-edges). Returns when
// the run is done (converged or at the cap) or at the first iteration
// whose change is below switch_below. `dangling`: the rank the vertices
// without out-edges hold now.
//
// On several ranks, each updates the ranks of its own range [first, last)
// and shares what the others read (shares, sums, the frontier).
template <class Share, class Next>
void classic_iterations(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace, PageRankResult& result,
                        base::Array<double>& received, std::span<Share> shares, double dangling, double switch_below,
                        Next&& next) {
  const uint64_t n = engine.graph().vertices();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  engine::RankExchange& ranks = engine.ranks();
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  const double base = (1 - o.damping) / double(n);
  while (result.iterations < o.max_iterations) {
    ranks.source_values(shares);
    SumIntoDestination<SourceValue<Share>> push{{shares.data()}, received.data()};
    engine.edge_map<double>(all, push, false);
    trace.record(engine, "iteration", result.iterations);
    const double spread = o.dangling == Dangling::spread ? dangling / double(n) : 0.0;
    // One pass: the new rank, its change, and the next round's shares.
    const ChangeAndDangling sums = engine.parallel_sum<ChangeAndDangling>(first, last, [&](uint64_t v) {
      const double rank = base + o.damping * (received[v] + spread);
      received[v] = 0;
      return next(v, rank);
    });
    ++result.iterations;
    result.last_change = ranks.communicator().sum(sums.change);
    dangling = ranks.communicator().sum(sums.dangling);
    // Below switch_below floats do not decide that the run is done: their
    // rounding can reach a fixed point of its own (a change of 0).
    if (result.last_change < switch_below && o.tolerance <= switch_below) return;
    if (result.last_change < o.tolerance) {
      result.converged = true;
      return;
    }
  }
}

// The iterations on float shares, run from the start, to switch_below.
void classic_float_rounds(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace, PageRankResult& result,
                          base::Array<double>& received, double switch_below) {
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  base::Array<float> share = engine.filled_random_access_array(engine.graph().vertices(), 0.0f, "PageRank's shares");
  // What each vertex sends along each out-edge, and the rank of the
  // vertices without out-edges (spread or dropped).
  auto shares = [&](uint64_t v, double rank) {
    const uint32_t degree = engine.out_degree(v);
    share[v] = degree ? float(rank / degree) : 0.0f;
    return degree ? 0.0 : rank;
  };
  const double dangling =
      engine.ranks().communicator().sum(engine.parallel_sum<double>(first, last, [&](uint64_t v) { return shares(v, result.rank[v]); }));
  classic_iterations(engine, o, trace, result, received, share.span(), dangling, switch_below, [&](uint64_t v, double next) {
    const double change = std::fabs(next - result.rank[v]);
    result.rank[v] = next;
    return ChangeAndDangling{change, shares(v, next)};
  });
}

// The iterations on double shares, from the start or on from the float
// ones. A rank and its share are one array, `value`: a vertex with
// out-edges holds what it sends along each (rank / out-degree), and its
// rank is that times its out-degree again, within 2 ulps; one without
// holds its rank, which no edge reads. A separate array of shares would
// cost 8 bytes a vertex, a third of the run's state.
void classic_double_rounds(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace, PageRankResult& result,
                           base::Array<double>& received) {
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  base::Array<double>& value = result.rank;
  auto rank_of = [&](uint64_t v, uint32_t degree) { return degree ? value[v] * degree : value[v]; };
  // Sets v's value from its rank; returns the rank it drops (no out-edges).
  auto set_value = [&](uint64_t v, uint32_t degree, double rank) {
    value[v] = degree ? rank / degree : rank;
    return degree ? 0.0 : rank;
  };
  const double dangling = engine.ranks().communicator().sum(engine.parallel_sum<double>(first, last, [&](uint64_t v) {
    return set_value(v, engine.out_degree(v), value[v]);
  }));
  classic_iterations(engine, o, trace, result, received, value.span(), dangling, 0.0, [&](uint64_t v, double next) {
    const uint32_t degree = engine.out_degree(v);
    const double change = std::fabs(next - rank_of(v, degree));
    return ChangeAndDangling{change, set_value(v, degree, next)};
  });
  engine.parallel_for(last - first, [&](int, uint64_t begin, uint64_t end) {
    for (uint64_t v = first + begin; v < first + end; ++v) value[v] = rank_of(v, engine.out_degree(v));
  });
}

PageRankResult classic(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  PageRankResult result;
  // The double rounds read the ranks' array at random, as the shares: on
  // huge pages (on normal ones, 10 double iterations on RMAT 22 in memory
  // took 1.13-1.19 s against 1.01 s). The float rounds only walk it in
  // order, at the own range, so it moves onto them where the double rounds
  // begin, and only then does a rank hold its mirrors' entries.
  const bool floats = starts_with_floats(o);
  result.rank = floats ? engine.filled_owned_array(n, 1.0 / double(n), "PageRank's ranks")
                       : engine.filled_random_access_array(n, 1.0 / double(n), "PageRank's ranks");
  base::Array<double> received = engine.filled_owned_array(n, 0.0, "PageRank's sums");
  if (floats) {
    classic_float_rounds(engine, o, trace, result, received, leave_floats_below(o));
    result.float_share_iterations = result.iterations;
  }
  if (!result.converged && result.iterations < o.max_iterations) {
    if (floats) result.rank.collapse_to_huge_pages();
    classic_double_rounds(engine, o, trace, result, received);
  }
  return result;
}

// PageRank-delta's state between rounds.
struct DeltaState {
  base::Array<double> pending;   // the part of each rank not yet pushed
  base::Array<double> received;  // what each vertex received this round
  engine::VertexSubset frontier;  // who pushes next
};

// Who pushes next: the owned vertices whose pending change is above the
// threshold share of their rank (`all`: every vertex, made once per run).
engine::VertexSubset next_delta_frontier(engine::Engine& engine, const PageRankOptions& o, const PageRankResult& result,
                                         const DeltaState& state, const engine::VertexSubset& all) {
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  return engine.ranks().frontier(engine.vertex_map(all, [&](uint64_t v) {
    return v >= first && v < last && std::fabs(state.pending[v]) > o.delta_threshold * result.rank[v];
  }));
}

// Shares as Share. A pusher pushes its whole pending change, so on double
// shares its share is written over that change for the round (and zeroed
// after): no array of shares, 8 bytes a vertex, is held. Float shares are
// an array of their own.
template <class Share>
void delta_rounds(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace, PageRankResult& result, DeltaState& state) {
  constexpr bool in_place = std::is_same_v<Share, double>;
  const uint64_t n = engine.graph().vertices();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  engine::RankExchange& ranks = engine.ranks();
  base::Array<double>& pending = state.pending;
  base::Array<double>& received = state.received;
  base::Array<float> float_shares;
  Share* share = nullptr;
  if constexpr (in_place) {
    share = pending.data();
  } else {
    float_shares = engine.filled_random_access_array(n, 0.0f, "PageRank's shares");
    share = float_shares.data();
  }
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  const double base = (1 - o.damping) / double(n);
  auto owned = [&](uint64_t v) { return v >= first && v < last; };  // another rank's share comes from it
  // The vertex passes run on the compute threads: one thread walking
  // every vertex took 28% of the kernel on RMAT 22.
  while (result.iterations < o.max_iterations && !state.frontier.empty()) {
    engine.vertex_map(state.frontier, [&](uint64_t v) {
      if (owned(v)) {
        const uint32_t degree = engine.out_degree(v);
        const double sent = degree ? pending[v] / degree : 0.0;
        if (!in_place) pending[v] = 0;
        share[v] = Share(sent);
      }
      return false;
    });
    ranks.member_values(state.frontier, share);
    SumIntoDestination<SourceValue<Share>> push{{share}, received.data()};
    engine.edge_map<double>(state.frontier, push, false);
    trace.record(engine, "iteration", result.iterations);
    // The pushers' shares are zeroed as their changes come in: in the pass
    // below where their bitmap is at hand, before it otherwise (a sparse
    // frontier, a few of the vertices).
    const engine::IndexedBitmap* pushers = in_place ? state.frontier.bitmap() : nullptr;
    if (in_place && !pushers) {
      engine.vertex_map(state.frontier, [&](uint64_t v) {
        if (owned(v)) pending[v] = 0;
        return false;
      });
    }
    // In the first round the estimate moves from the start 1/n to
    // base + d x received; afterwards by d x received.
    const double offset = result.iterations == 0 ? base - 1.0 / double(n) : 0.0;
    const double total = ranks.communicator().sum(engine.parallel_sum<double>(first, last, [&](uint64_t v) {
      const double change = offset + o.damping * received[v];
      received[v] = 0;
      result.rank[v] += change;
      pending[v] = (pushers && pushers->test(v) ? 0.0 : pending[v]) + change;
      return std::fabs(change);
    }));
    ++result.iterations;
    result.last_change = total;
    state.frontier = next_delta_frontier(engine, o, result, state, all);
    if (total < o.tolerance) return;
  }
}

PageRankResult delta(engine::Engine& engine, const PageRankOptions& o, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  PageRankResult result;
  // rank: the current estimate; pending: the part of it not yet pushed to
  // the out-neighbours. Everything starts at 1/n, all of it pending, so the
  // first round pushes the uniform start and later rounds push changes.
  // A change too small to push stays pending (Ligra drops it) and goes out
  // once it has grown past the threshold, so nothing is lost.
  result.rank = engine.filled_owned_array(n, 1.0 / double(n), "PageRank's ranks");
  // On huge pages: on double shares, the edges read it at random.
  DeltaState state{engine.filled_random_access_array(n, 1.0 / double(n), "PageRank's pending changes"),
                   engine.filled_owned_array(n, 0.0, "PageRank's sums"), engine::VertexSubset::all(n)};
  if (o.shares == PageRankShares::float32) {
    delta_rounds<float>(engine, o, trace, result, state);
    result.float_share_iterations = result.iterations;
  } else {
    delta_rounds<double>(engine, o, trace, result, state);
  }
  result.converged = (result.iterations > 0 && result.last_change < o.tolerance) || state.frontier.empty();
  return result;
}

}  // namespace

engine::VertexBytes pagerank_vertex_bytes(const PageRankOptions& options) {
  PageRankOptions o = options;
  o.method = preferred_method(options);
  const bool float_shares = o.method == PageRankMethod::classic ? starts_with_floats(o) : o.shares == PageRankShares::float32;
  // classic: the ranks (the double rounds' shares) and the float shares
  // over every vertex, the sums owned; delta: the pending changes (the
  // double shares) and the float shares over every vertex, the ranks and
  // the sums owned.
  const uint64_t floats = float_shares ? 4 : 0;
  return o.method == PageRankMethod::classic ? engine::VertexBytes{8 + floats, 8} : engine::VertexBytes{8 + floats, 16};
}

engine::VertexBytes pagerank_least_vertex_bytes(const PageRankOptions& options) {
  if (options.method != PageRankMethod::automatic || preferred_method(options) == PageRankMethod::classic) return {};
  PageRankOptions classic = options;
  classic.method = PageRankMethod::classic;
  return pagerank_vertex_bytes(classic);
}

PageRankResult pagerank(engine::Engine& engine, const PageRankOptions& options, RunTrace& trace) {
  check(options);
  PageRankOptions o = options;
  o.method = method_to_run(engine, options);
  PageRankResult result;
  if (engine.graph().vertices() == 0) {
    result.converged = true;  // no vertex, nothing to change
  } else {
    result = o.method == PageRankMethod::classic ? classic(engine, o, trace) : delta(engine, o, trace);
  }
  result.method = o.method;
  return result;
}

}  // namespace sluice::algorithms
