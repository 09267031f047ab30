// The templates of engine.hpp: EDGEMAP's scatter/gather pipeline.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <stdexcept>

namespace sluice::engine {

namespace detail {

// The first exception of any worker thread, rethrown after joining.
class FirstError {
 public:
  void capture() {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
    failed_ = true;
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace detail

// Records per bin buffer: the bin space split over bins x 2 buffers, at
// most 64 KiB a buffer, so that full buffers reach the gather threads while
// scattering goes on.
inline size_t bin_capacity(const DiskGraph& graph, const EngineOptions& options, size_t record_bytes) {
  uint64_t space = options.bin_space ? options.bin_space : std::max<uint64_t>(uint64_t(1) << 20, graph.edges() * 4 / 20);
  size_t records = space / (2 * uint64_t(bin_count(graph, options)) * record_bytes);
  return std::clamp<size_t>(records, 64, std::max<size_t>(64, (64 << 10) / record_bytes));
}

namespace detail {

inline IndexedBitmap dense_copy(const VertexSubset& frontier) {
  if (frontier.bitmap()) return *frontier.bitmap();
  IndexedBitmap bitmap(frontier.vertices());
  frontier.for_each([&](uint64_t v) { bitmap.set(v); });
  return bitmap;
}

}  // namespace detail

template <class Value>
struct Engine::BinSet {
  BinSet(uint32_t count, uint64_t vertices, size_t capacity, size_t threads)
      : bins(count, vertices, capacity), local(threads * bins.count() * local_bin_records), used(threads * bins.count(), 0) {}
  Bins<Value> bins;
  // Per scatter thread, per bin: room for local_bin_records records, of which
  // `used` are filled (all zero between calls).
  std::vector<BinRecord<Value>> local;
  std::vector<uint32_t> used;
};

template <class Value>
Engine::BinSet<Value>& Engine::bin_set() {
  if (!bin_set_ || *bin_set_type_ != typeid(Value)) {
    bin_set_.reset();
    const uint32_t count = bin_count(graph_, options_);
    bin_set_ = std::make_shared<BinSet<Value>>(count, graph_.vertices(), bin_capacity(graph_, options_, sizeof(BinRecord<Value>)),
                                               size_t(threads_));
    bin_set_type_ = &typeid(Value);
  }
  return *static_cast<BinSet<Value>*>(bin_set_.get());
}

template <class Visit>
void Engine::stream_pages(const ChunkPlan& plan, int threads, Visit&& visit) {
  const uint64_t page = graph_.page_bytes();
  const unsigned drives = graph_.drives();
  for (unsigned d = 0; d < drives; ++d) {
    std::vector<io::Extent> extents;
    for (const Chunk& c : plan.chunks[d]) extents.push_back({c.first_page * page, c.pages * page});
    io_->read(d, extents);
  }
  detail::FirstError error;
  std::vector<std::thread> scatter;
  for (int t = 0; t < threads; ++t) {
    scatter.emplace_back([&, t] {
      io::Filled filled;
      for (;;) {
        try {
          if (!io_->next(filled)) return;
        } catch (...) {
          error.capture();  // an IO error; keep draining so no buffer is left behind
          continue;
        }
        if (!error.failed()) {
          try {
            for (uint64_t k = 0; k < filled.length / page; ++k) {
              uint64_t logical = (filled.offset / page + k) * drives + filled.drive;
              visit(t, logical, filled.data + k * page);
            }
          } catch (...) {
            error.capture();
          }
        }
        io_->release(filled);
      }
    });
  }
  for (auto& thread : scatter) thread.join();
  error.rethrow();
}

template <class Value, class Functions>
VertexSubset Engine::edge_map(const VertexSubset& frontier, Functions& f, bool output) {
  using Record = BinRecord<Value>;
  constexpr bool has_atomic = requires(Functions& fn, const Value& value) { fn.gather_atomic(uint64_t{}, value); };
  const bool atomic = options_.variant == EdgeMapVariant::atomic;
  if (atomic && !has_atomic) throw std::invalid_argument("the atomic EDGEMAP needs gather_atomic(dst, value)");
  if (frontier.vertices() != graph_.vertices()) throw std::invalid_argument("the frontier is for another graph");

  auto start = std::chrono::steady_clock::now();
  const uint64_t n = graph_.vertices();
  stats_ = {};
  stats_.active_vertices = frontier.size();
  if (frontier.empty()) return VertexSubset(n);

  ChunkPlan plan = planner_.plan(frontier, options_.skip);
  stats_.full_scan = plan.full_scan;
  stats_.active_pages = plan.active_pages;
  stats_.requests = plan.requests();
  stats_.bytes_read = plan.read_pages * graph_.page_bytes();
  stats_.bytes_skipped = (graph_.pages() - plan.read_pages) * graph_.page_bytes();

  const IndexedBitmap active = detail::dense_copy(frontier);
  const uint64_t edges = graph_.edges();
  const unsigned record_bytes = graph_.record_bytes();
  const unsigned id_bytes = graph_.info().id_bytes;
  const bool weighted = graph_.info().weighted;
  const uint64_t per_page = graph_.page_bytes() / record_bytes;

  // Walks the vertices whose edges lie in one page.
  auto for_each_edge_of_page = [&](uint64_t logical, const char* data, auto&& on_edge) {
    const uint64_t first = logical * per_page, last = std::min(edges, first + per_page);
    uint64_t v = graph_.first_vertex_of_page(logical);
    uint64_t begin = graph_.offset(v);
    while (v < n && begin < last) {
      uint64_t end = begin + graph_.degree(v);
      if (end > first && active.test(v)) {
        for (uint64_t e = std::max(begin, first); e < std::min(end, last); ++e) {
          const char* record = data + (e - first) * record_bytes;
          uint64_t dst;
          if (id_bytes == 4) {
            uint32_t narrow;
            std::memcpy(&narrow, record, 4);
            dst = narrow;
          } else {
            std::memcpy(&dst, record, 8);
          }
          float w = 1.0f;
          if (weighted) std::memcpy(&w, record + id_bytes, 4);
          on_edge(v, dst, w);
        }
      }
      begin = end;
      ++v;
    }
  };

  std::vector<std::vector<uint64_t>> activated(size_t(threads_ + gather_threads_));
  std::vector<uint64_t> busy_before;
  for (unsigned d = 0; d < graph_.drives(); ++d) busy_before.push_back(io_->stats(d).busy_ns);
  std::atomic<uint64_t> gather_ns{0};
  auto scatter_start = std::chrono::steady_clock::now();

  if (atomic) {
    if constexpr (has_atomic) {
      stream_pages(plan, threads_, [&](int t, uint64_t logical, const char* data) {
        for_each_edge_of_page(logical, data, [&](uint64_t src, uint64_t dst, float w) {
          Value value;
          if (f.cond(dst) && f.scatter(src, dst, w, value) && f.gather_atomic(dst, value) && output) {
            activated[t].push_back(dst);
          }
        });
      });
    }
  } else {
    BinSet<Value>& set = bin_set<Value>();
    Bins<Value>& bins = set.bins;
    const uint32_t bin_count = bins.count();

    detail::FirstError gather_error;
    std::vector<std::thread> gatherers;
    for (int t = 0; t < gather_threads_; ++t) {
      gatherers.emplace_back([&, t] {
        auto& out = activated[threads_ + t];
        for (;;) {
          typename Bins<Value>::Full full = bins.take();
          if (!full.records) return;  // stop
          if (!gather_error.failed()) {
            auto busy = std::chrono::steady_clock::now();
            try {
              for (const Record& r : *full.records) {
                if (f.cond(r.dst) && f.gather(r.dst, r.value) && output) out.push_back(r.dst);
              }
            } catch (...) {
              gather_error.capture();
            }
            gather_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - busy).count());
          }
          bins.recycle(full);
        }
      });
    }
    auto stop_gatherers = [&] {
      bins.wait_until_gathered();
      for (int t = 0; t < gather_threads_; ++t) bins.stop_one();
      for (auto& g : gatherers) g.join();
    };
    try {
      // Per scatter thread: a small buffer per bin, flushed whole.
      stream_pages(plan, threads_, [&](int t, uint64_t logical, const char* data) {
        Record* mine = set.local.data() + size_t(t) * bin_count * local_bin_records;
        uint32_t* used = set.used.data() + size_t(t) * bin_count;
        for_each_edge_of_page(logical, data, [&](uint64_t src, uint64_t dst, float w) {
          // cond is left to the gather side: there dst's state is in the
          // bin's slice of the vertex arrays, here it is a random read.
          Value value;
          if (!f.scatter(src, dst, w, value)) return;
          const uint32_t b = bins.bin_of(dst);
          Record* buffer = mine + size_t(b) * local_bin_records;
          buffer[used[b]++] = {dst, value};
          if (used[b] == local_bin_records) {
            bins.append(b, buffer, local_bin_records);
            used[b] = 0;
          }
        });
      });
      for (size_t i = 0; i < set.used.size(); ++i) {
        if (set.used[i]) bins.append(uint32_t(i % bin_count), set.local.data() + i * local_bin_records, set.used[i]);
        set.used[i] = 0;
      }
      stats_.scatter_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - scatter_start).count();
      bins.flush_all();
    } catch (...) {
      stop_gatherers();
      bin_set_.reset();  // a failed call may leave records behind
      throw;
    }
    stop_gatherers();
    gather_error.rethrow();
  }

  if (atomic) stats_.scatter_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - scatter_start).count();
  stats_.gather_seconds = double(gather_ns.load()) / 1e9;
  for (unsigned d = 0; d < graph_.drives(); ++d) stats_.io_seconds += double(io_->stats(d).busy_ns - busy_before[d]) / 1e9;
  std::vector<uint64_t> ids;
  for (auto& list : activated) ids.insert(ids.end(), list.begin(), list.end());
  VertexSubset next = VertexSubset::from_ids(n, std::move(ids));
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return next;
}

template <class F>
VertexSubset Engine::vertex_map(const VertexSubset& frontier, F&& f) {
  std::vector<uint64_t> members;
  members.reserve(frontier.size());
  frontier.for_each([&](uint64_t v) { members.push_back(v); });
  std::vector<std::vector<uint64_t>> kept(static_cast<size_t>(threads_));
  std::vector<std::thread> workers;
  detail::FirstError error;
  for (int t = 0; t < threads_; ++t) {
    workers.emplace_back([&, t] {
      try {
        for (size_t i = members.size() * size_t(t) / size_t(threads_); i < members.size() * size_t(t + 1) / size_t(threads_); ++i) {
          if (f(members[i])) kept[t].push_back(members[i]);
        }
      } catch (...) {
        error.capture();
      }
    });
  }
  for (auto& w : workers) w.join();
  error.rethrow();
  std::vector<uint64_t> ids;
  for (auto& list : kept) ids.insert(ids.end(), list.begin(), list.end());
  return VertexSubset::from_ids(graph_.vertices(), std::move(ids));
}

}  // namespace sluice::engine
