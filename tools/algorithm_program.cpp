#include "tools/algorithm_program.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <iostream>

#include "tools/symmetry_check.hpp"


namespace sluice::tools {

void add_engine_options(po::options_description& options, const char* skip_default, const char* edgemap_default,
                        const char* edgemap_help, const char* direction_default) {
  options.add_options()
    ("threads,t", po::value<unsigned>()->default_value(0), "compute threads (0: all cores)")
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
    ("memory-limit", byte_size_value("0"), "bytes the run may hold in DRAM, e.g. 8g (0: the memory available)")
    ("no-verify-reads", po::bool_switch(), "do not check each page read against its checksum (on by default; costs a few percent, see the README)");
}

engine::EdgeMapVariant parse_edgemap(const std::string& text) {
  if (text == "binning") return engine::EdgeMapVariant::binning;
  if (text == "atomic") return engine::EdgeMapVariant::atomic;
  throw po::error("--edgemap must be binning or atomic, not '" + text + "'");
}

engine::EngineOptions engine_options_from(const po::variables_map& v, const engine::DiskGraph& graph, std::string* skip_source) {
  engine::EngineOptions o;
  o.threads = threads_option(v);
  try {
    o.direction = engine::parse_direction(v["direction"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw po::error(std::string("--direction: ") + e.what());
  }
  o.bins = v["bins"].as<uint32_t>();
  o.bin_space = v["bin-space"].as<ByteSize>().bytes;
  const std::string edgemap = v["edgemap"].as<std::string>();
  if (edgemap != "both") o.variant = parse_edgemap(edgemap);
  if (v.count("skip-threshold")) o.skip = engine::resolve_skip_threshold(v["skip-threshold"].as<std::string>(), graph, skip_source);
  o.io.backend = io::parse_backend(v["io"].as<std::string>());
  o.memory_limit = v["memory-limit"].as<ByteSize>().bytes;
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

void add_program_options(po::options_description& options, const char* output_help) {
  options.add_options()
    ("graph", po::value<std::string>()->required(), "graph in sluice's layout (NAME.sluice, from `sluice convert`)");
  add_symmetric_option(options);
  options.add_options()
    ("stats", po::value<std::string>()->default_value(""), "write the run's statistics to this file as JSON lines (a run record, one per EDGEMAP, one summary per trial)")
    ("trials,n", po::value<unsigned>()->default_value(1), "run the algorithm this many times: each trial's summary, then the median (GAPBS's -n)");
  add_output_options(options, output_help);
  add_engine_options(options);
}

void add_symmetric_option(po::options_description& options) {
  options.add_options()
    ("symmetric", po::bool_switch(), "the graph stores every edge both ways: use the out-edges where the transpose is needed (a layout converted with --symmetrize records it and needs no flag; on one that does not, the degrees and 1000 random edges are checked first)");
}

ProgramEngines open_program_engines(const std::string& program, const std::string& path, const po::variables_map& v,
                                    Transpose transpose, uint64_t bytes_per_vertex) {
  ProgramEngines e;
  e.out_graph = std::make_unique<engine::DiskGraph>(path);
  // A layout that records symmetry needs no flag; the flag on one that does
  // not is checked before it is believed.
  e.symmetric = e.out_graph->info().symmetric;
  if (v["symmetric"].as<bool>() && !e.symmetric) {
    e.symmetry_check = check_symmetric(*e.out_graph, threads_option(v));
    e.symmetric = true;
  }
  if (transpose == Transpose::needed && !e.symmetric) {
    e.in_graph = e.out_graph->reversed();
    if (!e.in_graph) {
      throw base::InputError(path, "", program +
                                     " needs the transpose: convert with --transpose, or pass --symmetric if the graph "
                                     "stores every edge both ways");
    }
  }
  e.options = engine_options_from(v, *e.out_graph, &e.skip_source);
  e.options.symmetric = e.symmetric;
  e.options.algorithm_bytes = bytes_per_vertex * e.out_graph->vertices();
  e.out = std::make_unique<engine::Engine>(*e.out_graph, e.options);
  if (e.in_graph) {
    engine::EngineOptions in_options = e.options;
    in_options.algorithm_bytes = 0;  // counted once
    e.in = std::make_unique<engine::Engine>(*e.in_graph, in_options);
  }
  return e;
}

void add_output_options(po::options_description& options, const char* output_help) {
  options.add_options()
    ("output,o", po::value<std::string>()->default_value(""), output_help)
    ("output-format", po::value<std::string>()->default_value("text"), "text (one value per line) or binary (little-endian)");
}

std::string output_format(const po::variables_map& v) {
  std::string format = v["output-format"].as<std::string>();
  if (format != "text" && format != "binary") throw po::error("--output-format must be text or binary");
  return format;
}

ProgramOutputs::ProgramOutputs(const po::variables_map& v, const std::vector<base::NamedFile>& inputs)
    : format_(v.count("output-format") ? output_format(v) : "text") {
  guard_.inputs(inputs);
  for (const char* option : {"output", "stats"}) expect(v, option);
}

void ProgramOutputs::read(const std::string& path, const std::string& what) { guard_.input(path, what); }

void ProgramOutputs::expect(const po::variables_map& v, const char* option) {
  if (!v.count(option)) return;
  const std::string& path = v[option].as<std::string>();
  if (path.empty()) {
    if (v[option].defaulted()) return;
    throw po::error(std::string("--") + option + " was given an empty file name");
  }
  base::check_writable(path);
  guard_.output(path, std::string("--") + option);
}

template <class T>
void ProgramOutputs::values(const std::string& path, std::span<const T> data) {
  if (path.empty()) return;
  base::AtomicFile& file = files_.emplace_back(path);
  if (format_ == "binary") {
    file.write(data.data(), data.size_bytes());
    return;
  }
  char line[64];
  for (const T& value : data) {
    auto [end, ec] = std::to_chars(line, line + sizeof(line) - 1, value);
    *end++ = '\n';
    file.write(line, size_t(end - line));
  }
}
template void ProgramOutputs::values(const std::string&, std::span<const int64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const uint64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const double>);

void ProgramOutputs::text(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  files_.emplace_back(path).write(text);
}

void ProgramOutputs::commit() {
  base::commit_all(files_);
  files_.clear();
}

AlgorithmRun::AlgorithmRun(const char* name, const po::variables_map& v, Transpose transpose, uint64_t bytes_per_vertex)
    : name_(name),
      path_(v["graph"].as<std::string>()),
      outputs_(v, layout::sluice_layout_files(path_)),
      stats_path_(v["stats"].as<std::string>()),
      values_(v) {
  engines_ = open_program_engines(name, path_, v, transpose, bytes_per_vertex);
  const engine::DiskGraph& graph = *engines_.out_graph;
  const engine::EngineOptions& options = engines_.options;
  const std::string& skip_source = engines_.skip_source;
  const bool symmetric = engines_.symmetric;
  trace_ = std::make_unique<algorithms::RunTrace>(name, stats_path_.empty() ? nullptr : &stats_);
  trace_->show_progress(true);  // on a terminal only
  trials_ = v["trials"].as<unsigned>();
  if (trials_ == 0) throw po::error("--trials must be at least 1");
  // What produced the statistics: the first record of --stats.
  nlohmann::ordered_json run = {
      {"record", "run"}, {"sluice", SLUICE_VERSION}, {"algorithm", name}, {"graph", path_},
      {"vertices", graph.vertices()}, {"edges", graph.edges()}, {"weighted", graph.info().weighted},
      {"drives", graph.drives()}, {"drive_files", graph.drive_paths()},
      {"transpose", graph.layout().in() != nullptr}, {"symmetric", symmetric},
      {"symmetric_source", !engines_.symmetry_check.empty() ? "checked: " + engines_.symmetry_check
                                                             : graph.info().symmetric ? std::string("layout") : std::string("no")},
      {"threads", out().threads()},
      {"backend", out().backend_name()}, {"direction", engine::direction_name(options.direction)},
      {"edgemap", options.variant == engine::EdgeMapVariant::binning ? "binning" : "atomic"},
      {"skip_threshold", options.skip->infinite ? nlohmann::ordered_json("inf") : nlohmann::ordered_json(options.skip->bytes)},
      {"skip_threshold_source", skip_source}, {"verify_reads", options.verify_reads},
      {"bins", engine::bin_count(graph, options)}, {"memory_limit", options.memory_limit}, {"trials", trials_}};
  run_record_ = run.dump();
  run_record_.pop_back();  // the parameters follow
  std::fprintf(stderr, "%s %s: %llu vertices, %llu edges, %u drive(s)%s, %s EDGEMAP, direction %s, skip threshold %s (%s)\n",
               name, path_.c_str(), (unsigned long long)graph.vertices(), (unsigned long long)graph.edges(),
               graph.drives(), graph.layout().in() ? " + transpose" : "",
               options.variant == engine::EdgeMapVariant::binning ? "binning" : "atomic",
               engine::direction_name(options.direction), options.skip->text().c_str(), skip_source.c_str());
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

namespace {
// With an output on standard output, summaries go to standard error.
bool stdout_taken(const po::variables_map& v) {
  auto is_stdout = [&](const char* option) { return v.count(option) && v[option].as<std::string>() == "-"; };
  return is_stdout("output") || is_stdout("stats") || is_stdout("parents");
}
}  // namespace

void AlgorithmRun::print_summary(double seconds, uint64_t iterations, const std::string& digest) {
  const double mb = double(trace_->bytes_read()) / 1e6;
  std::FILE* out = stdout_taken(values_) ? stderr : stdout;
  trace_->end_trial(seconds, iterations, digest);  // ends its progress line first
  std::fprintf(out, "%s %s: %.3f s, %llu iterations, %.1f MB read (%.1f MB/s), %s\n", name_.c_str(), path_.c_str(), seconds,
               (unsigned long long)iterations, mb, seconds > 0 ? mb / seconds : 0.0, digest.c_str());
  std::fflush(out);
  trial_seconds_.push_back(seconds);
}

template <class T>
void AlgorithmRun::finish(std::span<const T> result) {
  if (trial_seconds_.size() > 1) {
    std::vector<double> sorted = trial_seconds_;
    std::sort(sorted.begin(), sorted.end());
    const size_t k = sorted.size();
    const double median = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
    std::string each;
    for (double s : trial_seconds_) each += (each.empty() ? "" : " ") + std::to_string(s).substr(0, 5);
    std::FILE* out = stdout_taken(values_) ? stderr : stdout;
    std::fprintf(out, "%s %s: median of %zu trials %.3f s (%s)\n", name_.c_str(), path_.c_str(), k, median, each.c_str());
  }
  outputs_.values(values_["output"].as<std::string>(), result);
  if (!stats_path_.empty()) {
    std::string run = run_record_ + ",\"parameters\":{";
    for (size_t i = 0; i < parameters_.size(); ++i) {
      run += (i ? "," : "") + nlohmann::json(parameters_[i].first).dump() + ":" + parameters_[i].second;
    }
    outputs_.text(stats_path_, run + "}}\n" + stats_.str());
  }
  outputs_.commit();
}
template void AlgorithmRun::finish(std::span<const int64_t>);
template void AlgorithmRun::finish(std::span<const uint64_t>);
template void AlgorithmRun::finish(std::span<const double>);

ValueDigest digest_of(std::span<const double> values) {
  ValueDigest d;
  for (uint64_t i = 0; i < values.size(); ++i) {
    d.sum += values[i];
    if (values[i] > d.top) d.top = values[i], d.top_vertex = i;
  }
  return d;
}

uint64_t pick_source(const engine::DiskGraph& graph, std::optional<uint64_t> requested) {
  const uint64_t n = graph.vertices();
  if (requested) {
    if (*requested >= n) throw po::error("source " + std::to_string(*requested) + " is not below the " + std::to_string(n) + " vertices");
    return *requested;
  }
  if (n == 0) throw po::error("the graph has no vertices to start from");
  uint64_t best = 0;
  for (uint64_t v = 1; v < n; ++v) {
    if (graph.degree(v) > graph.degree(best)) best = v;
  }
  return best;
}

uint64_t parse_vertex_id(const std::string& text, const char* option) {
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw po::error(std::string(option) + ": '" + text + "' is not a vertex id (a number from 0 to 2^64 - 1)");
  }
  return id;
}

std::string components_digest(const algorithms::ComponentsResult& result) {
  return std::to_string(result.components) + " components, largest " + std::to_string(result.largest) + " vertices";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sluice::tools
