#include "programs/algorithm_run.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <sys/sysmacros.h>

#include "base/launcher.hpp"
#include "io/drive_set.hpp"
#include "layout/manifest.hpp"

namespace sluice::programs {

void add_program_options(po::options_description& options, const char* output_help, bool verifies) {
  options.add_options()
    ("graph,f", po::value<std::string>()->required(), "graph in sluice's layout (NAME.sluice, from `sluice convert`); -f GRAPH as GAPBS takes it");
  if (verifies) {
    options.add_options()
      ("verify,v", po::bool_switch(), "check the result independently, as GAPBS's -v: the graph read again in one plain pass (a BFS tree check, every edge's components, PageRank's residual, SSSP's and k-core's conditions, SpMV recomputed)");
  }
  add_symmetric_option(options);
  options.add_options()
    ("stats", po::value<std::string>()->default_value(""), "write the run's statistics to this file as JSON lines (a run record, one per EDGEMAP, one summary per trial)")
    ("trials,n", po::value<unsigned>()->default_value(1), "run the algorithm this many times: each trial's summary, then the median and GAPBS's \"Average Time\" line (GAPBS's -n)");
  add_output_options(options, output_help);
  add_engine_options(options);
}

namespace {

// "2026-11-25T09:20:31Z"
std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// The device (MAJOR:MINOR of its file system) of every drive file.
std::vector<std::string> drive_devices(const engine::DiskGraph& graph) {
  std::vector<std::string> devices;
  for (const std::string& path : graph.drive_paths()) {
    const dev_t device = dev_t(io::DriveFile(path, false).device());
    devices.push_back(std::to_string(major(device)) + ":" + std::to_string(minor(device)));
  }
  return devices;
}

}  // namespace

AlgorithmRun::AlgorithmRun(const char* name, const po::variables_map& v, Transpose transpose, AlgorithmArrays arrays,
                           engine::Communicator* communicator, AlgorithmReads reads, const GraphOpened& graph_opened)
    : communicator_(communicator),
      name_(name),
      path_(v["graph"].as<std::string>()),
      outputs_(v, layout::sluice_layout_files(path_)),
      stats_path_(v["stats"].as<std::string>()),
      values_(v) {
  trials_ = v["trials"].as<unsigned>();
  if (trials_ == 0) throw po::error("--trials must be at least 1");
  auto opened = [&](const engine::DiskGraph& graph, const layout::DegreeArray* out_degrees) {
    const unsigned asked = graph_opened ? graph_opened(graph, out_degrees, outputs_) : 0;
    if (asked == 0) return;
    if (!v["trials"].defaulted() && trials_ != asked) {
      throw po::error("--source lists " + std::to_string(asked) + " vertices, one per trial, and --trials asks for " +
                      std::to_string(trials_));
    }
    trials_ = asked;
  };
  engines_ = open_program_engines(name, path_, v, transpose, arrays, communicator, reads, opened);
  const engine::DiskGraph& graph = *engines_.out_graph;
  // On ranks the transpose's part has an engine of its own, fitted to its
  // share of the limit: its memory counts too.
  const engine::FittedOptions* also = engines_.in_graph ? &engines_.in->fitted() : nullptr;
  const uint64_t memory_limit = engines_.memory_limit;
  outputs_.name_vertices_by(&graph.layout().ids());
  // Each rank writes the share of every output its own range spans.
  if (distributed()) outputs_.write_by_ranks(*communicator, out().ranks().owned_begin(), out().ranks().owned_end());
  const engine::EngineOptions& options = engines_.options;
  const std::string& skip_source = engines_.skip_source;
  const bool symmetric = engines_.symmetric;
  trace_ = std::make_unique<algorithms::RunTrace>(name, stats_path_.empty() ? nullptr : &stats_);
  trace_->show_progress(leader());  // on a terminal only
  if (distributed()) trace_->set_rank(communicator->rank());
  // What produced the statistics, and where and when: the first record of
  // --stats, so that a stats file found later says where it came from.
  nlohmann::ordered_json run = {
      {"record", "run"}, {"sluice", SLUICE_VERSION}, {"algorithm", name}, {"graph", path_},
      {"started", utc_now()}, {"host", base::host_name()}, {"command_line", invocation()},
      {"vertices", graph.vertices()}, {"edges", graph.edges()}, {"weighted", graph.info().weighted},
      {"drives", graph.drives()}, {"drive_files", graph.drive_paths()}, {"drive_devices", drive_devices(graph)},
      {"pages", graph.compressed() ? "compressed" : "plain"},
      {"transpose", graph.layout().in() != nullptr}, {"symmetric", symmetric},
      {"symmetric_source", !engines_.symmetry_check.empty() ? "checked: " + engines_.symmetry_check
                                                             : graph.info().symmetric ? std::string("layout") : std::string("no")},
      {"relabelled", !graph.layout().ids().empty()},
      {"threads", out().threads()},
      {"backend", out().backend_name()}, {"direction", engine::direction_name(options.direction)},
      {"edgemap", options.variant == engine::EdgeMapVariant::binning ? "binning" : "atomic"},
      {"skip_threshold", options.skip->infinite ? nlohmann::ordered_json("inf") : nlohmann::ordered_json(options.skip->bytes)},
      {"skip_threshold_source", skip_source}, {"verify_reads", options.verify_reads},
      {"bins", engine::bin_count(graph, options)}, {"memory_limit", memory_limit}, {"trials", trials_},
      {"load_seconds", load_seconds()}, {"io_ready_seconds", engines_.ready_seconds}};
  if (distributed()) {
    // The first rank's part is described above; the whole graph's edges here.
    run["ranks"] = communicator->size();
    run["edges"] = communicator->sum(graph.edges());
    run["part"] = graph.layout().path();
    run["request_bytes"] = options.io.max_request_bytes;  // at most; with the queue depth, this rank's share (engine/shared_drives.hpp)
    run["queue_depth"] = options.io.queue_depth;
    run["ranks_sharing_drives"] = engines_.sharing_drives;
  }
  const engine::FittedOptions& fitted = out().fitted();
  // Both engines' parts, where the transpose's part has one of its own.
  auto both = [&](engine::MemoryBudget engine::FittedOptions::* which) {
    engine::MemoryBudget b{};
    for (const engine::FittedOptions* f : {&fitted, also}) {
      if (f) b += which == &engine::FittedOptions::floor && !f->cut() ? f->budget : f->*which;
    }
    return b;
  };
  const engine::MemoryBudget held = both(&engine::FittedOptions::budget), wanted = both(&engine::FittedOptions::wanted),
                             floor = both(&engine::FittedOptions::floor);
  const uint64_t limit = memory_limit ? memory_limit : fitted.limit;
  auto parts = [](const engine::MemoryBudget& b) {
    return nlohmann::ordered_json{{"index", b.index}, {"frontiers", b.frontiers}, {"bins", b.bins}, {"io_buffers", b.io_buffers},
                                  {"pull_cache", b.pull_cache}, {"page_cache", b.page_cache}, {"algorithm", b.algorithm},
                                  {"exchange", b.exchange}, {"total", b.total()}};
  };
  run["memory"] = {{"limit", limit}, {"held", parts(held)}, {"by_default", parts(wanted)}, {"floor", parts(floor)}};
  if (distributed()) {
    trial_start_ = communicator->counters();
    communicator->take_step();  // the trial's first step counts from here
  }
  run_record_ = run.dump();
  run_record_.pop_back();  // the parameters follow
  if (!leader()) return;
  const std::string ranks = distributed() ? " on " + std::to_string(communicator->size()) + " ranks" : "";
  std::fprintf(stderr, "%s %s%s: %llu vertices, %llu edges, %u drive(s)%s, %s EDGEMAP, direction %s, skip threshold %s (%s)\n",
               name, path_.c_str(), ranks.c_str(), (unsigned long long)graph.vertices(), (unsigned long long)run["edges"].get<uint64_t>(),
               graph.drives(), graph.layout().in() ? " + transpose" : "",
               options.variant == engine::EdgeMapVariant::binning ? "binning" : "atomic",
               engine::direction_name(options.direction), options.skip->text().c_str(), skip_source.c_str());
  if (held.total() < wanted.total()) {
    const auto& size = base::byte_count;
    std::fprintf(stderr, "%s: fitted to %s of memory: IO buffers %s (%s by default), bins %s (%s), pull cache %s (%s); at least %s needed\n",
                 name, size(limit).c_str(), size(held.io_buffers).c_str(), size(wanted.io_buffers).c_str(), size(held.bins).c_str(),
                 size(wanted.bins).c_str(), size(held.pull_cache).c_str(), size(wanted.pull_cache).c_str(), size(floor.total()).c_str());
  }
  if (load_seconds() > 0) {
    std::fprintf(stderr, "%s: the graph's edges loaded into memory in %.3f s (%s), before any trial\n", name, load_seconds(),
                 base::byte_count(engines_.out->budget().io_buffers + (engines_.in ? engines_.in->budget().io_buffers : 0)).c_str());
  }
  if (!engines_.symmetry_check.empty()) {
    std::fprintf(stderr, "%s: --symmetric on a layout that does not record it: checked %s\n", name, engines_.symmetry_check.c_str());
  }
  if (options.direction != engine::Direction::push && !out().can_pull()) {
    std::fprintf(stderr, "%s: %s has no transpose: every EDGEMAP pushes (convert with --transpose, or pass --symmetric, to pull)\n",
                 name, path_.c_str());
  }
}

void AlgorithmRun::parameter(const std::string& name, double value) { parameters_.emplace_back(name, nlohmann::json(value).dump()); }
void AlgorithmRun::parameter(const std::string& name, uint64_t value) { parameters_.emplace_back(name, nlohmann::json(value).dump()); }
void AlgorithmRun::parameter(const std::string& name, const std::string& value) {
  parameters_.emplace_back(name, nlohmann::json(value).dump());
}

void AlgorithmRun::parameter(const std::string& name, bool value) { parameters_.emplace_back(name, value ? "true" : "false"); }

void AlgorithmRun::parameters(const NamedScalars& values) {
  for (const auto& named : values) std::visit([&](const auto& v) { parameter(named.first, v); }, named.second);
}

void AlgorithmRun::print_summary(double seconds, uint64_t iterations, const std::string& digest) {
  summarize(seconds, iterations, digest, nlohmann::ordered_json::object());
}

void AlgorithmRun::print_summary(const AlgorithmResult& result) { print_summary(result, result.counts); }

void AlgorithmRun::print_summary(const AlgorithmResult& result, const NamedScalars& shown_counts) {
  nlohmann::ordered_json counts = nlohmann::ordered_json::object();
  for (const auto& named : shown_counts) std::visit([&](const auto& v) { counts[named.first] = v; }, named.second);
  summarize(result.seconds, result.iterations, result.digest, counts);
  if (!leader()) return;
  for (const std::string& warning : result.warnings) std::fprintf(stderr, "%s: warning: %s\n", name_.c_str(), warning.c_str());
}

void AlgorithmRun::summarize(double seconds, uint64_t iterations, const std::string& digest, const nlohmann::ordered_json& given) {
  uint64_t bytes = trace_->bytes_read();
  nlohmann::ordered_json counts = given;
  if (distributed()) {
    // What this rank exchanged in the trial, EDGEMAPs and all (a merge or
    // the result's gather follows the last EDGEMAP).
    const engine::CommunicationCounters& now = communicator_->counters();
    counts["sent_bytes"] = now.sent_bytes - trial_start_.sent_bytes;
    counts["received_bytes"] = now.received_bytes - trial_start_.received_bytes;
    counts["frontier_sent_bytes"] = now.frontier_sent_bytes - trial_start_.frontier_sent_bytes;
    counts["frontier_received_bytes"] = now.frontier_received_bytes - trial_start_.frontier_received_bytes;
    counts["comm_seconds"] = now.seconds - trial_start_.seconds;
    counts["collectives"] = now.collectives - trial_start_.collectives;
    // What the exchanges are keyed by: the other ranks' vertices this
    // rank's part reads, and the (own vertex, reading rank) pairs.
    engine::RankExchange& ranks = out().ranks();
    if (ranks.mirrors_found()) {
      counts["mirrors"] = ranks.mirrors().count();
      counts["read_pairs"] = ranks.read_pairs();
    }
    // The job's bytes, and its time: the slowest rank's.
    bytes = communicator_->sum(bytes);
    uint64_t nanoseconds = uint64_t(seconds * 1e9);
    communicator_->max(std::span<uint64_t>(&nanoseconds, 1));
    seconds = double(nanoseconds) / 1e9;
  }
  const double mb = double(bytes) / 1e6;
  std::FILE* out = outputs_.writes_stdout() ? stderr : stdout;
  trace_->end_trial(seconds, iterations, digest, counts);  // ends its progress line first
  if (distributed()) {
    trial_start_ = communicator_->counters();
    communicator_->take_step();
  }
  trial_seconds_.push_back(seconds);
  if (!leader()) return;
  std::fprintf(out, "%s %s: %.3f s, %llu iterations, %.1f MB read (%.1f MB/s), %s\n", name_.c_str(), path_.c_str(), seconds,
               (unsigned long long)iterations, mb, seconds > 0 ? mb / seconds : 0.0, digest.c_str());
  std::fflush(out);
}

template <class T>
void AlgorithmRun::finish(std::span<const T> result) {
  // --stats holds every rank's records, in rank order.
  std::string records = stats_.str();
  if (distributed() && !stats_path_.empty()) {
    const std::vector<char> all = communicator_->all_gather(std::span<const char>(records.data(), records.size()));
    records.assign(all.begin(), all.end());
  }
  if (trial_seconds_.size() > 1 && leader()) {
    std::vector<double> sorted = trial_seconds_;
    std::sort(sorted.begin(), sorted.end());
    const size_t k = sorted.size();
    const double median = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
    std::string each;
    for (double s : trial_seconds_) each += (each.empty() ? "" : " ") + std::to_string(s).substr(0, 5);
    std::FILE* out = outputs_.writes_stdout() ? stderr : stdout;
    std::fprintf(out, "%s %s: median of %zu trials %.3f s (%s)\n", name_.c_str(), path_.c_str(), k, median, each.c_str());
    // GAPBS reports the mean, in this form: scripts that parse it keep working.
    double sum = 0;
    for (double s : trial_seconds_) sum += s;
    std::fprintf(out, "Average Time:        %.5f\n", sum / double(k));
  }
  outputs_.values(values_["output"].as<std::string>(), result);
  if (!stats_path_.empty()) {
    std::string run = run_record_ + ",\"parameters\":{";
    for (size_t i = 0; i < parameters_.size(); ++i) {
      run += (i ? "," : "") + nlohmann::json(parameters_[i].first).dump() + ":" + parameters_[i].second;
    }
    outputs_.text(stats_path_, run + "}}\n" + records);
  }
  outputs_.commit();
}
template void AlgorithmRun::finish(std::span<const int64_t>);
template void AlgorithmRun::finish(std::span<const uint64_t>);
template void AlgorithmRun::finish(std::span<const double>);
template void AlgorithmRun::finish(std::span<const int32_t>);
template void AlgorithmRun::finish(std::span<const uint32_t>);
template void AlgorithmRun::finish(std::span<const float>);

uint64_t vertex_of_input(const engine::DiskGraph& graph, uint64_t id, const std::string& what) {
  // Given as the input named it: a relabelled layout maps it to its own id.
  const base::IdMap& ids = graph.layout().ids();
  const std::optional<uint64_t> vertex = ids.vertex_of(id);
  if (!ids.empty() && !vertex) {
    throw po::error(what + " " + std::to_string(id) + " is not a vertex of the graph: it was relabelled (convert --relabel), "
                    "and no edge of the input names " + std::to_string(id));
  }
  if (*vertex >= graph.vertices()) {
    throw po::error(what + " " + std::to_string(id) + " is not below the " + std::to_string(graph.vertices()) + " vertices");
  }
  return *vertex;
}

OutDegrees::OutDegrees(const AlgorithmSetup& setup)
    : degrees_(setup.out_degrees ? setup.out_degrees : &setup.graph.degrees()),
      first_(0),
      last_(setup.graph.vertices()),
      ranks_(setup.communicator && setup.communicator->size() > 1 ? setup.communicator : nullptr) {
  if (ranks_) first_ = setup.graph.owned_begin(), last_ = setup.graph.owned_end();
  if (ranks_ && setup.out_degrees) held_from_ = first_;
}

uint32_t OutDegrees::of(uint64_t v) const {
  if (!ranks_) return held(v);
  return uint32_t(ranks_->sum(uint64_t(owns(v) ? held(v) : 0)));
}

uint64_t OutDegrees::highest() const {
  struct Best {
    uint64_t vertex = UINT64_MAX;
    uint32_t degree = 0;
  } best;
  for (uint64_t v = first_; v < last_; ++v) {
    if (best.vertex == UINT64_MAX || held(v) > best.degree) best = {v, held(v)};
  }
  if (!ranks_) return best.vertex;
  // In rank order, ranges ascending: a later rank wins only with more.
  return ranks_->fold(best, [](const Best& a, const Best& b) {
    return a.vertex == UINT64_MAX || (b.vertex != UINT64_MAX && b.degree > a.degree) ? b : a;
  }).vertex;
}

bool OutDegrees::any() const {
  uint64_t with_edges = 0;
  for (uint64_t v = first_; v < last_ && !with_edges; ++v) with_edges += held(v) != 0;
  return (ranks_ ? ranks_->sum(with_edges) : with_edges) != 0;
}

uint64_t OutDegrees::first_with_edges(std::span<const uint64_t> candidates) const {
  uint64_t found = 0;  // bit i: candidate i has out-edges
  for (size_t i = 0; i < candidates.size() && i < 64; ++i) {
    if (owns(candidates[i]) && held(candidates[i])) found |= uint64_t(1) << i;
  }
  if (ranks_) found = ranks_->fold(found, [](uint64_t a, uint64_t b) { return a | b; });
  return found ? candidates[size_t(std::countr_zero(found))] : UINT64_MAX;
}

uint64_t pick_source(const AlgorithmSetup& setup, std::optional<uint64_t> requested) {
  if (requested) return vertex_of_input(setup.graph, *requested, "source");
  if (setup.graph.vertices() == 0) throw po::error("the graph has no vertices to start from");
  return OutDegrees(setup).highest();
}


std::string components_digest(const algorithms::ComponentsResult& result) {
  return std::to_string(result.components) + " components, largest " + std::to_string(result.largest) + " vertices";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sluice::programs
