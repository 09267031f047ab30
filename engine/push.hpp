// The push direction of EDGEMAP (included by engine.hpp): the frontier's
// out-edge pages are read and every edge of an active source is scattered
// into the bins (or, with the atomic variant, gathered on the spot with
// gather_atomic).
#pragma once

#include <chrono>

#include "engine/page_walk.hpp"

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
  struct Cleanup {  // the scratch bitmap is empty again, whatever happens
    Engine& engine;
    const VertexSubset& frontier;
    ~Cleanup() { engine.release_bitmap(frontier); }
  } cleanup{*this, frontier};
  const IndexedBitmap& active = bitmap_of(frontier);
  push_stream_->start(plan);
  values_needed();  // the drives read ahead while what the ranks share arrives
  with_record_format(graph_, [&](auto format) {
    using Format = decltype(format);
    if (atomic) {
      if constexpr (requires(const Value& value) { f.gather_atomic(uint64_t{}, value); }) {
        if (frontier.is_all()) push_pages_atomic<Value, Format, true>(active, f, output, first_edges);
        else push_pages_atomic<Value, Format, false>(active, f, output, first_edges);
      }
    } else if constexpr (requires(const Value& value) { f.gather(uint64_t{}, value); }) {
      if (frontier.is_all()) push_pages<Value, Format, true>(active, f, output, first_edges);
      else push_pages<Value, Format, false>(active, f, output, first_edges);
    }
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

template <class Value, class Format, bool AllActive, class Functions>
void Engine::push_pages(const IndexedBitmap& active, Functions& f, bool output, uint64_t first_edges) {
  using Block = BinBlock<Value>;
  Bins<Value>& bins = this->bins<Value>();
  FirstError error;
  std::atomic<uint64_t> scatter_ns{0}, gather_ns{0};
  // Applies a list of blocks of one bin on thread t; adds its time to spent.
  auto gatherer = [&](int t, uint64_t& spent) {
    return [&, t](const Block* list, uint64_t base) {
      const auto start = std::chrono::steady_clock::now();
      for (const Block* block = list; block; block = block->next) {
        for (uint32_t i = 0; i < block->count; ++i) {
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
      while (push_stream_->next(error, busy, [&](uint64_t page, const char* data) {
        scatter_page<Format, AllActive>(graph_, active, push_stream_->page_check(), first_edges, page, data, [&](uint64_t src, uint64_t dst, float w) {
          Value value;
          if (f.scatter(src, dst, w, value)) bins.put(t, dst, value, gather);
        });
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

template <class Value, class Format, bool AllActive, class Functions>
void Engine::push_pages_atomic(const IndexedBitmap& active, Functions& f, bool output, uint64_t first_edges) {
  FirstError error;
  std::atomic<uint64_t> busy_ns{0};
  pool_.run([&](int t) {
    uint64_t busy = 0;
    while (push_stream_->next(error, busy, [&](uint64_t page, const char* data) {
      scatter_page<Format, AllActive>(graph_, active, push_stream_->page_check(), first_edges, page, data, [&](uint64_t src, uint64_t dst, float w) {
        Value value;
        if (f.cond(dst) && f.scatter(src, dst, w, value) && f.gather_atomic(dst, value) && output) next_.add(t, dst);
      });
    })) {
    }
    busy_ns += busy;
  });
  error.rethrow();
  stats_.scatter_seconds = double(busy_ns.load()) / 1e9;
}

}  // namespace sluice::engine
