#include "engine/engine.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

#include "base/errors.hpp"
#include "base/thread_count.hpp"
#include "io/device_profile.hpp"

namespace sluice::engine {

namespace {
// 0: every core (base::resolve_threads: OMP_NUM_THREADS when set, as for
// every layer); capped and checked as every thread count.
int compute_threads(int requested) {
  return base::resolve_threads(requested, "compute threads");
}

std::unique_ptr<DiskGraph> reversed_of(const DiskGraph& graph, const EngineOptions& options) {
  return options.symmetric ? nullptr : graph.reversed();
}
// Whether an engine over `graph` holds its sample file in memory.
bool holds_sample(const DiskGraph& graph, const EngineOptions& options) {
  return options.hold_samples && options.io.backend == io::BackendKind::memory && graph.edge_set().sample();
}
}  // namespace

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::automatic: return "auto";
    case Direction::push: return "push";
    case Direction::pull: return "pull";
  }
  return "?";
}

Engine::Engine(const DiskGraph& graph, const EngineOptions& options) : Engine(graph, options, nullptr, nullptr) {}

Engine::Engine(const DiskGraph& graph, const EngineOptions& options, const Engine& buffers_of)
    : Engine(graph, options, nullptr, &buffers_of) {}

Engine::Engine(const DiskGraph& graph, const EngineOptions& options, const Engine* forward, const Engine* buffers_of)
    : graph_(graph),
      exchange_(std::make_unique<RankExchange>(options.communicator ? *options.communicator : single_process_, graph.vertices(),
                                               graph.owned_begin(), graph.owned_end(), graph.degrees(),
                                               options.exchange_round_bytes)),
      reversed_(forward ? nullptr : reversed_of(graph, options)),
      pull_graph_(forward ? &forward->graph_ : options.symmetric ? &graph : reversed_.get()),
      fitted_(fit_to_memory(graph, pull_graph_, options,
                            forward ? Shared::edge_sets : buffers_of ? Shared::io_buffers : Shared::nothing)),
      options_(fitted_.options),
      budget_(fitted_.budget),
      pool_(compute_threads(options.threads)),
      scratch_(graph.vertices()),
      wanted_(pull_graph_ ? graph.vertices() : 0),
      next_(graph.vertices(), compute_threads(options.threads)),
      geometry_(BinGeometry::of(graph.vertices(), bin_count(graph, options))),
      split_locks_(std::make_unique<std::mutex[]>(split_lock_count)) {
  if (options.pull_divisor == 0) throw std::invalid_argument("the pull divisor must be at least 1");
  if (distributed() && options.symmetric) {
    throw std::invalid_argument("a rank's part holds only the edges into its range: it cannot pull over its out-edges (--symmetric)");
  }
  out_degrees_ = &graph.degrees();
  if (distributed()) {  // the whole graph's, for the own range alone
    if (!options.whole_out_degrees) {
      summed_degrees_ = sum_over_ranks_for_own_range(exchange_->communicator(), graph.degrees(), graph.vertices(), graph.owned_begin(),
                                                     graph.owned_end());
    }
    out_degrees_ = options.whole_out_degrees ? options.whole_out_degrees : &summed_degrees_;
    out_degrees_first_ = graph.owned_begin();
  }
  if (!options_.skip) options_.skip = default_skip_threshold(graph, options_.io.backend).threshold;
  if (forward) {
    shares_streams_ = true;
    push_stream_ = forward->pull_stream_;
    pull_stream_ = forward->push_stream_;
  } else {
    // Reading into buffers_of's IO buffers, side by side (each side keeps
    // its own: one set for both sides was 1.3x slower on PageRank from the
    // drives, RMAT 22, medians of 8 alternating runs); without a pull side
    // there, its push side's, as the two never read at once.
    std::shared_ptr<io::BufferPool> push_buffers, pull_buffers;
    if (options_.io.backend != io::BackendKind::memory && buffers_of) {
      push_buffers = buffers_of->push_stream_->io_buffers();
      if (!push_buffers) {
        throw std::invalid_argument("an engine that reads from drives cannot share the IO buffers of one that reads from memory");
      }
      pull_buffers = buffers_of->pull_stream_ ? buffers_of->pull_stream_->io_buffers() : push_buffers;
    }
    // Both sides opened now, not at their first EDGEMAP: --io memory loads
    // the drive files here, outside any EDGEMAP's time.
    push_stream_ = std::make_shared<PageStream>(graph, options_.io, threads(), options_.verify_reads, nullptr, std::move(push_buffers));
    if (pull_graph_) {
      // A symmetric graph pulls over its own out-edges: in memory, the same pages.
      pull_stream_ = std::make_shared<PageStream>(*pull_graph_, options_.io, threads(), options_.verify_reads,
                                                  pull_graph_ == &graph ? push_stream_.get() : nullptr, std::move(pull_buffers));
    }
  }
  if (!forward) keep_pages(true, pull_graph_ != nullptr);
  if (pull_graph_) pull_cache_ = std::make_unique<PullCache>(graph.vertices(), threads(), pull_cache_bytes(graph, options_));
  if (holds_sample(graph, options_)) resident_sample_ = std::make_unique<const ResidentSample>(*graph.edge_set().sample(), pool_);
}

std::unique_ptr<Engine> Engine::transposed() {
  if (!reversed_) throw std::logic_error("Engine::transposed: the engine has no transpose of its own (a symmetric graph, or none)");
  EngineOptions options = options_;
  options.algorithm_bytes = options.algorithm_bytes_least = 0;  // counted once, here
  options.communicator = nullptr;  // on ranks: the part's CSC, run as one process
  options.whole_out_degrees = nullptr;
  return std::unique_ptr<Engine>(new Engine(*reversed_, options, this, nullptr));
}

void Engine::ready_reads(bool out_edges, bool in_edges) {
  const bool pulls = in_edges && can_pull() && options_.direction != Direction::push;
  // Without a pull side, the in-edges' work pushes over the out-edges.
  const bool pushes = (out_edges || (in_edges && !can_pull())) && (!can_pull() || options_.direction != Direction::pull);
  if (pushes && push_stream_) push_stream_->ready_reads();
  if (pulls && pull_stream_) pull_stream_->ready_reads();
  // The page cache to the sides that will read (the algorithm says which).
  if (!shares_streams_ && (pushes || pulls)) keep_pages(pushes, pulls);
}

void Engine::keep_pages(bool push, bool pull) {
  if (!options_.page_cache) return;
  auto bytes = [](const std::shared_ptr<PageStream>& stream) { return stream ? whole_page_cache_bytes(stream->graph()) : uint64_t(0); };
  const uint64_t push_bytes = push ? bytes(push_stream_) : 0, pull_bytes = pull ? bytes(pull_stream_) : 0;
  const uint64_t both = push_bytes + pull_bytes;
  if (both == 0) return;
  // In proportion to what each set takes whole: a budget that holds both
  // holds each.
  const uint64_t to_push = uint64_t(double(options_.page_cache) * double(push_bytes) / double(both));
  push_stream_->keep_pages(to_push);
  if (pull_stream_) pull_stream_->keep_pages(pull ? options_.page_cache - to_push : 0);
}

Engine& Engine::kept_transposed() {
  if (!kept_transposed_) kept_transposed_ = transposed();
  return *kept_transposed_;
}

Engine::~Engine() = default;

void Engine::release_buffers() {
  if (kept_transposed_) kept_transposed_->release_buffers();
  push_stream_.reset();
  pull_stream_.reset();
  pull_cache_.reset();
  resident_sample_.reset();
  bins_.reset();
  bins_type_ = nullptr;
}

void Engine::refuse_if_released() const {
  if (!push_stream_) throw std::logic_error("an EDGEMAP after the engine's buffers were released (Engine::release_buffers)");
}

uint64_t Engine::with_in_edges() {
  if (!with_in_edges_) {
    std::atomic<uint64_t> count{0};
    const layout::DegreeArray::Reader degrees = pull_graph_->degrees().reader();
    pool_.parallel_for(pull_graph_->vertices(), 1, [&](int, uint64_t begin, uint64_t end) {
      uint64_t c = 0;
      for (uint64_t v = begin; v < end; ++v) c += degrees[v] != 0;
      count += c;
    });
    with_in_edges_ = count.load();
  }
  return *with_in_edges_;
}

const IndexedBitmap& Engine::bitmap_of(const VertexSubset& frontier) {
  if (const IndexedBitmap* bits = frontier.bitmap()) return *bits;
  for (uint64_t v : frontier.ids()) scratch_.set(v);
  return scratch_;
}

void Engine::release_bitmap(const VertexSubset& frontier) {
  if (frontier.bitmap()) return;
  for (uint64_t v : frontier.ids()) scratch_.reset(v);
  scratch_.clear_index();
}

void Engine::end_exchange_step() {
  start_stats(0);
  count_communication();
}

void Engine::start_stats(uint64_t active_vertices) {
  stats_ = {};
  stats_.vertex_seconds = vertex_seconds_;
  vertex_seconds_ = 0;
  stats_.active_vertices = active_vertices;
}

void Engine::record_plan(const ChunkPlan& plan, const DiskGraph& graph, Direction direction,
                         std::chrono::steady_clock::time_point start) {
  stats_.plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats_.direction = direction;
  stats_.full_scan = plan.full_scan;
  stats_.active_pages = plan.active_pages;
  stats_.requests = plan.requests();
  stats_.cached_pages = plan.cached.size();
  stats_.bytes_read = plan.read_pages * graph.page_bytes();
  stats_.bytes_skipped = (graph.pages() - plan.read_pages) * graph.page_bytes();
}

void Engine::count_communication() {
  if (!distributed()) return;
  const CommunicationCounters step = exchange_->communicator().take_step();
  stats_.rank = exchange_->communicator().rank();
  stats_.sent_bytes = step.sent_bytes;
  stats_.received_bytes = step.received_bytes;
  stats_.frontier_sent_bytes = step.frontier_sent_bytes;
  stats_.frontier_received_bytes = step.frontier_received_bytes;
  stats_.collectives = step.collectives;
  stats_.comm_seconds = step.seconds;
}

namespace {
// Blaze's default bin space, which the pull cache takes too: |E| x 4 / 20
// bytes, at least 1 MiB.
uint64_t blaze_space(const DiskGraph& graph) { return std::max<uint64_t>(uint64_t(1) << 20, graph.edges() * 4 / 20); }
}  // namespace

uint64_t bin_space_bytes(const DiskGraph& graph, const EngineOptions& options) {
  return options.bin_space ? options.bin_space : blaze_space(graph);
}

uint64_t pull_cache_bytes(const DiskGraph& graph, const EngineOptions& options) {
  if (options.pull_cache) return *options.pull_cache;
  // In memory too: the cache packs the lists left open, where the next
  // pull would walk every page holding one of them (BFS on RMAT 22 in
  // memory 0.104-0.116 s with it, 0.119-0.133 s without).
  return blaze_space(graph);
}

uint32_t bin_count(const DiskGraph& graph, const EngineOptions& options) {
  if (options.bins) return options.bins;
  return uint32_t(std::clamp<uint64_t>((graph.vertices() + 8191) / 8192, 1, 1024));
}

namespace {
// What the open graphs hold already: their indexes and a relabelled
// layout's id map.
uint64_t loaded_bytes(const DiskGraph& graph, const DiskGraph* reversed) {
  return graph.memory_bytes() + graph.layout().ids().memory_bytes() + (reversed && reversed != &graph ? reversed->memory_bytes() : 0);
}
}  // namespace

MemoryBudget MemoryBudget::of(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options, Shared shared) {
  MemoryBudget b;
  const int threads = compute_threads(options.threads);
  const uint64_t n = graph.vertices();
  // The indexes and the id map, and the planner's page bitmaps.
  b.index = loaded_bytes(graph, reversed) + graph.pages() / 8;
  // A frontier in, one out (both possibly dense), the scratch bitmap and
  // the next frontier's, and pull's destinations.
  b.frontiers = 4 * (n / 8 + 1) + n * 8 / VertexSubset::dense_divisor;
  // From the drives, IO buffers (none where another engine's are read
  // into); in memory, the drive files themselves.
  const bool resident = options.io.backend == io::BackendKind::memory;
  auto edge_bytes = [&](const DiskGraph& g) -> uint64_t {
    // Compressed pages are held decoded, a record an edge (resident_pages.hpp).
    const uint64_t held = g.compressed() ? g.edges() * g.record_bytes() : g.pages() * g.page_bytes();
    if (resident) return held;
    return shared == Shared::nothing ? uint64_t(io_buffers_for(g, options.io)) * options.io.max_request_bytes : 0;
  };
  b.io_buffers = edge_bytes(graph);
  if (reversed) {
    if (reversed != &graph) b.index += reversed->pages() / 8;
    // Pull's destinations, and those a run's pulls keep open (OpenDestinations).
    b.frontiers += 2 * (n / 8 + 1);
    if (reversed != &graph || !resident) b.io_buffers += edge_bytes(*reversed);
    b.pull_cache = PullCache::memory_bytes(n, pull_cache_bytes(graph, options));
  }
  const BinGeometry geometry = BinGeometry::of(n, bin_count(graph, options));
  const uint64_t space = bin_space_bytes(graph, options);
  const uint64_t block_bytes = 16 + BinBlock<char>::capacity * (4 + uint64_t(options.value_bytes));
  b.bins = std::max(space, Bins<char>::min_blocks(geometry, threads) * block_bytes);
  b.algorithm = options.algorithm_bytes;
  if (options.communicator && options.communicator->size() > 1) {
    // The whole graph's out-degrees (summed here, or by the caller), the mirrors'
    // bitmap and each other rank's bitmap of the own range it reads, and
    // one exchange in flight: a round of values received (one for each
    // mirror at most) and one sent (the read pairs, counted only once the
    // ranks have met; on average as many as the mirrors), and for an
    // exchange of a frontier's values, which mirrors they land on (ids or
    // a bitmap, whichever is fewer bytes).
    const uint64_t begin = graph.owned_begin(), end = graph.owned_end();
    const layout::DegreeArray::Reader degrees = graph.degrees().reader();
    uint64_t mirrors = 0;
    for (uint64_t u = 0; u < n; ++u) mirrors += (u < begin || u >= end) && degrees[u];
    const uint64_t others = uint64_t(options.communicator->size() - 1);
    const uint64_t bitmap = n / 8 + n / 512;
    const uint64_t value = options.exchanged_value_bytes;
    b.exchange = (end - begin) * 5 / 4 + bitmap + others * (end - begin) / 8;  // degrees: a byte and a block (degree_array.hpp)
    const uint64_t round = RankExchange::round_bound(value, options.communicator->size(), options.exchange_round_bytes);
    if (value) b.exchange += 2 * std::min(mirrors * value, round) + std::min(mirrors * 8, bitmap);
  }
  // At most the budget, whichever sets it goes to (none in memory, none
  // of its own for an engine over another's edge sets).
  if (!resident && shared != Shared::edge_sets && options.page_cache) {
    // A symmetric graph pulls through a stream of its own, with a cache of its own.
    const uint64_t whole = whole_page_cache_bytes(graph) + (reversed ? whole_page_cache_bytes(*reversed) : 0);
    b.page_cache = std::min(options.page_cache, whole);
  }
  if (shared == Shared::edge_sets) b.index = b.io_buffers = 0;
  if (holds_sample(graph, options)) b.io_buffers += graph.edge_set().sample()->body_bytes();
  return b;
}

namespace {

// The options with each part the caller left unset at its floor: IO
// buffers from the drives to memory_floor_buffers_per_drive a drive, the
// bins to their fewest blocks, no pull cache.
EngineOptions least_options(const DiskGraph& graph, const EngineOptions& options) {
  EngineOptions least = options;
  if (!options.io.buffers && options.io.backend != io::BackendKind::memory) {
    least.io.buffers = std::min(io_buffers_for(graph, options.io), memory_floor_buffers_per_drive * graph.drives());
  }
  if (!options.bin_space) least.bin_space = 1;  // the bins' fewest blocks (MemoryBudget::of takes the larger)
  if (!options.pull_cache) least.pull_cache = 0;
  return least;
}

}  // namespace

MemoryBudget MemoryBudget::least(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options, Shared shared) {
  return of(graph, reversed, least_options(graph, options), shared);
}

namespace {

FittedOptions fit_arrays_to_memory(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options,
                                   Shared shared) {
  FittedOptions fitted{options, {}, MemoryBudget::of(graph, reversed, options, shared), {}, 0};
  fitted.budget = fitted.wanted;
  // Without a limit given, what is available less what the process
  // itself takes beyond the budget's parts (its threads' stacks, the
  // rings, the runtime: 16 MiB), which a memory cgroup would count.
  constexpr uint64_t process_reserve = uint64_t(16) << 20;
  fitted.limit = options.memory_limit;
  if (!fitted.limit) {
    // The indexes and the id map are loaded already: what is available
    // now is what they left, and the budget counts them again, so they
    // are given back.
    // (RMAT 26's 608 MiB index under a 2 GiB memory cgroup had BFS refused.)
    const uint64_t available = base::available_memory(shared == Shared::edge_sets ? 0 : loaded_bytes(graph, reversed));
    fitted.limit = available > process_reserve ? available - process_reserve : available;
  }
  if (!fitted.limit || fitted.wanted.total() <= fitted.limit) return fitted;
  // The least each part the caller left unset can run with.
  const bool cut_buffers = !options.io.buffers && options.io.backend != io::BackendKind::memory;
  const unsigned wanted_buffers = io_buffers_for(graph, options.io);
  const uint64_t wanted_cache = reversed ? pull_cache_bytes(graph, options) : 0;
  const EngineOptions least = least_options(graph, options);
  const unsigned floor_buffers = cut_buffers ? least.io.buffers : wanted_buffers;
  fitted.floor = MemoryBudget::of(graph, reversed, least, shared);
  const auto& size = base::byte_count;
  auto parts = [&](const MemoryBudget& b) {
    return "index " + size(b.index) + ", frontiers " + size(b.frontiers) + ", bins " + size(b.bins) +
           (options.io.backend == io::BackendKind::memory ? ", edges in memory " : ", IO buffers ") + size(b.io_buffers) +
           ", pull cache " + size(b.pull_cache) + (b.page_cache ? ", page cache " + size(b.page_cache) : std::string()) +
           ", algorithm " + size(b.algorithm) +
           (b.exchange ? ", exchange " + size(b.exchange) : std::string());
  };
  if (fitted.floor.total() > fitted.limit) {
    throw MemoryRefused("the vertex state does not fit in memory: needs at least " + size(fitted.floor.total()) + " (" +
                             parts(fitted.floor) + "), the limit is " + size(fitted.limit) +
                             (options.memory_limit ? " (the memory limit asked for)" : " (the memory available)"));
  }
  // Each part keeps its floor, and the room above the floors goes in
  // three steps, each taken whole before the next begins:
  //   1. IO buffers up to the queue depth a drive: fewer leave the drives
  //      idle between requests;
  //   2. the pull cache: what it holds is read again when it is cut (BFS
  //      on RMAT 26 under 2 GiB read 6,266 MB with 60% of it, 3,903 MB
  //      with all of it, as uncapped);
  //   3. the rest of the IO buffers (the consumers') and the bins, each
  //      the same share of what it would get beyond the steps before:
  //      they cost time only.
  const unsigned depth_buffers = std::clamp(options.io.queue_depth * graph.drives(), floor_buffers, wanted_buffers);
  auto between = [](double part, uint64_t least_value, uint64_t wanted_value) {
    return least_value + uint64_t(part * double(wanted_value - least_value));
  };
  EngineOptions& cut = fitted.options;
  cut = least;
  uint64_t room = fitted.limit - fitted.floor.total();
  // Gives the step from budget `from` to budget `to` what room is left,
  // and returns the share of the step that was.
  auto step = [&](const MemoryBudget& from, const MemoryBudget& to) {
    const uint64_t above = to.total() - from.total();
    const uint64_t given = std::min(room, above);
    room -= given;
    return above ? double(given) / double(above) : 1.0;
  };
  EngineOptions deep = least;
  if (cut_buffers) deep.io.buffers = depth_buffers;
  const MemoryBudget deep_budget = MemoryBudget::of(graph, reversed, deep, shared);
  if (cut_buffers) cut.io.buffers = unsigned(between(step(fitted.floor, deep_budget), floor_buffers, depth_buffers));
  EngineOptions cached = deep;
  if (!options.pull_cache) cached.pull_cache = wanted_cache;
  const MemoryBudget cached_budget = MemoryBudget::of(graph, reversed, cached, shared);
  if (!options.pull_cache) cut.pull_cache = between(step(deep_budget, cached_budget), 0, wanted_cache);
  const double share = step(cached_budget, fitted.wanted);
  if (cut_buffers && cut.io.buffers == depth_buffers) cut.io.buffers = unsigned(between(share, depth_buffers, wanted_buffers));
  if (!options.bin_space) cut.bin_space = std::max<uint64_t>(1, between(share, fitted.floor.bins, fitted.wanted.bins));
  fitted.budget = MemoryBudget::of(graph, reversed, cut, shared);
  if (fitted.budget.total() > fitted.limit) {  // rounding: take the floor
    cut = least;
    fitted.budget = fitted.floor;
  }
  return fitted;
}

}  // namespace

FittedOptions fit_to_memory(const DiskGraph& graph, const DiskGraph* reversed, const EngineOptions& options, Shared shared) {
  try {
    return fit_arrays_to_memory(graph, reversed, options, shared);
  } catch (const MemoryRefused&) {
    if (!options.algorithm_bytes_least || options.algorithm_bytes_least >= options.algorithm_bytes) throw;
    EngineOptions least = options;
    least.algorithm_bytes = options.algorithm_bytes_least;
    FittedOptions fitted = fit_arrays_to_memory(graph, reversed, least, shared);
    fitted.least_arrays = true;
    return fitted;
  }
}

std::optional<DeviceCalibration> calibration_of(const DiskGraph& graph) {
  const uint64_t device = io::DriveFile(graph.drive_paths().at(0), false).device();
  std::string path = io::default_profile_path(device);
  auto profile = io::DeviceProfile::load(path);
  if (!profile) return std::nullopt;
  return DeviceCalibration{*profile, path, device};
}

SkipChoice default_skip_threshold(const DiskGraph& graph, io::BackendKind backend) {
  if (backend == io::BackendKind::memory) return {SkipThreshold::of(0), "in memory: no request to save"};
  if (auto calibration = calibration_of(graph)) return {SkipThreshold::of(calibration->profile.skip_threshold), calibration->path};
  return {SkipThreshold::of(64 << 10), "default"};
}

ChunkPlan Engine::plan_push(const VertexSubset& frontier, uint64_t frontier_edges) {
  ChunkPlanner& planner = push_stream_->planner();
  const SkipThreshold& skip = *options_.skip;
  planner.clear_marks();
  if (planner.scans_fully(skip, frontier_edges)) return planner.plan_marked(skip, frontier_edges);
  // Each piece's members ascend, and so do their pages: a list is looked
  // up in full, but marks only the pages past those its piece marked.
  // (On one thread, the 267 K sources of a late RMAT 22 BFS level took 8 ms.)
  for_frontier_pieces(frontier, [&](int, auto&& for_each_member) {
    uint64_t unmarked = 0;  // the first page this piece has not marked
    for_each_member([&](uint64_t v) {
      uint64_t first, last;
      if (!graph_.page_range(v, first, last) || last < unmarked) return;
      planner.mark(std::max(first, unmarked), last);
      unmarked = last + 1;
    });
  });
  return planner.plan_marked(skip, frontier_edges);
}

uint64_t Engine::out_edges_of(const VertexSubset& frontier) {
  const layout::DegreeArray::Reader degrees = graph_.degrees().reader();
  std::atomic<uint64_t> edges{0};
  for_frontier_pieces(frontier, [&](int, auto&& for_each_member) {
    uint64_t piece = 0;
    for_each_member([&](uint64_t v) { piece += degrees[v]; });
    edges += piece;
  });
  return edges.load();
}

}  // namespace sluice::engine
