// One run of an algorithm program: the engine flags, the graph opened into
// engines, the --stats file, the outputs, the summary line per trial.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "algorithms/wcc.hpp"
#include "programs/algorithm_table.hpp"
#include "programs/command_line.hpp"
#include "programs/engine_flags.hpp"
#include "programs/program_outputs.hpp"

namespace sluice::programs {

// The graph, --stats, --output and --output-format, --symmetric; and
// --verify (-v) for a program that checks its result.
void add_program_options(po::options_description& options, const char* output_help, bool verifies = false);

// One program run: the graph opened as the program needs it and the
// engines over it, a trace for the summary and --stats, and the outputs.
class AlgorithmRun {
 public:
  // arrays: the algorithm's own, counted in the memory budget.
  // communicator: the ranks of a distributed run (null: one process).
  // reads: what the algorithm reads besides its arrays (AlgorithmReads).
  // Then every rank runs the algorithm over its part; the first prints
  // the summary lines and writes every output, --stats with every rank's
  // records.
  // graph_opened: what the program does once the graph is open and
  // before its engines are (with --io memory, before any edge is loaded):
  // read its parameters and name its further outputs, so that a bad one
  // costs no load. out_degrees: the whole graph's, on ranks too (there of the
  // own range alone, from its first vertex: GraphOpened in engine_flags.hpp). It
  // returns the trials the parameters ask for (a list of sources, one per
  // trial; 0: none): they set the count, which --trials, if given, must match.
  using GraphOpened =
      std::function<unsigned(const engine::DiskGraph& graph, const layout::DegreeArray* out_degrees, ProgramOutputs& outputs)>;
  AlgorithmRun(const char* name, const po::variables_map& values, Transpose transpose, AlgorithmArrays arrays,
               engine::Communicator* communicator = nullptr, AlgorithmReads reads = {}, const GraphOpened& graph_opened = {});

  engine::Engine& out() { return *engines_.out; }
  // The transpose's engine; null when --symmetric said the out-edges serve.
  engine::Engine* in() { return engines_.in.get(); }
  // The engine over the transpose, or over the out-edges of a symmetric graph.
  engine::Engine& in_or_out() { return engines_.in_or_out(); }
  AlgorithmEngines engines() { return {*engines_.out, engines_.in.get()}; }
  // After the last trial: the engines' IO buffers, bins and caches go
  // before the result is widened and written (Engine::release_buffers).
  void release_engine_buffers() {
    if (engines_.in) engines_.in->release_buffers();
    engines_.out->release_buffers();
  }
  algorithms::RunTrace& trace() { return *trace_; }
  uint64_t vertices() const { return engines_.out_graph->vertices(); }

  // How many times to run the algorithm (--trials, GAPBS's -n).
  unsigned trials() const { return trials_; }
  // An algorithm parameter, for the "run" record of --stats.
  void parameter(const std::string& name, double value);
  void parameter(const std::string& name, uint64_t value);
  void parameter(const std::string& name, const std::string& value);
  void parameter(const std::string& name, bool value);
  void parameters(const NamedScalars& values);

  // After each trial: "bfs r18.sluice: 0.153 s, 9 iterations, 12.3 MB read
  // (80.4 MB/s), <digest>", and its "summary" record in --stats.
  void print_summary(double seconds, uint64_t iterations, const std::string& digest);
  // The same for a row of the algorithm table: its counts join the summary
  // record, and its warnings go to stderr.
  void print_summary(const AlgorithmResult& result);
  // With the counts shown in its place (named by the input's ids).
  void print_summary(const AlgorithmResult& result, const NamedScalars& shown_counts);

  // The program's outputs (--output, --stats and any it expects more of).
  ProgramOutputs& outputs() { return outputs_; }
  // With several trials prints the median line; writes --output (the
  // result, one value per vertex: int32/64, uint32/64, float or double)
  // and --stats; commits every output.
  template <class T>
  void finish(std::span<const T> result);

 private:
  void summarize(double seconds, uint64_t iterations, const std::string& digest, const nlohmann::ordered_json& counts);

  bool leader() const { return !communicator_ || communicator_->rank() == 0; }
  // --io memory: the seconds the engines took to load the drive files.
  double load_seconds() const { return engines_.out->load_seconds() + (engines_.in ? engines_.in->load_seconds() : 0.0); }
  bool distributed() const { return communicator_ && communicator_->size() > 1; }

  engine::Communicator* communicator_;
  engine::CommunicationCounters trial_start_;  // the communicator's counters when the trial began
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

// The graph's vertex for an id as the user gives it, the input's: on a
// relabelled layout its dense id. Throws po::error naming `what` when no
// vertex has that id.
uint64_t vertex_of_input(const engine::DiskGraph& graph, uint64_t id, const std::string& what);

// The whole graph's out-degrees as a program's parameters read them. On
// ranks each holds those of its own range alone, so every question is
// collective: every rank asks the same, in the same order.
class OutDegrees {
 public:
  explicit OutDegrees(const AlgorithmSetup& setup);
  uint32_t of(uint64_t v) const;
  // The vertex of highest out-degree, the smallest such id.
  uint64_t highest() const;
  bool any() const;  // whether a vertex has out-edges
  // The first of `candidates` (at most 64) with out-edges, or UINT64_MAX.
  uint64_t first_with_edges(std::span<const uint64_t> candidates) const;

 private:
  const layout::DegreeArray* degrees_;  // (*degrees_)[v - held_from_] is v's
  uint64_t first_, last_;  // the range they are held for
  uint64_t held_from_ = 0;
  engine::Communicator* ranks_;  // null: one process
  bool owns(uint64_t v) const { return v >= first_ && v < last_; }
  uint32_t held(uint64_t v) const { return (*degrees_)[v - held_from_]; }  // v owned
};

// A vertex given as a number (refused unless below the vertex count), or
// by default the vertex of highest out-degree (the smallest such id): a
// start that reaches something.
uint64_t pick_source(const AlgorithmSetup& setup, std::optional<uint64_t> requested);

// "N components, largest M vertices"
std::string components_digest(const algorithms::ComponentsResult& result);

double seconds_since(std::chrono::steady_clock::time_point start);

}  // namespace sluice::programs
