// The built-in algorithms over the engine, one row each: what the CLI
// (`sluice NAME`, sluice-NAME), `sluice sweep` and the Python module
// (sluice.NAME) all run. A row declares its flags, reads them once into a
// prepared run, and turns the kernel's result into per-vertex arrays,
// counts and a summary digest; everything else (engines, outputs, --stats,
// trials, the summary line) is shared. A new algorithm is its kernel in
// algorithms/, a row here, a Python wrapper and its tests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "programs/command_line.hpp"
#include "formats/block_graph.hpp"
#include "programs/engine_flags.hpp"

namespace sluice::programs {

class ProgramOutputs;

// (Arrays filled on the engine's threads are base::Arrays. int32 ones are
// a kernel's narrow state, widened by widen_values before anyone reads them.)
using VertexValues = std::variant<std::vector<int64_t>, std::vector<uint64_t>, std::vector<double>, base::Array<int64_t>,
                                  base::Array<uint64_t>, base::Array<double>, base::Array<int32_t>>;
using Scalar = std::variant<uint64_t, double, std::string, bool>;
using NamedScalars = std::vector<std::pair<std::string, Scalar>>;

// What one run of an algorithm produced.
struct AlgorithmResult {
  uint64_t iterations = 0;  // the summary's "N iterations": levels, rounds, passes
  std::string digest;       // the summary line's end: what a user checks first
  // Per vertex, named as Python returns them; the first is --output's.
  std::vector<std::pair<std::string, VertexValues>> values;
  NamedScalars counts;  // "reached", "components", "converged", ...: also in --stats' summary records
  double seconds = 0;   // the kernel's time alone
  // What the user must hear of (PageRank that stopped at the cap): the
  // programs print each on stderr, Python raises a RuntimeWarning.
  std::vector<std::string> warnings = {};
};

// Turns the int32 arrays a kernel kept (BFS's tree) into the int64 that
// verifiers, outputs and Python read: once per run, after its trials,
// instead of in every trial. On ranks, the own range [first, last) alone.
void widen_values(AlgorithmResult& result, uint64_t first = 0, uint64_t last = UINT64_MAX);

// What reading the parameters may use: the flags, the graph (a source is
// checked against its vertex count), vectors given in memory (Python's
// spmv x) and the outputs (to guard a file read as an input).
struct AlgorithmSetup {
  const po::variables_map& values;
  const engine::DiskGraph& graph;
  const std::map<std::string, std::vector<double>>& vectors;
  ProgramOutputs* outputs = nullptr;  // null in sweep and Python
  // The whole graph's out-degrees, when the graph is a rank's part (null:
  // the graph's own): for the part's own range alone, element i the
  // range's first vertex + i's (OutDegrees asks the ranks about any vertex).
  const layout::DegreeArray* out_degrees = nullptr;
  engine::Communicator* communicator = nullptr;  // the ranks, when the graph is a part
};

// The engines a run uses: the out-edges', and the transpose's when the
// row needs it (null when it does not, or when the graph is symmetric).
struct AlgorithmEngines {
  engine::Engine& out;
  engine::Engine* in = nullptr;
  engine::Engine& in_or_out() const { return in ? *in : out; }
};

// An algorithm with its parameters read: run it any number of times.
struct PreparedAlgorithm {
  NamedScalars parameters;  // recorded in --stats' run record and returned to Python
  std::function<AlgorithmResult(const AlgorithmEngines&, algorithms::RunTrace&)> run;
  unsigned trials = 0;      // the trials its parameters ask for (a list of sources); 0: --trials decides
  // Checks a result independently (--verify), reading the graph again
  // through the block API; returns what it checked, throws
  // VerificationFailed (programs/verifiers.hpp). Null: the row has none.
  std::function<std::string(formats::BlockGraph&, const AlgorithmResult&)> verify = {};
};

struct Algorithm {
  std::string name;
  std::string summary;      // one line for `sluice --help`
  std::string usage;        // its own flags, after "usage: NAME GRAPH.sluice"
  std::string note;         // a line under the usage ("needs the transpose")
  std::string output_help;  // what --output holds
  // The algorithm's arrays, in the memory budget, as its flags ask for them.
  std::function<AlgorithmArrays(const po::variables_map&)> arrays = [](const po::variables_map&) { return AlgorithmArrays{}; };
  std::optional<engine::VertexBytes> ranks_arrays;  // on ranks, where they differ
  AlgorithmReads reads;  // the sample files, and the edge sets whose reads are readied before the first trial
  // Outputs beyond --output: (option, name of the array it writes).
  std::vector<std::pair<std::string, std::string>> extra_outputs;
  // The arrays and counts whose values are vertices ("parent", "source"):
  // on a relabelled graph they are named by the input's ids once the run,
  // and its verification, are done (programs/input_ids.hpp).
  std::vector<std::string> vertex_valued;
  // Arrays of component labels, each a vertex of the component: named by
  // the component's smallest input id, as without relabelling.
  std::vector<std::string> component_labels;
  std::function<void(po::options_description&)> add_options;
  std::function<Transpose(const po::variables_map&)> transpose;
  // Refuses flags that contradict each other, before any file is opened.
  std::function<void(const po::variables_map&)> check = [](const po::variables_map&) {};
  std::function<PreparedAlgorithm(const AlgorithmSetup&)> prepare;
};

// Every row, in the order `sluice --help` lists them.
const std::vector<Algorithm>& algorithm_table();
// The row named `name`; throws po::error listing the names otherwise.
const Algorithm& find_algorithm(const std::string& name);

// The row's own flags and the engine's, as the CLI and Python parse them.
void add_algorithm_options(const Algorithm& algorithm, po::options_description& options);
// Every row's parameter flags once (sweep takes them all; a name two rows
// share, like --source, is declared by the first); not their outputs.
void add_every_algorithm_option(po::options_description& options);

}  // namespace sluice::programs
