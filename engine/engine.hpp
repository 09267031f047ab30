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
// An object with gather_atomic and no gather always runs the atomic way. An
// object that declares `static constexpr bool pull = false;` is never
// pulled (it has no pull form). An object with
//   Value combine(const Value& a, const Value& b)   associative, commutative
// is pulled by combining the updates of one destination in a register and
// gathering the result once per page (no early exit: its cond stays true).
// An object with `static constexpr bool cond_always_true = true;` (its
// cond holds for every destination) spares pull the pass that finds the
// destinations; one with `void prefetch(uint64_t src) const` is told, while
// pulling, of the source a few records ahead, to prefetch what scatter
// will read of it.
//
// Two directions (Ligra's edgeMapSparse and edgeMapDense):
//  - push: frontier -> chunk plan of its out-edge pages (skipping gaps
//    under λ) -> IO threads read the chunks -> compute threads walk the
//    vertices of each page (page-to-vertex map) and call scatter -> bins
//    (bins.hpp) -> gather on whichever thread fills a bin, with cond
//    checked just before gather. The atomic variant calls cond, scatter
//    and gather_atomic on the spot.
//  - pull, over the transpose: the destinations whose cond holds -> chunk
//    plan of their in-edge pages (the same λ) -> for each such destination
//    its in-edges from frontier sources: scatter, then gather on the spot,
//    stopping at the first gather after which cond is false. No bins, no
//    atomics: a destination is gathered by one thread at a time.
// Direction::automatic needs a transpose to pull, and pulls when the
// frontier is dense (Ligra's rule: |F| + out-degrees of F > edges /
// pull_divisor), or when a push would read more than pages / pull_divisor
// and the pull would read fewer pages (out of core, the bytes decide);
// push otherwise. For functions whose cond always holds, a frontier that
// is not every vertex goes the way that cost less an edge when last timed
// (a pull walks every in-edge, a push the frontier's out-edges).
//
// Threads: every compute thread reads pages, scatters, and gathers; the
// IO threads (one per drive) only read. cond and gather of one
// destination always run on one thread at a time, but vertex state that
// gather writes and cond or scatter read on other threads must use relaxed
// atomic loads and stores (std::atomic_ref), which compile to plain moves.
#pragma once

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "base/array.hpp"
#include "engine/bins.hpp"
#include "engine/chunk_planner.hpp"
#include "engine/communicator.hpp"
#include "engine/disk_graph.hpp"
#include "engine/edge_functions.hpp"
#include "engine/neighbour_list.hpp"
#include "engine/next_frontier.hpp"
#include "engine/open_destinations.hpp"
#include "engine/page_stream.hpp"
#include "engine/pull_cache.hpp"
#include "engine/rank_exchange.hpp"
#include "engine/resident_lists.hpp"
#include "engine/resident_sample.hpp"
#include "engine/sample_stream.hpp"
#include "engine/vertex_subset.hpp"
#include "engine/worker_pool.hpp"
#include "io/device_profile.hpp"
#include "io/io_service.hpp"

namespace sluice::engine {

enum class EdgeMapVariant { binning, atomic };
enum class Direction { automatic, push, pull };

const char* direction_name(Direction d);

struct EngineOptions {
  int threads = 0;                 // compute threads; 0: cores
  uint32_t bins = 0;               // 0: one per 8192 vertices (64 KiB of 8-byte state), at most 1024
  uint64_t bin_space = 0;          // bytes for all bins; 0: edges * 4 / 20 (Blaze), at least 1 MiB
  EdgeMapVariant variant = EdgeMapVariant::binning;
  Direction direction = Direction::automatic;
  uint64_t pull_divisor = 20;      // automatic pulls when |F| + out-degrees of F > edges / pull_divisor
  bool symmetric = false;          // the graph stores every edge both ways: pull over the out-edges
  bool verify_reads = true;        // check every page read against its checksum
  // With --io memory, hold the edge set's sample file in DRAM too, for
  // edge_map_first (an algorithm that reads it: WCC's Afforest).
  bool hold_samples = false;
  // Bytes for pull's cache of open in-lists (pull_cache.hpp); unset:
  // edges * 4 / 20, as the bins, at least 1 MiB (none with --io memory,
  // where every in-list is in DRAM already); 0: no cache.
  std::optional<uint64_t> pull_cache;
  // Bytes for edge pages kept from one EDGEMAP to the next (page_cache.hpp),
  // for the edge sets the engine reads, in proportion to their bytes; 0:
  // none (and none with --io memory, where every page is in DRAM).
  uint64_t page_cache = 0;
  // λ; unset: default_skip_threshold (the calibrated profile of the first
  // drive's device, else 64 KiB), as the programs do.
  std::optional<SkipThreshold> skip;
  io::IoOptions io;
  uint64_t memory_limit = 0;       // bytes; 0: the memory available now
  uint64_t algorithm_bytes = 0;    // the algorithm's own vertex arrays, counted in the budget
  // A smaller way the algorithm can run (0: none), taken where its
  // algorithm_bytes leave the engine's floor above the limit (PageRank's
  // automatic method: delta, else classic).
  uint64_t algorithm_bytes_least = 0;
  unsigned value_bytes = 8;        // size of an EDGEMAP value, for sizing the bins
  // On ranks: the widest value the algorithm sends its mirrors between
  // EDGEMAPs (RankExchange::source_values), for the budget; 0: none (BFS).
  unsigned exchanged_value_bytes = 8;
  // On ranks: what one exchange of values holds each way at once (it
  // crosses in rounds of at most this many bytes).
  uint64_t exchange_round_bytes = RankExchange::default_round_bytes;
  // The ranks of a distributed run, the graph being this rank's part of a
  // ranked layout (formats/ranked_writer.hpp); null: one process.
  Communicator* communicator = nullptr;
  // On ranks: the whole graph's out-degrees of the own range when the
  // caller has summed them already (sum_over_ranks_for_own_range: element
  // i is the range's first vertex + i's; they outlive the engine); null:
  // the engine sums them.
  const layout::DegreeArray* whole_out_degrees = nullptr;
};

// An algorithm's arrays, bytes a vertex: over every vertex id (what the
// edges read at their sources), and over the vertices the engine owns
// only (a rank's range: arrays read and written at a gather's
// destinations alone, filled by Engine::filled_owned_array). One process
// owns every vertex. Arrays of vertex ids are counted apart, each over
// every id or over the own vertices: 4 bytes an entry while the ids fit
// 31 bits, else 8.
struct VertexBytes {
  uint64_t every = 0, owned = 0;
  uint64_t id_arrays_every = 0, id_arrays_owned = 0;
  static uint64_t id_bytes(uint64_t vertices) { return vertices <= (uint64_t(1) << 31) ? 4 : 8; }
  uint64_t of(uint64_t vertices, uint64_t owned_vertices) const {
    const uint64_t id = id_bytes(vertices);
    return (every + id * id_arrays_every) * vertices + (owned + id * id_arrays_owned) * owned_vertices;
  }
};

// The bin count an engine uses: the option, or by default one bin per
// 8192 vertices up to 1024, so that a gather works on a slice of the
// vertex state that stays in cache.
uint32_t bin_count(const DiskGraph& graph, const EngineOptions& options);
// The bin space and the pull cache's budget an engine uses: the option,
// or edges * 4 / 20 bytes (at least 1 MiB).
uint64_t bin_space_bytes(const DiskGraph& graph, const EngineOptions& options);
uint64_t pull_cache_bytes(const DiskGraph& graph, const EngineOptions& options);

// What an engine reads through another's, and so does not hold: nothing;
// the IO buffers alone (an engine over another edge set that never runs
// while the other does: a rank's transpose part); or the edge sets with
// their index, buffers and pages (Engine::transposed).
enum class Shared { nothing, io_buffers, edge_sets };

// What an engine will hold in DRAM, by part.
struct MemoryBudget {
  uint64_t index = 0, frontiers = 0, bins = 0, io_buffers = 0, pull_cache = 0, algorithm = 0;
  // On ranks: the summed out-degrees, the mirror sets and the values in
  // flight (rank_exchange.hpp).
  uint64_t exchange = 0;
  uint64_t page_cache = 0;
  uint64_t total() const { return index + frontiers + bins + io_buffers + pull_cache + algorithm + exchange + page_cache; }
  // Part by part: two engines that live side by side.
  MemoryBudget& operator+=(const MemoryBudget& other) {
    index += other.index, frontiers += other.frontiers, bins += other.bins, io_buffers += other.io_buffers;
    pull_cache += other.pull_cache, algorithm += other.algorithm, exchange += other.exchange, page_cache += other.page_cache;
    return *this;
  }
  // `reversed`: the pull side's graph, if any; `shared`: what another
  // engine holds for this one.
  static MemoryBudget of(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options,
                         Shared shared = Shared::nothing);
  // The floor: the parts the caller left unset at the least they run
  // with (fit_to_memory).
  static MemoryBudget least(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options,
                            Shared shared = Shared::nothing);
};

// The options an engine runs with under its memory limit (the option, or
// the memory available). The parts the caller left unset (IO buffers
// from the drives, the bin space, the pull cache) get what they would by
// default when it fits; when not, each is cut towards its floor by the
// same share of what it would get above it: IO buffers to
// memory_floor_buffers_per_drive a drive, the bins to their fewest blocks,
// the pull cache to none. Where even the floor does not fit, the
// algorithm's smaller way (algorithm_bytes_least) is fitted instead, when
// it has one. Throws std::runtime_error, naming every part, the floor and
// the limit, when no floor fits.
inline constexpr unsigned memory_floor_buffers_per_drive = 4;
struct FittedOptions {
  EngineOptions options;
  MemoryBudget budget, wanted, floor;  // as fitted, as the defaults would have it, and the least
  uint64_t limit = 0;
  bool least_arrays = false;  // the algorithm's smaller way was fitted (options.algorithm_bytes is it)
  bool cut() const { return budget.total() < wanted.total(); }
};
FittedOptions fit_to_memory(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options,
                            Shared shared = Shared::nothing);
// Thrown when no floor fits the limit.
struct MemoryRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What one EDGEMAP did (algorithms/run_trace.hpp writes it as JSON).
struct EdgeMapStats {
  Direction direction = Direction::push;
  uint64_t active_vertices = 0, active_pages = 0, requests = 0, bytes_read = 0, bytes_skipped = 0;
  uint64_t destinations = 0;   // pull: destinations whose cond held
  uint64_t cached = 0;         // pull: of those, the ones walked from the pull cache (no page read for them)
  uint64_t cached_pages = 0;   // active pages taken from the page cache, not read
  bool full_scan = false;
  double seconds = 0;          // the whole call
  double plan_seconds = 0;     // choosing the direction and planning the chunks, before the first read
  double io_seconds = 0;       // drive busy time (summed over drives)
  double scatter_seconds = 0;  // compute threads' time reading pages and scattering (pull: and gathering), summed
  double gather_seconds = 0;   // compute threads' time gathering bins, summed
  // The vertex work the algorithm ran on the engine's threads (VERTEXMAP,
  // parallel_for, parallel_sum) since the previous EDGEMAP, wall time.
  double vertex_seconds = 0;
  // Distributed runs: this rank, and what it exchanged since the previous
  // EDGEMAP ended (the values the algorithm shared, then this one's frontier).
  int rank = -1;               // -1: one process
  uint64_t sent_bytes = 0, received_bytes = 0, collectives = 0;
  uint64_t frontier_sent_bytes = 0, frontier_received_bytes = 0;  // of those, the frontiers'
  double comm_seconds = 0;
  double bandwidth() const { return seconds > 0 ? double(bytes_read) / seconds : 0; }  // bytes per second
};

// λ and where it came from (the profile's path, "default", or what the
// caller names: a flag).
struct SkipChoice {
  SkipThreshold threshold;
  std::string source;
};
// The device profile that `sluice calibrate` wrote for the device holding
// the graph's first drive file, and its path; none when it never ran there.
struct DeviceCalibration {
  io::DeviceProfile profile;
  std::string path;
  uint64_t device = 0;  // st_dev of the first drive file's file system
};
std::optional<DeviceCalibration> calibration_of(const DiskGraph& graph);
// λ when none is given: the calibrated one, else 64 KiB (between the
// 16 KiB and 128 KiB that NVMe drives calibrate to); with --io memory 0,
// as a gap held in memory costs no request to skip, only its walk to read.
SkipChoice default_skip_threshold(const DiskGraph& graph, io::BackendKind backend = io::BackendKind::automatic);

class Engine {
 public:
  // Pulls over the layout's other edge set when it has one (or over the
  // graph itself with options.symmetric). Refuses (std::runtime_error)
  // when the budget exceeds the memory limit.
  Engine(const DiskGraph& graph, const EngineOptions& options);
  // An engine over another graph that reads into `buffers_of`'s IO
  // buffers, holding none of its own: the two never run at once (a rank's
  // part and its transpose's part), and both read from drives or both
  // from memory.
  Engine(const DiskGraph& graph, const EngineOptions& options, const Engine& buffers_of);
  ~Engine();
  // An engine over this one's transpose, pulling over this one's graph,
  // that shares its drive files and IO threads (with --io memory, the
  // pages in DRAM) and its index: a program that runs both ways (WCC, BC,
  // SpMV) opens, and with --io memory loads, each edge set once. The same
  // options, its own threads, bins and pull cache; the algorithm's arrays
  // are counted in this engine's budget, not in its. A layout with a
  // transpose; it must not outlive this engine, and the two never run at
  // once. On ranks it is the part's CSC, which holds the whole in-lists of
  // the rank's own vertices, run as one process: its gathers land on any
  // vertex, and nothing is exchanged (WCC reads its own vertices' lists
  // so).
  std::unique_ptr<Engine> transposed();
  // The same, made at the first call and kept while this engine lives, for
  // an algorithm that wants it in every trial (WCC on ranks): with --io
  // memory its sample is then loaded once, not at each trial.
  Engine& kept_transposed();
  // Readies the reads of the edge sets an algorithm will read, before its
  // first trial (io::ReadBackend::ready): the out-edges, pushed, and the
  // in-edges, pulled (pushed where this engine cannot pull), as far as
  // --direction lets each be read.
  void ready_reads(bool out_edges, bool in_edges);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const DiskGraph& graph() const { return graph_; }
  const EngineOptions& options() const { return options_; }
  // What the memory limit made of the options: the parts cut, if any.
  const FittedOptions& fitted() const { return fitted_; }
  const EdgeMapStats& last_stats() const { return stats_; }
  const MemoryBudget& budget() const { return budget_; }
  int threads() const { return pool_.size(); }
  // The IO backend the drives are read with ("io_uring", "libaio", ...).
  const char* backend_name() const { return push_stream_ ? push_stream_->backend_name() : "released"; }
  // After the last EDGEMAP: frees what only EDGEMAPs use (the IO threads
  // and their buffers, the pages kept in memory, the bins, the pull cache,
  // a held sample), with a kept_transposed() engine's, so that what a run
  // does next (widening and writing its result) does not hold them too.
  // An EDGEMAP or list walk after it is refused.
  void release_buffers();
  // Seconds the drive files took to load into memory (--io memory), before any EDGEMAP,
  // with those of a kept_transposed() engine's sample. 0 for a transposed() engine's
  // pages: they are the other's.
  double load_seconds() const {
    const double sample = (resident_sample_ ? resident_sample_->load_seconds() : 0.0) +
                          (kept_transposed_ ? kept_transposed_->load_seconds() : 0.0);
    if (shares_streams_ || !push_stream_) return sample;
    return sample + push_stream_->load_seconds() + (pull_stream_ ? pull_stream_->load_seconds() : 0.0);
  }
  // Whether edge_map can pull (the layout has a transpose, or is symmetric).
  bool can_pull() const { return pull_graph_ != nullptr; }

  // The ranks of the run (one process: a single one). An EDGEMAP returns
  // the frontier of every rank; gather has run on this rank's own range
  // only, and values other ranks read are shared through ranks().
  RankExchange& ranks() { return *exchange_; }
  bool distributed() const { return exchange_->distributed(); }
  uint64_t owned_begin() const { return exchange_->owned_begin(); }
  uint64_t owned_end() const { return exchange_->owned_end(); }
  // A vertex's out-degree in the whole graph (a part holds only the edges
  // into its rank's range); on ranks, of the own vertices alone.
  uint32_t out_degree(uint64_t v) const {
    assert(v >= out_degrees_first_ && v < owned_end());
    return (*out_degrees_)[v - out_degrees_first_];
  }

  template <class Value, class Functions>
  VertexSubset edge_map(const VertexSubset& frontier, Functions& f, bool output = true) {
    return run_edge_map<Value>(frontier, f, output, 0, nullptr);
  }
  // EDGEMAP for functions whose cond only ever turns false over the calls
  // that share `open` (BFS: "not visited yet"): a pull looks for its
  // destinations only among those the previous pull found open, not at
  // every vertex (open_destinations.hpp).
  template <class Value, class Functions>
  VertexSubset edge_map(const VertexSubset& frontier, Functions& f, OpenDestinations& open, bool output = true) {
    return run_edge_map<Value>(frontier, f, output, 0, &open);
  }
  // EDGEMAP over at most the first k edges of each frontier vertex's list
  // (always pushed; only the pages holding those edges are read):
  // Afforest's neighbour sampling.
  template <class Value, class Functions>
  VertexSubset edge_map_first(const VertexSubset& frontier, Functions& f, uint64_t k, bool output = true) {
    if (k == 0) throw std::invalid_argument("edge_map_first needs k >= 1");
    return run_edge_map<Value>(frontier, f, output, k, nullptr);
  }

  // Closes a step of the algorithm that exchanged values between ranks
  // without an EDGEMAP (WCC's label rounds): last_stats() then describes
  // it for RunTrace::record_exchange: no edges, what was sent and received
  // and the vertex work since the previous EDGEMAP or step (its wall time
  // is the trace's to measure: the run's EDGEMAPs may be other engines').
  void end_exchange_step();

  // Whole neighbour lists: calls f(const NeighbourList&) once for every
  // member with a non-empty out-list, with all of it (assembled when it
  // spans pages), on the compute threads, in no fixed order. The pages are
  // planned and read as a push reads them; last_stats() then describes the
  // walk (no frontier comes out). Over in-lists: the transposed() engine's.
  // Not on ranks, where a part holds only some of each list.
  template <class F>
  void for_each_list(const VertexSubset& frontier, F&& f);
  // The same for the vertices [first, last).
  template <class F>
  void for_each_list(uint64_t first, uint64_t last, F&& f);
  // The lists of [first, last) held in DRAM as keep(list, kept) makes them:
  // it fills `kept`, empty for each list, with what to hold of it (Id: the
  // id type held). Ranges that fit a byte budget: list_ranges.
  template <class Id, class Keep>
  ResidentLists<Id> hold_lists(uint64_t first, uint64_t last, Keep&& keep) {
    ResidentLists<Id> lists(first, last, threads());
    std::vector<std::vector<Id>> scratch(static_cast<size_t>(threads()));
    for_each_list(first, last, [&](const NeighbourList& list) {
      std::vector<Id>& kept = scratch[size_t(list.thread)];
      kept.clear();
      keep(list, kept);
      lists.keep(list.thread, list.vertex, kept);
    });
    lists.seal();
    return lists;
  }

  // Calls f(v) for every member, in parallel; the members for which it
  // returns true form the result.
  template <class F>
  VertexSubset vertex_map(const VertexSubset& frontier, F&& f);

  // Calls f(t, begin, end) over pieces of [0, count) on the compute
  // threads (t: the thread, for per-thread results).
  template <class F>
  void parallel_for(uint64_t count, F&& f) {
    const VertexPhase phase(*this);
    pool_.parallel_for(count, IndexedBitmap::block_bits, f);
    base::throw_if_interrupted();
  }
  // Calls f(t) once on each compute thread t, at once: for work the
  // threads share out themselves (an atomic cursor over vertices whose
  // costs differ widely).
  template <class F>
  void on_every_thread(F&& f) {
    const VertexPhase phase(*this);
    pool_.run(f);
    base::throw_if_interrupted();
  }
  // The sum of f(v) over [0, count), on the compute threads: each adds its
  // piece, then the pieces are added in thread order (the same result for
  // the same thread count). T needs T{} and +=.
  template <class T, class F>
  T parallel_sum(uint64_t count, F&& f) {
    return parallel_sum<T>(0, count, f);
  }
  // The same over [first, last).
  template <class T, class F>
  T parallel_sum(uint64_t first, uint64_t last, F&& f) {
    std::vector<T> pieces(size_t(threads()), T{});
    parallel_for(last - first, [&](int t, uint64_t begin, uint64_t end) {
      T sum{};
      for (uint64_t v = first + begin; v < first + end; ++v) sum += f(v);
      pieces[size_t(t)] = sum;
    });
    T total{};
    for (const T& piece : pieces) total += piece;
    return total;
  }
  // count copies of value, filled on the compute threads: each touches its
  // piece's pages first (a vector filled on one thread faults them all in
  // there, 18 ms per 32 MiB on this machine).
  template <class T>
  base::Array<T> filled_array(uint64_t count, T value, const char* what) {
    return filled(base::Array<T>(count, what), value);
  }
  // The same for an array that every edge reads at random (PageRank's
  // shares): on huge pages (base::Array::random_access); PageRank 10 on
  // RMAT 22 1.08-1.23x faster. Not for arrays written about once per run:
  // BFS's parents on huge pages ran 0.72-0.83x as fast in memory.
  template <class T>
  base::Array<T> filled_random_access_array(uint64_t count, T value, const char* what) {
    return filled(base::Array<T>::random_access(count, what), value);
  }
  // The same for an array the algorithm reads and writes at its own
  // vertices only (the destinations of its gathers, its outputs): on
  // ranks only the own range is filled, and so held; the rest of it must
  // never be read.
  template <class T>
  base::Array<T> filled_owned_array(uint64_t count, T value, const char* what) {
    base::Array<T> array(count, what);
    const uint64_t first = std::min(count, owned_begin()), last = std::min(count, owned_end());
    parallel_for(last - first, [&](int, uint64_t begin, uint64_t end) {
      std::fill(array.data() + first + begin, array.data() + first + end, value);
    });
    return array;
  }
  // `values` converted to U, element by element, on the compute threads.
  template <class U, class T>
  base::Array<U> converted_array(const base::Array<T>& values, const char* what) {
    base::Array<U> array(values.size(), what);
    parallel_for(values.size(), [&](int, uint64_t begin, uint64_t end) { std::copy(values.data() + begin, values.data() + end, array.data() + begin); });
    return array;
  }
  // `array` with every element set to value on the compute threads.
  template <class T>
  base::Array<T> filled(base::Array<T> array, T value) {
    parallel_for(array.size(), [&](int, uint64_t begin, uint64_t end) { std::fill(array.data() + begin, array.data() + end, value); });
    return array;
  }

 private:
  // forward: null, or the engine whose pull side `graph` is (transposed()).
  // buffers_of: null, or the engine whose IO buffers this one reads into.
  Engine(const DiskGraph& graph, const EngineOptions& options, const Engine* forward, const Engine* buffers_of);

  // Times vertex work between EDGEMAPs (EdgeMapStats::vertex_seconds); the
  // outermost one counts, as vertex_map and parallel_sum call parallel_for.
  class VertexPhase {
   public:
    explicit VertexPhase(Engine& engine) : engine_(engine), outermost_(engine.vertex_depth_++ == 0) {}
    ~VertexPhase() {
      --engine_.vertex_depth_;
      if (outermost_) engine_.vertex_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    VertexPhase(const VertexPhase&) = delete;
    VertexPhase& operator=(const VertexPhase&) = delete;

   private:
    Engine& engine_;
    bool outermost_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  };

  // The direction of one EDGEMAP and the chunks it reads; and, when the
  // direction was weighed by cost (functions whose cond always holds, on a
  // frontier that is not every vertex), the edges its time is counted over.
  struct Route {
    Direction direction;
    ChunkPlan plan;
    uint64_t costed_edges = 0;
  };
  template <class Functions>
  Route route(const VertexSubset& frontier, Functions& f, bool pullable, uint64_t first_edges, OpenDestinations* open);
  // The pages of the frontier's out-edges (holding frontier_edges), marked
  // on the compute threads.
  ChunkPlan plan_push(const VertexSubset& frontier, uint64_t frontier_edges);
  // The out-edges of the frontier's members, summed on the compute threads.
  uint64_t out_edges_of(const VertexSubset& frontier);
  // Calls visit(v) for the members of pieces of the frontier, a piece per
  // compute thread, in parallel; each piece's members ascend, and piece t
  // precedes piece t + 1. pieces(t, for_each): for_each(visit) walks thread
  // t's piece. Not timed as a vertex phase: planning uses it too.
  template <class Pieces>
  void for_frontier_pieces(const VertexSubset& frontier, Pieces&& pieces);
  // Marks the destinations whose cond holds in wanted_ and plans their
  // in-edge pages; looks only among `open` once a pull has narrowed it,
  // and narrows it to the destinations found. A committed pull (no push
  // plan weighed against it) queues its reads while it plans, from the
  // drives (reads_while_planning.hpp).
  template <class Functions>
  ChunkPlan plan_pull(Functions& f, OpenDestinations* open, bool committed);
  // The vertices with in-edges on the pull side (counted once).
  uint64_t with_in_edges();
  // The frontier as a bitmap: its own, or the scratch one filled from its ids.
  const IndexedBitmap& bitmap_of(const VertexSubset& frontier);
  void release_bitmap(const VertexSubset& frontier);
  // bitmap_of for the length of a call: the scratch bitmap is empty again
  // after it, whatever happens.
  class FrontierBits {
   public:
    FrontierBits(Engine& engine, const VertexSubset& frontier) : engine_(engine), frontier_(frontier), bits_(engine.bitmap_of(frontier)) {}
    ~FrontierBits() { engine_.release_bitmap(frontier_); }
    FrontierBits(const FrontierBits&) = delete;
    FrontierBits& operator=(const FrontierBits&) = delete;
    const IndexedBitmap& bits() const { return bits_; }

   private:
    Engine& engine_;
    const VertexSubset& frontier_;
    const IndexedBitmap& bits_;
  };
  // Distributed: what was exchanged since the previous EDGEMAP, into stats_.
  void count_communication();
  // A step's record, begun with the vertex work done since the last one.
  void start_stats(uint64_t active_vertices);
  // What `plan` reads of `graph`, and the planning's time since `start`.
  // Gives the page cache's budget (options_.page_cache) to the push side,
  // the pull side or both, in proportion to their edge sets' bytes whole.
  void keep_pages(bool push, bool pull);
  void record_plan(const ChunkPlan& plan, const DiskGraph& graph, Direction direction,
                   std::chrono::steady_clock::time_point start);
  // Completes the value exchanges the algorithm started (RankExchange):
  // called once the EDGEMAP's reads are queued, before any scatter.
  void values_needed() { exchange_->communicator().finish_pending(); }

  template <class Value, class Functions>
  VertexSubset run_edge_map(const VertexSubset& frontier, Functions& f, bool output, uint64_t first_edges, OpenDestinations* open);
  template <class Value, class Functions>
  void push(const VertexSubset& frontier, Functions& f, bool output, bool atomic, uint64_t first_edges, const ChunkPlan& plan);
  // The scatter (and gather) of push over the edges next(error, busy,
  // on_edge) hands each compute thread: binned, or gathered on the spot.
  template <class Value, class Functions, class Next>
  void push_edges(Functions& f, bool output, Next& next);
  template <class Value, class Functions, class Next>
  void push_edges_atomic(Functions& f, bool output, Next& next);
  template <class Value, class Functions>
  void pull(const VertexSubset& frontier, Functions& f, bool output, const ChunkPlan& plan);
  template <class Value, class Format, bool AllActive, class Functions>
  void pull_pages(const IndexedBitmap& active, Functions& f, bool output);
  // for_each_list's walk over the planned pages of `members` vertices,
  // those for which member(v) holds.
  template <class Plan, class Member, class F>
  void walk_lists(uint64_t members, Plan&& plan_pages, Member&& member, F&& f);

  // The bins of the last binning EDGEMAP's value type, kept for the next
  // call: allocating them per call would dominate the short EDGEMAPs of
  // high-diameter graphs.
  template <class Value>
  Bins<Value>& bins();

  const DiskGraph& graph_;
  SingleProcess single_process_;
  std::unique_ptr<RankExchange> exchange_;
  layout::DegreeArray summed_degrees_;  // distributed: the whole graph's out-degrees of the own range
  const layout::DegreeArray* out_degrees_ = nullptr;  // out_degrees_[v - out_degrees_first_] is v's
  uint64_t out_degrees_first_ = 0;
  std::unique_ptr<DiskGraph> reversed_;
  const DiskGraph* pull_graph_ = nullptr;
  FittedOptions fitted_;
  EngineOptions options_;
  MemoryBudget budget_;
  WorkerPool pool_;
  // Shared with a transposed() engine, which has them the other way round.
  std::shared_ptr<PageStream> push_stream_;
  std::shared_ptr<PageStream> pull_stream_;
  bool shares_streams_ = false;  // a transposed() engine's: counted by the other
  std::unique_ptr<const ResidentSample> resident_sample_;  // --io memory with hold_samples: the push side's
  std::unique_ptr<PullCache> pull_cache_;  // with a pull side
  IndexedBitmap scratch_;  // a sparse frontier as a bitmap
  IndexedBitmap wanted_;   // pull: destinations whose cond holds
  NextFrontier next_;
  BinGeometry geometry_;
  std::shared_ptr<void> bins_;
  const std::type_info* bins_type_ = nullptr;
  // Pull: a destination whose in-edges span pages is gathered under one of
  // these (by id), as its pages may reach different threads at once.
  static constexpr size_t split_lock_count = 1024;
  // Pull: how many records ahead of the walk the functions are told to prefetch.
  static constexpr uint64_t prefetch_distance = 64;
  // Pull: how many records ahead the frontier's bit of a source is
  // prefetched (8 and 32 were slower on RMAT 22's BFS).
  static constexpr uint64_t frontier_prefetch_distance = 16;
  // Push: how many bin records ahead of its gather the functions are told
  // to prefetch a destination.
  static constexpr uint32_t gather_prefetch_distance = 16;
  std::unique_ptr<std::mutex[]> split_locks_;
  EdgeMapStats stats_;
  // Seconds an edge of the last push and pull whose direction was weighed
  // by cost (route()), 0 before the first of each.
  double push_edge_seconds_ = 0, pull_edge_seconds_ = 0;
  std::optional<uint64_t> with_in_edges_;
  double vertex_seconds_ = 0;  // vertex work since the last EDGEMAP (VertexPhase)
  int vertex_depth_ = 0;
  std::unique_ptr<Engine> kept_transposed_;  // last: it goes before what it borrows

  void refuse_if_released() const;
};

}  // namespace sluice::engine

#include "engine/edge_map.hpp"
#include "engine/list_walk.hpp"
#include "engine/pull.hpp"
#include "engine/push.hpp"
