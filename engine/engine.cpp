#include "engine/engine.hpp"

#include <cmath>
#include <cstdio>

#include "formats/errors.hpp"
#include "io/device_profile.hpp"

namespace sluice::engine {

namespace {
int compute_threads(int requested) { return requested > 0 ? requested : int(std::max(1u, std::thread::hardware_concurrency())); }
}  // namespace

// Both pools get at least one thread: on 2 cores that is one each, and
// nothing spins, so the IO threads fit beside them.
Engine::Engine(const DiskGraph& graph, const EngineOptions& options)
    : graph_(graph),
      options_(options),
      threads_(std::max(1, int(std::lround(compute_threads(options.threads) * options.scatter_share)))),
      gather_threads_(std::max(1, compute_threads(options.threads) - threads_)),
      drives_(graph.drive_paths(), true, graph.page_bytes()),
      planner_(graph) {
  if (!(options.scatter_share > 0 && options.scatter_share < 1)) {
    throw std::invalid_argument("the scatter share of the threads must be between 0 and 1");
  }
  budget_ = MemoryBudget::of(graph, options_);
  uint64_t limit = options_.memory_limit ? options_.memory_limit : available_memory();
  if (limit && budget_.total() > limit) {
    auto mib = [](uint64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20) + " MiB"; };
    throw std::runtime_error("the vertex state does not fit in memory: needs " + mib(budget_.total()) + " (index " +
                             mib(budget_.index) + ", frontiers " + mib(budget_.frontiers) + ", bins " + mib(budget_.bins) +
                             ", IO buffers " + mib(budget_.io_buffers) + ", algorithm " + mib(budget_.algorithm) +
                             "), the limit is " + mib(limit) + " (--memory-limit)");
  }
  io_ = std::make_unique<io::IoService>(drives_, options_.io);
}

uint32_t bin_count(const DiskGraph& graph, const EngineOptions& options) {
  if (options.bins) return options.bins;
  return uint32_t(std::clamp<uint64_t>((graph.vertices() + 8191) / 8192, 1, 1024));
}

MemoryBudget MemoryBudget::of(const DiskGraph& graph, const EngineOptions& options) {
  MemoryBudget b;
  b.index = graph.memory_bytes() + graph.pages() / 8;  // plus the planner's page bitmaps
  // A frontier in, one out (both possibly dense), and the dense copy EDGEMAP reads.
  b.frontiers = 3 * (graph.vertices() / 8 + 1) + graph.vertices() * 8 / VertexSubset::dense_divisor;
  size_t record = 8 + options.value_bytes;
  const uint64_t bins = bin_count(graph, options);
  // Two buffers per bin, and each scatter thread's small buffer per bin.
  b.bins = 2 * bins * bin_capacity(graph, options, record) * record + uint64_t(compute_threads(options.threads)) * bins * local_bin_records * record;
  unsigned buffers = options.io.buffers ? options.io.buffers : 2 * options.io.queue_depth * graph.drives();
  b.io_buffers = uint64_t(buffers) * options.io.max_request_bytes;
  b.algorithm = options.algorithm_bytes;
  return b;
}

std::string EdgeMapStats::json() const {
  char line[512];
  std::snprintf(line, sizeof(line),
                "{\"active_vertices\":%llu,\"active_pages\":%llu,\"chunks\":%llu,\"bytes_read\":%llu,"
                "\"bytes_skipped\":%llu,\"full_scan\":%s,\"seconds\":%.6f,\"io_seconds\":%.6f,"
                "\"scatter_seconds\":%.6f,\"gather_seconds\":%.6f,\"bandwidth_mb_s\":%.1f}",
                (unsigned long long)active_vertices, (unsigned long long)active_pages, (unsigned long long)requests,
                (unsigned long long)bytes_read, (unsigned long long)bytes_skipped, full_scan ? "true" : "false", seconds,
                io_seconds, scatter_seconds, gather_seconds, bandwidth() / 1e6);
  return line;
}

SkipThreshold resolve_skip_threshold(const std::string& flag, const DiskGraph& graph, std::string* source) {
  if (!flag.empty()) {
    if (source) *source = "--skip-threshold";
    return SkipThreshold::parse(flag);
  }
  io::DriveFile first(graph.drive_paths().at(0), false);
  std::string path = io::default_profile_path(first.device());
  if (auto profile = io::DeviceProfile::load(path)) {
    if (source) *source = path;
    return {profile->skip_threshold, false};
  }
  if (source) *source = "default";
  return {64 << 10, false};
}

Engine::~Engine() = default;

}  // namespace sluice::engine
