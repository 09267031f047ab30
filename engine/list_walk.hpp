// Whole neighbour lists (included by engine.hpp): the pages of the members'
// out-lists are planned and read as a push reads them (λ, checksums, the IO
// threads, --io memory), and each member's list, assembled when it spans
// pages, is handed to the caller on a compute thread.
#pragma once

#include <chrono>
#include <stdexcept>

#include "engine/page_walk.hpp"

namespace sluice::engine {

template <class F>
void Engine::for_each_list(const VertexSubset& frontier, F&& f) {
  if (frontier.vertices() != graph_.vertices()) throw std::invalid_argument("the frontier is for another graph");
  const FrontierBits bits(*this, frontier);
  const IndexedBitmap& active = bits.bits();
  walk_lists(frontier.size(), [&] { return plan_push(frontier, frontier.is_all() ? graph_.edges() : out_edges_of(frontier)); },
             [&](uint64_t v) { return frontier.is_all() || active.test(v); }, f);
}

template <class F>
void Engine::for_each_list(uint64_t first, uint64_t last, F&& f) {
  if (first > last || last > graph_.vertices()) throw std::invalid_argument("the vertex range is not within the graph");
  const auto plan = [&] {
    uint64_t edges = 0, first_page = UINT64_MAX, last_page = 0, page, end_page;
    for (uint64_t v = first; v < last; ++v) {
      if (!graph_.page_range(v, page, end_page)) continue;
      first_page = std::min(first_page, page);
      last_page = end_page;
      edges += graph_.degree(v);
    }
    ChunkPlanner& planner = push_stream_->planner();
    planner.clear_marks();
    if (edges) planner.mark(first_page, last_page);
    return planner.plan_marked(*options_.skip, edges);
  };
  walk_lists(last - first, plan, [&](uint64_t v) { return v >= first && v < last; }, f);
}

template <class Plan, class Member, class F>
void Engine::walk_lists(uint64_t members, Plan&& plan_pages, Member&& member, F&& f) {
  refuse_if_released();
  if (distributed()) {
    throw std::logic_error("whole neighbour lists are not available on ranks: a rank's part holds only the edges into its own range");
  }
  base::throw_if_interrupted();
  const auto start = std::chrono::steady_clock::now();
  start_stats(members);
  const ChunkPlan plan = plan_pages();
  record_plan(plan, graph_, Direction::push, start);
  const double busy_before = push_stream_->busy_seconds();
  const bool weighted = graph_.info().weighted;
  ListAssembly assembly(weighted);
  base::FirstError error;
  std::atomic<uint64_t> busy_ns{0};
  try {
    push_stream_->start(plan);
    with_record_format(graph_, [&](auto format) {
      using Format = decltype(format);
      pool_.run([&](int t) {
        std::vector<uint64_t> targets;
        std::vector<float> weights;
        uint64_t busy = 0;
        auto copy = [](const char* data, uint64_t from, uint64_t count, uint64_t* to, float* w) {
          for (uint64_t i = 0; i < count; ++i) to[i] = Format::target(data, from + i);
          if (w) {
            for (uint64_t i = 0; i < count; ++i) w[i] = Format::weight(data, from + i);
          }
        };
        while (push_stream_->next(error, busy, [&](uint64_t page, const char* raw, PageCheck check) {
          const char* data = page_records<Format>(graph_, page, raw, check);
          const uint64_t first = graph_.first_edge_of_page(page);
          for_each_vertex_in_page(graph_, page, [&](uint64_t v, uint64_t lo, uint64_t hi, uint64_t begin, uint64_t end) {
            if (begin == end || !member(v)) return;
            if (begin == lo && end == hi) {  // the whole list is in this page
              targets.resize(hi - lo);
              weights.resize(weighted ? hi - lo : 0);
              copy(data, lo - first, hi - lo, targets.data(), weighted ? weights.data() : nullptr);
              f(NeighbourList{v, targets, weights, t});
              return;
            }
            auto whole = assembly.add(v, begin, end, lo, hi, [&](uint64_t* to, float* w) { copy(data, lo - first, hi - lo, to, w); });
            if (whole) f(NeighbourList{v, whole->targets, whole->weights, t});
          });
        })) {
        }
        busy_ns += busy;
      });
    });
    error.rethrow();
  } catch (...) {
    push_stream_->discard();
    throw;
  }
  stats_.io_seconds = push_stream_->busy_seconds() - busy_before;
  stats_.scatter_seconds = double(busy_ns.load()) / 1e9;
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sluice::engine
