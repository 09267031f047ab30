// What the algorithm programs (bfs, pagerank, wcc, jtcc, spmv, bc) share:
// one set of engine flags, opening the graph (and its transpose) into
// engines, the --stats file, the --output writer and the summary line.
#pragma once

#include <chrono>
#include <sstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "algorithms/wcc.hpp"
#include "base/atomic_file.hpp"
#include "base/output_guard.hpp"
#include "engine/engine.hpp"
#include "tools/command_line.hpp"

namespace sluice::tools {

// --threads --io --skip-threshold --bins --bin-space --direction
// --edgemap --memory-limit --no-verify-reads. bench-edgemap passes its own
// defaults; a null skip_default leaves --skip-threshold out (sweep).
void add_engine_options(po::options_description& options, const char* skip_default = "",
                        const char* edgemap_default = "binning", const char* edgemap_help = "binning or atomic",
                        const char* direction_default = "auto");
// The engine's options from those flags; the variant is set by the caller
// when --edgemap names more than one.
engine::EngineOptions engine_options_from(const po::variables_map& values, const engine::DiskGraph& graph,
                                          std::string* skip_source = nullptr);
engine::EdgeMapVariant parse_edgemap(const std::string& text);

// The graph, --stats, --output and --output-format, --symmetric.
void add_program_options(po::options_description& options, const char* output_help);

enum class Transpose { not_needed, needed };  // whether a program needs the transpose

// The graph at `path` opened into engines as a program needs it, from the
// engine flags (and --symmetric): the out-edges' engine, and the
// transpose's when needed (null with --symmetric, where the out-edges
// serve). Refuses, naming `program`, a needed transpose the layout lacks.
struct ProgramEngines {
  std::unique_ptr<engine::DiskGraph> out_graph, in_graph;
  std::unique_ptr<engine::Engine> out, in;
  engine::EngineOptions options;  // as the engines run (λ resolved)
  std::string skip_source;        // where λ came from: flag, profile, default
  bool symmetric = false;         // recorded in the layout, or --symmetric and checked
  std::string symmetry_check;     // what that check found, when it ran

  // The engine over the transpose, or over the out-edges of a symmetric graph.
  engine::Engine& in_or_out() { return in ? *in : *out; }
};
ProgramEngines open_program_engines(const std::string& program, const std::string& path, const po::variables_map& values,
                                    Transpose transpose, uint64_t bytes_per_vertex);
// --symmetric alone (add_program_options adds it).
void add_symmetric_option(po::options_description& options);

// The files a program writes: each checked before the work starts (so an
// unwritable path fails at once, not after the run, and no output may be
// a file the program reads, or another output), all written after it and
// committed together (so a failed run leaves none of them, and a failed
// write is an error, never a silent loss). Paths as AtomicFile takes them:
// "-" is standard output, devices and FIFOs are written in place.
class ProgramOutputs {
 public:
  // The files the program reads, then its --output and --stats, if it has them.
  ProgramOutputs(const po::variables_map& values, const std::vector<base::NamedFile>& inputs);
  // One more file the program reads (spmv's --x).
  void read(const std::string& path, const std::string& what);
  // One more output, the value of `option` (--parents): checked, unless
  // the option was left out; given as "", it is an error.
  void expect(const po::variables_map& values, const char* option);
  // One value per vertex in --output-format (ignores an empty path).
  template <class T>
  void values(const std::string& path, std::span<const T> data);
  void text(const std::string& path, const std::string& text);
  void commit();

 private:
  std::string format_;
  base::OutputGuard guard_;
  std::vector<base::AtomicFile> files_;
};

// One program run: the graph opened as the program needs it and the
// engines over it, a trace for the summary and --stats, and the outputs.
class AlgorithmRun {
 public:
  // bytes_per_vertex: the algorithm's own arrays, counted in the memory budget.
  AlgorithmRun(const char* name, const po::variables_map& values, Transpose transpose, uint64_t bytes_per_vertex);

  engine::Engine& out() { return *engines_.out; }
  // The transpose's engine; null when --symmetric said the out-edges serve.
  engine::Engine* in() { return engines_.in.get(); }
  // The engine over the transpose, or over the out-edges of a symmetric graph.
  engine::Engine& in_or_out() { return engines_.in_or_out(); }
  algorithms::RunTrace& trace() { return *trace_; }
  uint64_t vertices() const { return engines_.out_graph->vertices(); }

  // How many times to run the algorithm (--trials, GAPBS's -n).
  unsigned trials() const { return trials_; }
  // An algorithm parameter, for the "run" record of --stats.
  void parameter(const std::string& name, double value);
  void parameter(const std::string& name, uint64_t value);
  void parameter(const std::string& name, const std::string& value);

  // After each trial: "bfs r18.sluice: 0.153 s, 9 iterations, 12.3 MB read
  // (80.4 MB/s), <digest>", and its "summary" record in --stats.
  void print_summary(double seconds, uint64_t iterations, const std::string& digest);

  // The program's outputs (--output, --stats and any it expects more of).
  ProgramOutputs& outputs() { return outputs_; }
  // With several trials prints the median line; writes --output (the
  // result, one value per vertex) and --stats; commits every output.
  template <class T>
  void finish(std::span<const T> result);

 private:
  std::string name_, path_;
  ProgramOutputs outputs_;
  ProgramEngines engines_;
  std::string stats_path_;
  std::ostringstream stats_;
  std::string run_record_;                                   // JSON, without its closing brace
  std::vector<std::pair<std::string, std::string>> parameters_;  // name, JSON value
  unsigned trials_ = 1;
  std::vector<double> trial_seconds_;
  std::unique_ptr<algorithms::RunTrace> trace_;
  po::variables_map values_;
};

// --output FILE and --output-format text|binary (add_program_options adds
// them; jtcc, which has no engine, adds them alone).
void add_output_options(po::options_description& options, const char* output_help);
// --output-format, checked: "text" or "binary".
std::string output_format(const po::variables_map& values);

// The sum of a result and its largest value (first vertex holding it), for
// the summary lines.
struct ValueDigest {
  double sum = 0, top = 0;
  uint64_t top_vertex = 0;
};
ValueDigest digest_of(std::span<const double> values);

// A vertex given as a number (refused unless below the vertex count), or
// by default the vertex of highest out-degree (the smallest such id): a
// start that reaches something.
uint64_t pick_source(const engine::DiskGraph& graph, std::optional<uint64_t> requested);
// A vertex id as typed ("17"): every digit, no sign, within 64 bits.
uint64_t parse_vertex_id(const std::string& text, const char* option);

// "N components, largest M vertices"
std::string components_digest(const algorithms::ComponentsResult& result);

double seconds_since(std::chrono::steady_clock::time_point start);

}  // namespace sluice::tools
