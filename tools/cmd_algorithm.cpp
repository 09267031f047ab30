// NAME GRAPH.sluice [options]: any row of the algorithm table as a program.
#include <map>
#include <optional>
#include <variant>

#include "cluster/session.hpp"
#include "formats/sluice_format.hpp"
#include "programs/algorithm_run.hpp"
#include "programs/input_ids.hpp"
#include "programs/verifiers.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

const programs::VertexValues* find_values(const programs::AlgorithmResult& result, const std::string& name) {
  for (const auto& [n, values] : result.values) {
    if (n == name) return &values;
  }
  return nullptr;
}

int run_prepared(const programs::Algorithm& algorithm, const po::variables_map& v, engine::Communicator* communicator);

}  // namespace

int run_algorithm_program(const programs::Algorithm& algorithm, int argc, char** argv) {
  const std::string graph_usage = algorithm.name + " GRAPH.sluice";
  po::options_description options(graph_usage);
  algorithm.add_options(options);
  add_program_options(options, algorithm.output_help.c_str(), /*verifies=*/true);  // bc refuses -v by name
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  const std::string usage = "usage: " + graph_usage + (algorithm.usage.empty() ? "" : " " + algorithm.usage) +
                            " [--output FILE] [engine options]" + (algorithm.note.empty() ? "" : "\n" + algorithm.note);
  // Under mpirun, MPI starts here; an error on any rank then ends the job.
  cluster::Session session(argc, argv);
  if (!parse_command_line(argc, argv, usage.c_str(), options, positionals, v)) return exit_ok;
  algorithm.check(v);
  engine::Communicator* communicator = session.communicator();
  return session.run("sluice-" + algorithm.name, [&] { return run_prepared(algorithm, v, communicator); });
}

namespace {

int run_prepared(const programs::Algorithm& algorithm, const po::variables_map& v, engine::Communicator* communicator) {
  const bool verify = v["verify"].as<bool>();
  if (verify && communicator && communicator->size() > 1) {
    throw po::error("--verify reads the graph again in one process: run it without mpirun");
  }
  // The parameters are read once the graph is open, before its edges are
  // loaded: a bad --source or --x costs no load.
  std::optional<PreparedAlgorithm> read;
  auto read_parameters = [&](const engine::DiskGraph& graph, const layout::DegreeArray* out_degrees, ProgramOutputs& outputs) {
    for (const auto& [option, values] : algorithm.extra_outputs) outputs.expect(v, option.c_str());
    const std::map<std::string, std::vector<double>> no_vectors;
    read = algorithm.prepare({v, graph, no_vectors, &outputs, out_degrees, communicator});
    if (verify && !read->verify) {
      throw po::error("--verify: " + algorithm.name + " has no verifier (bfs, pagerank, wcc, spmv, sssp, kcore, tc, mis and radii have)");
    }
    return read->trials;
  };
  const bool on_ranks = communicator && communicator->size() > 1;
  AlgorithmArrays arrays = algorithm.arrays(v);
  if (on_ranks && algorithm.ranks_arrays) arrays.bytes = *algorithm.ranks_arrays;
  AlgorithmRun run(algorithm.name.c_str(), v, algorithm.transpose(v), arrays, communicator, algorithm.reads,
                   read_parameters);
  const PreparedAlgorithm& prepared = *read;
  run.parameters(prepared.parameters);
  const base::IdMap& ids = run.out().graph().layout().ids();
  AlgorithmResult result;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    run.trace().start_trial();
    result = prepared.run(run.engines(), run.trace());
    run.print_summary(result, counts_by_input_ids(result.counts, algorithm, ids));
  }
  run.release_engine_buffers();  // the peak is the kernel's, not the kernel's plus the widened result's
  widen_values(result, run.out().owned_begin(), run.out().owned_end());
  // GAPBS's -v: the last trial's result checked by a plain, separate pass.
  bool verified = true;
  if (verify) {
    const std::string path = v["graph"].as<std::string>();
    formats::BlockGraph graph(formats::open_sluice_layout(path), formats::BlockOptions{});
    std::FILE* out = run.outputs().writes_stdout() ? stderr : stdout;
    try {
      std::fprintf(out, "%s %s: verification passed: %s\n", algorithm.name.c_str(), path.c_str(), prepared.verify(graph, result).c_str());
    } catch (const VerificationFailed& failure) {
      std::fprintf(stderr, "%s %s: verification FAILED: %s\n", algorithm.name.c_str(), path.c_str(), failure.what());
      verified = false;
    }
  }
  name_by_input_ids(result, algorithm, ids, &run.out().ranks());  // verified in the layout's ids; written in the input's
  for (const auto& extra : algorithm.extra_outputs) {
    const std::string& option = extra.first;
    std::visit([&](const auto& values) { run.outputs().values(v[option].as<std::string>(), std::span(values)); },
               *find_values(result, extra.second));
  }
  std::visit([&](const auto& values) { run.finish(std::span(values)); }, result.values.front().second);
  return verified ? exit_ok : exit_error;
}

}  // namespace

}  // namespace sluice::tools
