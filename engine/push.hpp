// The push direction of EDGEMAP (included by engine.hpp): the frontier's
// out-edge pages are read (or, for edge_map_first, the sample file when it
// holds enough: engine/sample_stream.hpp) and every edge of an active
// source is scattered into the bins (or, with the atomic variant,
// gathered on the spot with gather_atomic).
#pragma once

#include <chrono>

#include "engine/page_walk.hpp"
#include "engine/sample_stream.hpp"

namespace sluice::engine {

template <class Value>
Bins<Value>& Engine::bins() {
  if (!bins_ || *bins_type_ != typeid(Value)) {
    bins_.reset();
    bins_ = std::make_shared<Bins<Value>>(geometry_, threads(), bin_space_bytes(graph_, options_));
    bins_type_ = &typeid(Value);
  }
  return *static_cast<Bins<Value>*>(bins_.get());
}

template <class Value, class Functions>
void Engine::push(const VertexSubset& frontier, Functions& f, bool output, bool atomic, uint64_t first_edges,
                  const ChunkPlan& plan) {
  const FrontierBits bits(*this, frontier);
  const IndexedBitmap& active = bits.bits();
  // Runs the EDGEMAP over the edges `next` hands out: next(error, busy,
  // on_edge) gives the calling thread its next share, false at the end.
  auto over = [&](auto&& next) {
    if (atomic) {
      if constexpr (requires(const Value& value) { f.gather_atomic(uint64_t{}, value); }) push_edges_atomic<Value>(f, output, next);
    } else if constexpr (requires(const Value& value) { f.gather(uint64_t{}, value); }) {
      push_edges<Value>(f, output, next);
    }
  };
  if (SampleStream::serves(graph_, first_edges)) {  // the sample file, not the pages
    SampleStream sample(graph_, active, frontier.is_all(), first_edges, resident_sample_.get());
    values_needed();
    auto ahead = [&](uint64_t dst) {
      if constexpr (detail::prefetches_destination<Functions>) f.prefetch_destination(dst);
    };
    over([&](base::FirstError& error, uint64_t& busy, auto&& on_edge) { return sample.next(error, busy, on_edge, ahead); });
    stats_.bytes_read = sample.bytes_read();
    stats_.io_seconds = sample.read_seconds();
    stats_.requests = resident_sample_ ? 0 : sample.pieces_read();
    return;
  }
  push_stream_->start(plan);
  values_needed();  // the drives read ahead while what the ranks share arrives
  with_record_format(graph_, [&](auto format) {
    using Format = decltype(format);
    auto walk = [&](auto all_active) {
      over([&](base::FirstError& error, uint64_t& busy, auto&& on_edge) {
        return push_stream_->next(error, busy, [&](uint64_t page, const char* data, PageCheck check) {
          scatter_page<Format, decltype(all_active)::value>(graph_, active, check, first_edges, page, data, on_edge);
        });
      });
    };
    if (frontier.is_all()) walk(std::true_type{});
    else walk(std::false_type{});
  });
}

// Scatters the edges of the active sources in one page, at most the first
// `first_edges` of each source's list (0: all): on_edge(src, dst, w). A
// target that is not a vertex stops the EDGEMAP before it indexes memory.
template <class Format, bool AllActive, class OnEdge>
void scatter_page(const DiskGraph& graph, const IndexedBitmap& active, PageCheck check, uint64_t first_edges, uint64_t page,
                  const char* raw, OnEdge&& on_edge) {
  const char* data = page_records<Format>(graph, page, raw, check);
  const uint64_t first = graph.first_edge_of_page(page);
  for_each_vertex_in_page(graph, page, [&](uint64_t src, uint64_t lo, uint64_t hi, uint64_t begin, uint64_t) {
    if constexpr (!AllActive) {
      if (!active.test(src)) return;
    }
    if (first_edges) hi = std::min(hi, begin + first_edges);
    for (uint64_t e = lo; e < hi; ++e) on_edge(src, Format::target(data, e - first), Format::weight(data, e - first));
  });
}

template <class Value, class Functions, class Next>
void Engine::push_edges(Functions& f, bool output, Next& next) {
  using Block = BinBlock<Value>;
  Bins<Value>& bins = this->bins<Value>();
  base::FirstError error;
  std::atomic<uint64_t> scatter_ns{0}, gather_ns{0};
  // Applies a list of blocks of one bin on thread t; adds its time to spent.
  auto gatherer = [&](int t, uint64_t& spent) {
    return [&, t](const Block* list, uint64_t base) {
      const auto start = std::chrono::steady_clock::now();
      for (const Block* block = list; block; block = block->next) {
        for (uint32_t i = 0; i < block->count; ++i) {
          // A bin's destinations are random within its range: what gather
          // touches of the one a few records on is on its way meanwhile.
          if constexpr (detail::prefetches_destination<Functions>) {
            if (i + gather_prefetch_distance < block->count) f.prefetch_destination(base + block->offsets[i + gather_prefetch_distance]);
          }
          const uint64_t dst = base + block->offsets[i];
          if (f.cond(dst) && f.gather(dst, block->values[i]) && output) next_.add(t, dst);
        }
      }
      spent += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    };
  };
  try {
    pool_.run([&](int t) {
      uint64_t gathering = 0, busy = 0;  // busy includes the gathers that scattering set off
      auto gather = gatherer(t, gathering);
      bins.begin(t, gather);
      while (next(error, busy, [&](uint64_t src, uint64_t dst, float w) {
        Value value;
        if (f.scatter(src, dst, w, value)) bins.put(t, dst, value, gather);
      })) {
      }
      bins.flush(t);
      scatter_ns += busy - gathering;
      gather_ns += gathering;
    });
    error.rethrow();
    bins.reset_sweep();
    pool_.run([&](int t) {
      uint64_t gathering = 0;
      auto gather = gatherer(t, gathering);
      bins.gather_all(t, gather);
      gather_ns += gathering;
    });
  } catch (...) {
    bins_.reset();  // a failed call may leave records or a busy bin behind
    throw;
  }
  stats_.scatter_seconds = double(scatter_ns.load()) / 1e9;
  stats_.gather_seconds = double(gather_ns.load()) / 1e9;
}

template <class Value, class Functions, class Next>
void Engine::push_edges_atomic(Functions& f, bool output, Next& next) {
  base::FirstError error;
  std::atomic<uint64_t> busy_ns{0};
  pool_.run([&](int t) {
    uint64_t busy = 0;
    while (next(error, busy, [&](uint64_t src, uint64_t dst, float w) {
      Value value;
      if (f.cond(dst) && f.scatter(src, dst, w, value) && f.gather_atomic(dst, value) && output) next_.add(t, dst);
    })) {
    }
    busy_ns += busy;
  });
  error.rethrow();
  stats_.scatter_seconds = double(busy_ns.load()) / 1e9;
}

}  // namespace sluice::engine
