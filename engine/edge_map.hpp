// EDGEMAP's entry (included by engine.hpp): picks the direction, runs push
// or pull, and fills the statistics; and VERTEXMAP.
#pragma once

#include <bit>
#include <chrono>
#include <optional>
#include <stdexcept>

namespace sluice::engine {


template <class Functions>
Engine::Route Engine::route(const VertexSubset& frontier, Functions& f, bool pullable, uint64_t first_edges,
                            OpenDestinations* open) {
  auto frontier_edges = [&] { return frontier.is_all() ? graph_.edges() : out_edges_of(frontier); };
  auto push_route = [&](uint64_t edges) {
    if (SampleStream::serves(graph_, first_edges)) return Route{Direction::push, ChunkPlan{}};  // no page read
    if (first_edges) return Route{Direction::push, push_stream_->planner().plan(frontier, *options_.skip, first_edges)};
    return Route{Direction::push, plan_push(frontier, edges)};
  };
  // committed: no push plan is weighed against it, so its reads may start
  // while it plans.
  auto pull_route = [&](bool committed) { return Route{Direction::pull, plan_pull(f, open, committed)}; };
  if (!pullable || !pull_graph_ || first_edges || options_.direction == Direction::push) {
    return push_route(first_edges ? 0 : frontier_edges());
  }
  if (options_.direction == Direction::pull) return pull_route(true);
  // Ligra's rule: dense when the frontier and its out-edges are many.
  const uint64_t divisor = options_.pull_divisor;
  const uint64_t edges = frontier_edges();
  if constexpr (detail::cond_always_true<Functions>()) {
    if (!frontier.is_all()) {
      // Such a pull stops no list early: it walks every in-edge and tests
      // its source against the frontier, where a push walks the frontier's
      // out-edges alone (binned, and reading no page the pull would not).
      // Which costs less an edge depends on the graph: on RMAT 22 SSSP
      // pushed 57% of the edges in 0.37 s against a 0.51 s pull; on
      // cnr-2000, whose in-lists' sources lie close together, PageRank-
      // delta's push of 69% took 2.3x its pull. So once both have run,
      // their last costs an edge decide; until then the pull is taken for
      // at least 3/4 of the edges. Only EDGEMAPs of at least 1/20 of the
      // edges are timed: below, what an EDGEMAP costs whatever its size
      // would dominate.
      const uint64_t all = graph_.edges();
      const bool pulls = push_edge_seconds_ > 0 && pull_edge_seconds_ > 0
                             ? pull_edge_seconds_ * double(all) <= push_edge_seconds_ * double(edges)
                             : edges * 4 >= all * 3;
      Route route = pulls ? pull_route(true) : push_route(edges);
      if (edges * divisor >= all) route.costed_edges = pulls ? all : edges;
      return route;
    }
  }
  if (frontier.size() + edges > graph_.edges() / divisor) return pull_route(true);
  // Sparse, but reading much of the graph: out of core the bytes decide,
  // and pull reads only the in-pages of destinations still open (late BFS
  // levels, where few are left).
  //
  // With its open destinations narrowed, the pull's plan is cheap and
  // comes first; one that reads no page at all (their lists in the pull
  // cache) beats any push, which then goes unplanned. (RMAT 22's BFS level
  // 3: 267 K sources, whose push plan took 2.5 ms, against 272 K open
  // destinations, all cached.)
  std::optional<Route> pull;
  if (open && open->narrowed()) {
    pull = pull_route(false);
    if (pull->plan.read_pages == 0) return std::move(*pull);
  }
  Route push = push_route(edges);
  if (push.plan.read_pages * divisor > graph_.pages()) {
    if (!pull) pull = pull_route(false);
    if (pull->plan.read_pages < push.plan.read_pages) return std::move(*pull);
  }
  if (pull) {  // planned, not taken
    wanted_.clear();
    stats_.destinations = stats_.cached = 0;
  }
  return push;
}

template <class Value, class Functions>
VertexSubset Engine::run_edge_map(const VertexSubset& frontier, Functions& f, bool output, uint64_t first_edges,
                                  OpenDestinations* open) {
  constexpr bool has_gather = detail::has_gather<Value, Functions>;
  constexpr bool has_atomic = detail::has_gather_atomic<Value, Functions>;
  static_assert(has_gather || has_atomic, "EDGEMAP needs gather(dst, value) or gather_atomic(dst, value)");
  const bool atomic = !has_gather || options_.variant == EdgeMapVariant::atomic;
  if (atomic && !has_atomic) throw std::invalid_argument("the atomic EDGEMAP needs gather_atomic(dst, value)");
  if (frontier.vertices() != graph_.vertices()) throw std::invalid_argument("the frontier is for another graph");
  refuse_if_released();

  // A stop requested before the call, or while it planned, ends it here;
  // one requested while pages stream in ends it at the next buffer.
  base::throw_if_interrupted();
  const auto start = std::chrono::steady_clock::now();
  start_stats(frontier.size());
  if (frontier.empty()) {
    values_needed();
    count_communication();
    return VertexSubset(graph_.vertices());
  }

  constexpr bool pullable = has_gather && !detail::declines_pull<Functions>();
  Route route = this->route(frontier, f, pullable, first_edges, open);
  record_plan(route.plan, route.direction == Direction::pull ? *pull_graph_ : graph_, route.direction, start);
  PageStream& stream = route.direction == Direction::pull ? *pull_stream_ : *push_stream_;
  const double busy_before = stream.busy_seconds();
  try {
    base::throw_if_interrupted();
    if (route.direction == Direction::pull) {
      if constexpr (pullable) pull<Value>(frontier, f, output, route.plan);
    } else {
      push<Value>(frontier, f, output, atomic, first_edges, route.plan);
    }
  } catch (...) {
    next_.take();  // drop what a failed call activated
    stream.discard();  // reads queued while planning that no walk took
    throw;
  }
  stats_.io_seconds += stream.busy_seconds() - busy_before;  // push may have read a sample file first
  if (route.costed_edges) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    (route.direction == Direction::pull ? pull_edge_seconds_ : push_edge_seconds_) = seconds / double(route.costed_edges);
  }
  VertexSubset next = output ? next_.take() : VertexSubset(graph_.vertices());
  if (output && distributed()) next = exchange_->frontier(next);
  count_communication();
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return next;
}

template <class F>
VertexSubset Engine::vertex_map(const VertexSubset& frontier, F&& f) {
  const VertexPhase phase(*this);
  if (frontier.is_dense()) {
    // A dense frontier's result is kept as bits: kept as ids it took up to
    // 16 bytes a member (each thread's list, then their concatenation),
    // 1 GiB beyond the budget for PageRank-delta's first frontiers on RMAT
    // 26. for_frontier_pieces cuts a dense frontier at blocks (512 bits),
    // so each thread owns the words it writes; their index words are
    // shared, set atomically.
    IndexedBitmap kept(graph_.vertices());
    std::vector<uint64_t> counts(static_cast<size_t>(this->threads()), 0);
    for_frontier_pieces(frontier, [&](int t, auto&& for_each_member) {
      uint64_t word = UINT64_MAX, bits_of_word = 0, count = 0;
      auto put = [&] {
        if (!bits_of_word) return;
        kept.set_word_atomic(word, bits_of_word);
        count += uint64_t(std::popcount(bits_of_word));
      };
      for_each_member([&](uint64_t v) {
        if (v / 64 != word) {
          put();
          word = v / 64, bits_of_word = 0;
        }
        if (f(v)) bits_of_word |= uint64_t(1) << (v % 64);
      });
      put();
      counts[size_t(t)] = count;
    });
    base::throw_if_interrupted();
    uint64_t count = 0;
    for (uint64_t c : counts) count += c;
    return VertexSubset::from_bitmap(std::move(kept), count);
  }
  std::vector<std::vector<uint64_t>> kept(static_cast<size_t>(this->threads()));
  for_frontier_pieces(frontier, [&](int t, auto&& for_each_member) {
    for_each_member([&](uint64_t v) {
      if (f(v)) kept[size_t(t)].push_back(v);
    });
  });
  base::throw_if_interrupted();
  return VertexSubset::from_sorted_pieces(graph_.vertices(), std::move(kept));  // pieces in order: ascending
}

template <class Pieces>
void Engine::for_frontier_pieces(const VertexSubset& frontier, Pieces&& pieces) {
  if (const IndexedBitmap* bits = frontier.bitmap()) {
    pool_.parallel_for(graph_.vertices(), IndexedBitmap::block_bits, [&](int t, uint64_t begin, uint64_t end) {
      pieces(t, [&](auto&& visit) { bits->for_each_in(begin, end, visit); });
    });
  } else {
    const std::vector<uint64_t>& ids = frontier.ids();
    pool_.parallel_for(ids.size(), 1, [&](int t, uint64_t begin, uint64_t end) {
      pieces(t, [&](auto&& visit) {
        for (uint64_t i = begin; i < end; ++i) visit(ids[i]);
      });
    });
  }
}

}  // namespace sluice::engine
