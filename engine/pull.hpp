// The pull direction of EDGEMAP (included by engine.hpp), Ligra's
// edgeMapDense over the stored transpose with Redio's skipping on the
// destination side: only the in-edge pages of destinations whose cond
// holds are read, and a destination stops walking its in-edges at the
// first gather after which cond is false. Destinations whose whole
// in-list the pull cache holds are walked from DRAM (pull_cache.hpp).
#pragma once

#include <optional>

#include "engine/page_walk.hpp"
#include "engine/reads_while_planning.hpp"

namespace sluice::engine {

namespace detail {
// A pull that stops at the first gather settling a destination keeps the
// lists it leaves open in the pull cache; combining pulls walk every list
// whole anyway, and those whose cond always holds never leave one.
template <class Value, class Functions>
constexpr bool builds_pull_cache = !combines<Value, Functions> && !cond_always_true<Functions>();
}  // namespace detail

template <class Functions>
ChunkPlan Engine::plan_pull(Functions& f, OpenDestinations* open, bool committed) {
  const DiskGraph& graph = *pull_graph_;
  ChunkPlanner& planner = pull_stream_->planner();
  planner.clear_marks();
  if constexpr (detail::cond_always_true<Functions>()) {
    stats_.destinations = with_in_edges();
    return planner.plan_marked(*options_.skip, graph.edges());  // every page (no marks: the edges decide)
  }
  // One parallel pass finds the destinations that may still change and
  // have in-edges, counts their edges and marks their pages: over every
  // vertex, or over those `open` kept. Those the pull cache holds are
  // counted apart and get no page; the others go to wanted_, built a word
  // at a time. Units of 32768 vertices, taken in turn: each thread owns
  // whole index words of wanted_ and of open; the page marks are atomic
  // (neighbouring units share their boundary pages). A pull already
  // chosen queues its reads as the units' pages are settled.
  std::atomic<uint64_t> wanted{0}, cached{0}, wanted_edges{0};
  const layout::DegreeArray::Reader degrees = graph.degrees().reader();
  const PullCache& cache = *pull_cache_;
  struct Found {
    uint64_t count = 0, held = 0, edges = 0;
    uint64_t unmarked = 0;       // the first page this piece has not marked
    uint64_t unmarked_edge = 0;  // and its first edge
  };
  // A wanted list reaching a page not marked yet (about once a page): only
  // then are its pages looked up.
  auto mark = [&](Found& piece, uint64_t offset, uint64_t d) {
    if (offset + d <= piece.unmarked_edge) return;
    const uint64_t reach = graph.page_of_edge(offset + d - 1) + 1;
    planner.mark(std::max(graph.page_of_edge(offset), piece.unmarked), reach - 1);
    piece.unmarked = reach;
    piece.unmarked_edge = reach < graph.pages() ? graph.first_edge_of_page(reach) : UINT64_MAX;
  };
  auto find_all = [&](auto use_cache, uint64_t begin, uint64_t end) {
    Found piece;
    // The sums in locals, apart from piece, which mark() takes by reference:
    // in piece they were stored on every vertex.
    uint64_t offset = graph.offset(begin), edges = 0, unmarked_edge = 0;
    for (uint64_t word = begin / 64; word * 64 < end; ++word) {
      uint64_t bits = 0, open_bits = 0;
      const uint64_t in_cache = decltype(use_cache)::value ? cache.held_word(word) : 0;
      for (uint64_t v = word * 64; v < std::min(end, word * 64 + 64); ++v) {
        // Without branches on the degree and cond: both are coin flips
        // on skewed graphs, and mispredictions dominated this loop.
        const uint64_t d = degrees[v];
        const bool holds = (d != 0) & bool(f.cond(v));
        const bool want = holds & !((in_cache >> (v % 64)) & 1);
        bits |= uint64_t(want) << (v % 64);
        open_bits |= uint64_t(holds) << (v % 64);
        edges += d & (uint64_t(0) - uint64_t(want));
        // One branch, taken about once a page, on a mask: tested as
        // `want && ...`, or with `want ? unmarked_edge : UINT64_MAX`, the
        // compiler branched on want, a coin flip on RMAT.
        const uint64_t reach = unmarked_edge | (uint64_t(0) - uint64_t(!want));
        if (offset + d > reach) [[unlikely]] {
          mark(piece, offset, d);
          unmarked_edge = piece.unmarked_edge;
        }
        offset += d;
      }
      piece.count += uint64_t(std::popcount(bits));
      piece.held += uint64_t(std::popcount(open_bits & ~bits));  // held: open, but not wanted
      wanted_.set_word(word, bits);
      if (open) open->bits_.set_word(word, open_bits);
    }
    piece.edges = edges;
    return piece;
  };
  // Among open's destinations only (each has in-edges): those whose cond
  // no longer holds leave it. A word's candidates are tested first,
  // without a branch on cond (which held for about half of them on RMAT
  // 22's BFS); then its wanted lists are marked, each looked up only where
  // its group of the index ends past the pages marked already.
  const layout::CompactIndex& index = graph.index();
  auto find_open = [&](auto use_cache, uint64_t begin, uint64_t end) {
    Found piece;
    open->bits_.filter_words_in(begin, end, [&](uint64_t word, uint64_t candidates) {
      uint64_t still = 0;
      for (uint64_t c = candidates; c; c &= c - 1) {
        const uint64_t v = word * 64 + uint64_t(std::countr_zero(c));
        still |= (c & -c) & (uint64_t(0) - uint64_t(f.cond(v)));
      }
      const uint64_t in_cache = decltype(use_cache)::value ? cache.held_word(word) : 0;
      const uint64_t bits = still & ~in_cache;
      piece.held += uint64_t(std::popcount(still & in_cache));
      piece.count += uint64_t(std::popcount(bits));
      for (uint64_t c = bits; c; c &= c - 1) {
        const uint64_t v = word * 64 + uint64_t(std::countr_zero(c)), d = degrees[v];
        piece.edges += d;
        if (index.group_end(v) > piece.unmarked_edge) mark(piece, index.offset(v), d);
      }
      wanted_.set_word(word, bits);
      return still;
    });
    return piece;
  };
  const bool narrowed = open && open->narrowed_;
  if (open && !narrowed) open->bits_ = IndexedBitmap(graph.vertices());
  constexpr uint64_t unit = IndexedBitmap::block_bits * 64;
  std::optional<ReadsWhilePlanning> reads;
  if (committed && pull_stream_->reads_drives() && !options_.skip->infinite) {
    reads.emplace(graph, planner, *pull_stream_, *options_.skip, unit);
  }
  const uint64_t units = (graph.vertices() + unit - 1) / unit;
  std::atomic<uint64_t> next_unit{0};
  try {
    pool_.run([&](int) {
      Found found;
      for (uint64_t u; (u = next_unit.fetch_add(1, std::memory_order_relaxed)) < units;) {
        const uint64_t begin = u * unit, end = std::min(graph.vertices(), begin + unit);
        Found piece;
        if (narrowed) piece = cache.lists() ? find_open(std::true_type{}, begin, end) : find_open(std::false_type{}, begin, end);
        else piece = cache.lists() ? find_all(std::true_type{}, begin, end) : find_all(std::false_type{}, begin, end);
        found.count += piece.count;
        found.held += piece.held;
        found.edges += piece.edges;
        if (reads) reads->unit_done(u);
      }
      wanted += found.count;
      cached += found.held;
      wanted_edges += found.edges;
    });
  } catch (...) {
    wanted_.clear();
    if (reads) pull_stream_->discard();  // what was queued before the failure
    throw;
  }
  if (open) open->narrowed_ = true;
  stats_.destinations = wanted.load() + cached.load();
  stats_.cached = cached.load();
  return reads ? reads->take() : planner.plan_marked(*options_.skip, wanted_edges.load());
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
  values_needed();  // the drives read ahead while what the ranks share arrives
  try {
    with_record_format(*pull_graph_, [&](auto format) {
      if (frontier.is_all()) pull_pages<Value, decltype(format), true>(active, f, output);
      else pull_pages<Value, decltype(format), false>(active, f, output);
    });
  } catch (...) {
    pull_cache_->clear();  // it may hold part of what this walk kept
    throw;
  }
  if constexpr (detail::builds_pull_cache<Value, Functions>) pull_cache_->publish();
}

template <class Value, class Format, bool AllActive, class Functions>
void Engine::pull_pages(const IndexedBitmap& active, Functions& f, bool output) {
  PageStream& stream = *pull_stream_;
  const DiskGraph& graph = stream.graph();
  PullCache& cache = *pull_cache_;
  // Pulls whose cond always holds plan every page and walk every
  // destination there, the cached ones included.
  constexpr bool walks_cache = !detail::cond_always_true<Functions>();
  constexpr bool builds_cache = detail::builds_pull_cache<Value, Functions>;
  base::FirstError error;
  std::atomic<uint64_t> busy_ns{0};
  if (walks_cache) cache.begin_walk();
  // dst's in-edges [lo, hi) from the records at `records` (record 0 is
  // edge `first`): scatter and gather along those from frontier sources.
  // Returns whether gather activated dst.
  auto pull_list = [&](uint64_t dst, const char* records, uint64_t first, uint64_t lo, uint64_t hi, uint64_t ahead_end) {
    // The frontier's sources among [e, hi): accept(src, w) until it says stop.
    auto sources = [&](uint64_t& e, auto&& accept) {
      for (; e < hi; ++e) {
        if constexpr (detail::prefetches<Functions>) {
          if (e - first + prefetch_distance < ahead_end) f.prefetch(Format::target(records, e - first + prefetch_distance));
        }
        const uint64_t src = Format::target(records, e - first);
        if constexpr (!AllActive) {
          if (e - first + frontier_prefetch_distance < ahead_end) active.prefetch(Format::target(records, e - first + frontier_prefetch_distance));
          if (!active.test(src)) continue;
        }
        if (accept(src, Format::weight(records, e - first))) return true;
      }
      return false;
    };
    uint64_t e = lo;
    if constexpr (detail::combines<Value, Functions>) {
      // Combined in a register, gathered once for this piece of dst's list.
      Value total;
      if (!sources(e, [&](uint64_t src, float w) { return f.scatter(src, dst, w, total); })) return false;
      ++e;
      sources(e, [&](uint64_t src, float w) {
        Value value;
        if (f.scatter(src, dst, w, value)) total = f.combine(total, value);
        return false;
      });
      return f.gather(dst, total);
    } else {
      bool activated = false;
      sources(e, [&](uint64_t src, float w) {
        Value value;
        if (!f.scatter(src, dst, w, value)) return false;
        activated |= f.gather(dst, value);
        return !f.cond(dst);  // settled: the rest of its in-edges cannot change it
      });
      return activated;
    }
  };
  pool_.run([&](int t) {
    uint64_t busy = 0;
    if constexpr (walks_cache) {
      // The cached lists first, while the drives fill the first buffers.
      // No page walk takes these destinations (they are not in wanted_).
      const auto start = std::chrono::steady_clock::now();
      try {
        cache.walk([&](uint64_t dst, const char* records, uint64_t count) {
          if (!f.cond(dst)) return;
          if (pull_list(dst, records, 0, 0, count, count) && output) next_.add(t, dst);
          if (builds_cache && f.cond(dst)) cache.keep(t, dst, records, count, Format::bytes);
        });
      } catch (...) {
        error.capture();
      }
      busy += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    }
    while (stream.next(error, busy, [&](uint64_t page, const char* raw, PageCheck check) {
      const uint64_t first = graph.first_edge_of_page(page);
      const uint64_t records = graph.end_edge_of_page(page) - first;
      const char* data = page_records<Format>(graph, page, raw, check);
      // The page's destinations are consecutive: those activated go to the
      // next frontier a bitmap word at a time (one atomic or per word).
      uint64_t word = 0, activated_bits = 0;
      for_each_vertex_in_page(graph, page, [&](uint64_t dst, uint64_t lo, uint64_t hi, uint64_t begin, uint64_t end) {
        if constexpr (!detail::cond_always_true<Functions>()) {
          if (!wanted_.test(dst)) return;
        }
        const bool whole = begin == lo && end == hi;
        std::unique_lock<std::mutex> lock;
        if (!whole) lock = std::unique_lock(split_locks_[dst % split_lock_count]);
        if (!f.cond(dst)) return;
        if (pull_list(dst, data, first, lo, hi, records) && output) {
          if (dst / 64 != word) {
            next_.add_word(t, word, activated_bits);
            word = dst / 64;
            activated_bits = 0;
          }
          activated_bits |= uint64_t(1) << (dst % 64);
        }
        // Walked whole and still open: the next pull will want it again.
        if (builds_cache && whole && f.cond(dst)) cache.keep(t, dst, data + (lo - first) * Format::bytes, hi - lo, Format::bytes);
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
