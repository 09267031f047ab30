#include "programs/engine_flags.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "base/errors.hpp"
#include "engine/shared_drives.hpp"
#include "programs/symmetry_check.hpp"

namespace sluice::programs {

void add_engine_options(po::options_description& options, const char* skip_default, const char* edgemap_default,
                        const char* edgemap_help, const char* direction_default) {
  add_threads_option(options, "compute threads");
  options.add_options()
    ("io", po::value<std::string>()->default_value("auto"), "IO backend: auto, uring, aio, psync, or memory (the drive files read into DRAM first: the in-memory baseline)");
  if (skip_default) {
    options.add_options()
      ("skip-threshold", po::value<std::string>()->default_value(skip_default),
       "λ: skip inactive gaps of at least this many bytes (0, 64k, inf; \"\": the device profile of `sluice calibrate`, else 64k)");
  }
  options.add_options()
    ("bins", po::value<uint32_t>()->default_value(0), "bins of the binning EDGEMAP (0: one per 8192 vertices, at most 1024)")
    ("bin-space", byte_size_value("0"), "bytes for all bins, e.g. 64m (0: edges x 4 / 20, Blaze's default)")
    ("direction", po::value<std::string>()->default_value(direction_default),
     "EDGEMAP direction: push, pull (over the transpose), or auto (pull when the frontier is dense and the layout has a transpose)")
    ("edgemap", po::value<std::string>()->default_value(edgemap_default), edgemap_help)
    ("pull-cache", po::value<std::string>()->default_value("auto"),
     "bytes for the in-lists a pull leaves open, walked from DRAM by the next pull instead of read again (auto: edges x 4 / 20; 0: off)")
    ("page-cache", byte_size_value("0"), "bytes of edge pages kept in DRAM from one EDGEMAP to the next, e.g. 2g: later EDGEMAPs take those pages from memory and read only the others (0: none; counted in --memory-limit)")
    ("memory-limit", byte_size_value("0"), "bytes the run may hold in DRAM, e.g. 8g (0: the memory available)")
    ("exchange-round", byte_size_value("4m"), "on ranks: the values an exchange between EDGEMAPs holds each way at once, e.g. 64m (more: fewer rounds, each a collective; WCC's label pairs too)")
    ("no-verify-reads", po::bool_switch(), "do not check each page read against its checksum (on by default; costs a few percent, see docs/layout.md)");
}

engine::EngineOptions engine_options_from(const po::variables_map& v, const engine::DiskGraph& graph, std::string* skip_source) {
  engine::EngineOptions o;
  o.threads = threads_option(v);
  try {
    o.direction = parse_direction(v["direction"].as<std::string>());
  } catch (const po::error& e) {
    throw po::error(std::string("--direction: ") + e.what());
  }
  o.bins = v["bins"].as<uint32_t>();
  o.bin_space = v["bin-space"].as<ByteSize>().bytes;
  const std::string edgemap = v["edgemap"].as<std::string>();
  if (edgemap != "both") o.variant = parse_edgemap(edgemap);
  o.io.backend = parse_backend(v["io"].as<std::string>());
  // λ, resolved here once: the flag, else the device's calibration, else
  // the default (0 in memory); the engine takes the value.
  if (v.count("skip-threshold")) {
    const std::string& text = v["skip-threshold"].as<std::string>();
    engine::SkipChoice choice{{}, "--skip-threshold"};
    if (text.empty()) {
      choice = engine::default_skip_threshold(graph, o.io.backend);
    } else {
      try {
        choice.threshold = parse_skip_threshold(text);
      } catch (const po::error& e) {
        throw po::error(std::string("--skip-threshold: ") + e.what());
      }
    }
    o.skip = choice.threshold;
    if (skip_source) *skip_source = choice.source;
  }
  o.memory_limit = v["memory-limit"].as<ByteSize>().bytes;
  o.page_cache = v["page-cache"].as<ByteSize>().bytes;
  o.exchange_round_bytes = v["exchange-round"].as<ByteSize>().bytes;
  if (!o.exchange_round_bytes) throw po::error("--exchange-round must be at least 1 byte");
  if (const std::string cache = v["pull-cache"].as<std::string>(); cache != "auto") {
    try {
      o.pull_cache = parse_byte_size(cache);
    } catch (const po::error&) {
      throw po::error("--pull-cache must be auto or a size in bytes (e.g. 0, 64m), not '" + cache + "'");
    }
  }
  o.verify_reads = !v["no-verify-reads"].as<bool>();
  return o;
}

void add_symmetric_option(po::options_description& options) {
  options.add_options()
    ("symmetric", po::bool_switch(), "the graph stores every edge both ways: use the out-edges where the transpose is needed (a layout converted with --symmetrize records it and needs no flag; on one that does not, the degrees and 1000 random edges are checked first)");
}

ProgramEngines open_program_engines(const std::string& program, const std::string& path, const po::variables_map& v,
                                    Transpose transpose, AlgorithmArrays arrays, engine::Communicator* communicator,
                                    AlgorithmReads reads, const GraphOpened& graph_opened) {
  ProgramEngines e;
  std::optional<layout::RankChoice> rank;
  if (communicator) rank = layout::RankChoice{unsigned(communicator->rank()), unsigned(communicator->size())};
  const bool distributed = communicator && communicator->size() > 1;
  if (distributed && v["symmetric"].as<bool>()) {
    throw po::error("--symmetric does not apply on several ranks: a rank's part holds only the edges into its range");
  }
  e.out_graph = std::make_unique<engine::DiskGraph>(path, false, rank);
  // A layout that records symmetry needs no flag; the flag on one that does
  // not is checked before it is believed.
  e.symmetric = e.out_graph->info().symmetric;
  if (v["symmetric"].as<bool>() && !e.symmetric) {
    e.symmetry_check = check_symmetric(*e.out_graph, threads_option(v));
    e.symmetric = true;
  }
  if (transpose == Transpose::undirected && !e.symmetric) {
    throw po::error(program + " needs an undirected graph: convert with --symmetrize, or pass --symmetric if every edge is "
                              "stored both ways");
  }
  // On ranks the transpose is the transpose graph's part, and a symmetric
  // graph is its own transpose (though a part never pulls over its
  // out-edges: it holds only the edges into its range).
  const bool wanted = opens_transpose(transpose);
  if (wanted && !e.symmetric && distributed) {
    try {
      e.in_graph = std::make_unique<engine::DiskGraph>(path, false, layout::RankChoice{rank->rank, rank->ranks, true});
    } catch (const base::InputError& error) {
      throw base::InputError(path, "", program + " needs the transpose's parts: " + error.what());
    }
  } else if (wanted && !e.symmetric && !e.out_graph->has_reversed()) {
    throw base::InputError(path, "", program +
                                   " needs the transpose: convert with --transpose, or pass --symmetric if the graph "
                                   "stores every edge both ways");
  }
  const layout::DegreeArray* out_degrees = &e.out_graph->degrees();
  if (distributed) {  // summed once, here, for the own range: the parameters and the engine read them
    e.whole_degrees = std::make_unique<layout::DegreeArray>(engine::sum_over_ranks_for_own_range(
        *communicator, *out_degrees, e.out_graph->vertices(), e.out_graph->owned_begin(), e.out_graph->owned_end()));
    out_degrees = e.whole_degrees.get();
  }
  if (graph_opened) graph_opened(*e.out_graph, out_degrees);
  e.options = engine_options_from(v, *e.out_graph, &e.skip_source);
  e.options.symmetric = e.symmetric && !distributed;
  e.options.communicator = communicator;
  if (distributed) {
    // Ranks that share a machine's device share the bytes it has in flight.
    std::vector<std::string> drives = e.out_graph->drive_paths();
    if (e.in_graph) drives.insert(drives.end(), e.in_graph->drive_paths().begin(), e.in_graph->drive_paths().end());
    e.sharing_drives = engine::ranks_sharing_drives(*communicator, drives);
    const engine::DeviceShare share = engine::shared_device(e.options.io.max_request_bytes, e.options.io.queue_depth, e.sharing_drives);
    e.options.io.max_request_bytes = share.request_bytes;
    e.options.io.queue_depth = share.queue_depth;
  }
  const uint64_t owned = e.out_graph->owned_end() - e.out_graph->owned_begin();
  e.options.algorithm_bytes = arrays.bytes.of(e.out_graph->vertices(), owned);
  e.options.algorithm_bytes_least = arrays.least.of(e.out_graph->vertices(), owned);
  e.options.exchanged_value_bytes = arrays.exchanged_value_bytes;
  e.options.hold_samples = reads.samples;
  if (distributed) e.options.whole_out_degrees = out_degrees;
  engine::EngineOptions in_options = e.options;
  e.memory_limit = e.options.memory_limit;
  in_options.algorithm_bytes = in_options.algorithm_bytes_least = 0;  // counted once, in the rank's own part
  in_options.whole_out_degrees = nullptr;  // the transpose's part's out-degrees are the graph's in-degrees
  if (e.in_graph) {
    // One page cache for the run: half to each part's engine.
    in_options.page_cache = e.options.page_cache / 2;
    e.options.page_cache -= in_options.page_cache;
  }
  const bool split_limit = e.in_graph && e.options.memory_limit;
  if (split_limit) {
    // Two engines over two parts, both held through the run: the one limit
    // covers them. What the algorithm's arrays leave gives each its floor,
    // and the rest is split by what each would hold above its floor by
    // default: the rank's own part with the IO buffers that both read
    // into (they never run at once), the transpose's part without. (Split
    // by the defaults alone, the transpose's part, whose floor is most of
    // its default, was refused under limits far above the two floors.)
    const uint64_t limit = e.options.memory_limit;
    const uint64_t left = limit > e.options.algorithm_bytes ? limit - e.options.algorithm_bytes : 0;
    const auto out_reversed = e.out_graph->reversed(), in_reversed = e.in_graph->reversed();  // the layout's, not loaded again
    // A part's engine at its floor, and what it holds above it by default,
    // the algorithm's arrays not counted.
    auto floor_and_above = [](const engine::DiskGraph& graph, const engine::DiskGraph* reversed, const engine::EngineOptions& o,
                              engine::Shared shared) {
      const uint64_t floor = engine::MemoryBudget::least(graph, reversed, o, shared).total() - o.algorithm_bytes;
      return std::pair{floor, engine::MemoryBudget::of(graph, reversed, o, shared).total() - o.algorithm_bytes - floor};
    };
    const auto [own_floor, own_above] = floor_and_above(*e.out_graph, out_reversed.get(), e.options, engine::Shared::nothing);
    const auto [other_floor, other_above] = floor_and_above(*e.in_graph, in_reversed.get(), in_options, engine::Shared::io_buffers);
    uint64_t other_share = 0;
    if (left < own_floor + other_floor) {  // one is refused, naming its share
      other_share = uint64_t(double(left) * double(other_floor) / double(std::max<uint64_t>(1, own_floor + other_floor)));
    } else {
      const uint64_t rest = left - own_floor - other_floor;
      other_share = other_floor + uint64_t(double(rest) * double(other_above) / double(std::max<uint64_t>(1, own_above + other_above)));
    }
    in_options.memory_limit = std::max<uint64_t>(1, other_share);
    e.options.memory_limit = limit - std::min(limit - 1, other_share);
  }
  // A refusal names the share it was fitted to.
  auto share_of_limit = [&](auto&& open) {
    try {
      open();
    } catch (const std::runtime_error& error) {
      if (!split_limit) throw;
      throw std::runtime_error(std::string(error.what()) + "; that is this part's share of --memory-limit " +
                               base::byte_count(e.memory_limit) + ", whose other share the transpose's part takes");
    }
  };
  share_of_limit([&] { e.out = std::make_unique<engine::Engine>(*e.out_graph, e.options); });
  if (e.in_graph) {  // a rank's part of the transpose
    share_of_limit([&] { e.in = std::make_unique<engine::Engine>(*e.in_graph, in_options, *e.out); });
  } else if (wanted && !e.symmetric && !distributed) {
    e.in = e.out->transposed();  // the edge sets opened (and with --io memory loaded) once for both
  }
  // On ranks, Afforest samples its own vertices' lists through the parts'
  // transposed engines (algorithms/wcc_ranks.cpp): made now, --io memory
  // loads their samples before the first trial, as it loads the pages.
  if (distributed && reads.samples) {
    if (e.out->can_pull()) e.out->kept_transposed();
    if (e.in) e.in->kept_transposed();
  }
  const auto ready_start = std::chrono::steady_clock::now();
  e.out->ready_reads(reads.out_edges, reads.in_edges);
  e.ready_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ready_start).count();
  return e;
}

}  // namespace sluice::programs
