// The pull direction of EDGEMAP (included by engine.hpp), Ligra's
// edgeMapDense over the stored transpose with Redio's skipping on the
// destination side: only the in-edge pages of destinations whose cond
// holds are read, and a destination stops walking its in-edges at the
// first gather after which cond is false.
#pragma once

#include "engine/page_walk.hpp"

namespace sluice::engine {

template <class Functions>
ChunkPlan Engine::plan_pull(Functions& f) {
  const DiskGraph& graph = *pull_graph_;
  ChunkPlanner& planner = pull_stream_->planner();
  planner.clear_marks();
  if constexpr (detail::cond_always_true<Functions>()) {
    stats_.destinations = with_in_edges();
    return planner.plan_marked(*options_.skip, graph.edges());  // every page (no marks: the edges decide)
  }
  // One parallel pass finds the destinations that may still change and
  // have in-edges (wanted_, built a word at a time), counts their edges
  // and marks their pages. Pieces of 32768 vertices: each thread owns
  // whole index words of wanted_; the page marks are atomic (neighbouring
  // pieces share their boundary pages).
  std::atomic<uint64_t> wanted{0}, wanted_edges{0};
  const uint32_t* degrees = graph.degrees();
  try {
    pool_.parallel_for(graph.vertices(), IndexedBitmap::block_bits * 64, [&](int, uint64_t begin, uint64_t end) {
      uint64_t count = 0, edges = 0, offset = graph.offset(begin);
      uint64_t unmarked = 0;  // the first page this piece has not marked
      for (uint64_t word = begin / 64; word * 64 < end; ++word) {
        uint64_t bits = 0;
        for (uint64_t v = word * 64; v < std::min(end, word * 64 + 64); ++v) {
          // Without branches on the degree and cond: both are coin flips
          // on skewed graphs, and mispredictions dominated this loop.
          const uint64_t d = degrees[v];
          const bool want = (d != 0) & bool(f.cond(v));
          bits |= uint64_t(want) << (v % 64);
          count += want;
          edges += want ? d : 0;
          // One past the last page of a wanted list, 0 for the others.
          const uint64_t reach = want ? graph.page_of_edge(offset + d - 1) + 1 : 0;
          const uint64_t first = std::max(graph.page_of_edge(offset), unmarked);
          if (reach > first) [[unlikely]] {  // a wanted list reaching a new page
            planner.mark(first, reach - 1);
            unmarked = reach;
          }
          offset += d;
        }
        wanted_.set_word(word, bits);
      }
      wanted += count;
      wanted_edges += edges;
    });
  } catch (...) {
    wanted_.clear();
    throw;
  }
  stats_.destinations = wanted.load();
  return planner.plan_marked(*options_.skip, wanted_edges.load());
}

template <class Value, class Functions>
void Engine::pull(const VertexSubset& frontier, Functions& f, bool output, const ChunkPlan& plan) {
  struct Cleanup {  // the scratch bitmaps are empty again, whatever happens
    Engine& engine;
    const VertexSubset& frontier;
    ~Cleanup() {
      engine.wanted_.clear();
      engine.release_bitmap(frontier);
    }
  } cleanup{*this, frontier};
  const IndexedBitmap& active = bitmap_of(frontier);
  pull_stream_->start(plan);
  with_record_format(*pull_graph_, [&](auto format) {
    if (frontier.is_all()) pull_pages<Value, decltype(format), true>(active, f, output);
    else pull_pages<Value, decltype(format), false>(active, f, output);
  });
}

template <class Value, class Format, bool AllActive, class Functions>
void Engine::pull_pages(const IndexedBitmap& active, Functions& f, bool output) {
  PageStream& stream = *pull_stream_;
  const DiskGraph& graph = stream.graph();
  FirstError error;
  std::atomic<uint64_t> busy_ns{0};
  pool_.run([&](int t) {
    uint64_t busy = 0;
    while (stream.next(error, busy, [&](uint64_t page, const char* data) {
      const uint64_t first = graph.first_edge_of_page(page);
      const uint64_t ahead_end = std::min(graph.edges(), first + graph.records_per_page()) - first;
      check_page<Format>(graph, page, data, options_.verify_reads);
      // The frontier's sources among dst's in-edges [lo, hi): accept(src, w).
      auto sources = [&](uint64_t& e, uint64_t hi, auto&& accept) {
        for (; e < hi; ++e) {
          if constexpr (detail::prefetches<Functions>) {
            if (e - first + prefetch_distance < ahead_end) f.prefetch(Format::target(data, e - first + prefetch_distance));
          }
          const uint64_t src = Format::target(data, e - first);
          if constexpr (!AllActive) {
            if (!active.test(src)) continue;
          }
          if (accept(src, Format::weight(data, e - first))) return true;
        }
        return false;
      };
      // The page's destinations are consecutive: those activated go to the
      // next frontier a bitmap word at a time (one atomic or per word).
      uint64_t word = 0, activated_bits = 0;
      for_each_vertex_in_page(graph, page, [&](uint64_t dst, uint64_t lo, uint64_t hi, uint64_t begin, uint64_t end) {
        if constexpr (!detail::cond_always_true<Functions>()) {
          if (!wanted_.test(dst)) return;
        }
        std::unique_lock<std::mutex> lock;
        if (begin < lo || end > hi) lock = std::unique_lock(split_locks_[dst % split_lock_count]);
        if (!f.cond(dst)) return;
        bool activated = false;
        uint64_t e = lo;
        if constexpr (detail::combines<Value, Functions>) {
          // Combined in a register, gathered once for this piece of dst's list.
          Value total;
          if (!sources(e, hi, [&](uint64_t src, float w) { return f.scatter(src, dst, w, total); })) return;
          ++e;
          sources(e, hi, [&](uint64_t src, float w) {
            Value value;
            if (f.scatter(src, dst, w, value)) total = f.combine(total, value);
            return false;
          });
          activated = f.gather(dst, total);
        } else {
          sources(e, hi, [&](uint64_t src, float w) {
            Value value;
            if (!f.scatter(src, dst, w, value)) return false;
            activated |= f.gather(dst, value);
            return !f.cond(dst);  // settled: the rest of its in-edges cannot change it
          });
        }
        if (activated && output) {
          if (dst / 64 != word) {
            next_.add_word(t, word, activated_bits);
            word = dst / 64;
            activated_bits = 0;
          }
          activated_bits |= uint64_t(1) << (dst % 64);
        }
      });
      next_.add_word(t, word, activated_bits);
    })) {
    }
    busy_ns += busy;
  });
  error.rethrow();
  stats_.scatter_seconds = double(busy_ns.load()) / 1e9;
}

}  // namespace sluice::engine
