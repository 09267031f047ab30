// EDGEMAP and VERTEXMAP over a disk-resident graph (the Ligra/Blaze API).
//
//   Engine engine(graph, options);
//   VertexSubset next = engine.edge_map<Value>(frontier, functions);
//
// `functions` is any object with
//   bool cond(uint64_t dst)                          may dst still change?
//   bool scatter(uint64_t src, uint64_t dst, float w, Value& out)
//                                                    the update along src->dst
//   bool gather(uint64_t dst, const Value& value)    apply it; true activates dst
// and, for EdgeMapVariant::atomic, also
//   bool gather_atomic(uint64_t dst, const Value& value)   the same, thread-safe
//
// The path: frontier -> chunk plan (skipping gaps under λ) -> IO threads
// read the chunks -> scatter threads walk the vertices of each page
// (page-to-vertex map) and call cond / scatter -> per-thread bin buffers ->
// bins -> full-bin queue -> gather threads call gather -> next frontier.
// With the atomic variant scatter threads call gather_atomic directly.
//
// Threads: scatter runs on scatter threads and gather on gather threads;
// cond runs just before gather (binning: on the gather thread, where dst's
// state is in the bin's slice of memory rather than a random read per
// edge) or just before scatter (atomic). Gather needs no atomic read-modify-write (a destination's
// records are all in one bin, gathered by one thread), but vertex state
// that gather writes and cond reads must use relaxed atomic loads and
// stores (std::atomic_ref), which compile to plain moves.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <typeinfo>
#include <vector>

#include "engine/bins.hpp"
#include "engine/chunk_planner.hpp"
#include "engine/disk_graph.hpp"
#include "engine/vertex_subset.hpp"
#include "io/io_service.hpp"

namespace sluice::engine {

enum class EdgeMapVariant { binning, atomic };

struct EngineOptions {
  int threads = 0;                 // compute threads; 0: cores
  double scatter_share = 0.5;      // of the compute threads, the share that scatter (Blaze: equal counts)
  uint32_t bins = 0;               // 0: one per 8192 vertices (64 KiB of 8-byte state), at most 1024
  uint64_t bin_space = 0;          // bytes for all bins; 0: edges * 4 / 20 (Blaze), at least 1 MiB
  EdgeMapVariant variant = EdgeMapVariant::binning;
  SkipThreshold skip;              // λ
  io::IoOptions io;
  uint64_t memory_limit = 0;       // bytes; 0: the memory available now
  uint64_t algorithm_bytes = 0;    // the algorithm's own vertex arrays, counted in the budget
  unsigned value_bytes = 8;        // size of an EDGEMAP value, for sizing the bins
};

// The bin count an engine uses: the option, or by default one bin per
// 8192 vertices up to 1024, so that a gather thread works on a slice of the
// vertex state that stays in cache while the scatter threads' per-bin
// buffers stay few.
uint32_t bin_count(const DiskGraph& graph, const EngineOptions& options);

// What an engine will hold in DRAM, by part.
struct MemoryBudget {
  uint64_t index = 0, frontiers = 0, bins = 0, io_buffers = 0, algorithm = 0;
  uint64_t total() const { return index + frontiers + bins + io_buffers + algorithm; }
  static MemoryBudget of(const DiskGraph& graph, const EngineOptions& options);
};

// What one EDGEMAP did; json() is one line of the --stats file.
struct EdgeMapStats {
  uint64_t active_vertices = 0, active_pages = 0, requests = 0, bytes_read = 0, bytes_skipped = 0;
  bool full_scan = false;
  double seconds = 0;          // the whole call
  double io_seconds = 0;       // drive busy time (summed over drives)
  double scatter_seconds = 0;  // wall time of the scatter phase (reads overlap it)
  double gather_seconds = 0;   // busy time of the gather threads, summed
  double bandwidth() const { return seconds > 0 ? double(bytes_read) / seconds : 0; }  // bytes per second
  std::string json() const;
};

// λ for a graph: the flag if given ("inf", "0", "64k"...), else the device
// profile that `sluice calibrate` wrote for the first drive's device, else
// 64 KiB (between the 16 KiB and 128 KiB that NVMe drives calibrate to).
SkipThreshold resolve_skip_threshold(const std::string& flag, const DiskGraph& graph, std::string* source = nullptr);

class Engine {
 public:
  // Refuses (std::runtime_error) when the budget exceeds the memory limit.
  Engine(const DiskGraph& graph, const EngineOptions& options);
  ~Engine();

  const DiskGraph& graph() const { return graph_; }
  const EngineOptions& options() const { return options_; }
  const EdgeMapStats& last_stats() const { return stats_; }
  const MemoryBudget& budget() const { return budget_; }

  template <class Value, class Functions>
  VertexSubset edge_map(const VertexSubset& frontier, Functions& f, bool output = true);

  // Calls f(v) for every member, in parallel; the members for which it
  // returns true form the result.
  template <class F>
  VertexSubset vertex_map(const VertexSubset& frontier, F&& f);

 private:
  // Reads the planned chunks and calls visit(page, records) for every page,
  // on `threads` scatter threads.
  template <class Visit>
  void stream_pages(const ChunkPlan& plan, int threads, Visit&& visit);

  // The bins and the scatter threads' local buffers of the last EDGEMAP's
  // value type, kept for the next call: allocating 2 x bins buffers per
  // call would dominate the short EDGEMAPs of high-diameter graphs.
  template <class Value>
  struct BinSet;
  template <class Value>
  BinSet<Value>& bin_set();

  const DiskGraph& graph_;
  EngineOptions options_;
  std::shared_ptr<void> bin_set_;
  const std::type_info* bin_set_type_ = nullptr;
  int threads_;          // scatter threads (and VERTEXMAP's)
  int gather_threads_;
  io::DriveSet drives_;
  std::unique_ptr<io::IoService> io_;
  ChunkPlanner planner_;
  EdgeMapStats stats_;
  MemoryBudget budget_;
};

}  // namespace sluice::engine

#include "engine/engine_impl.hpp"
