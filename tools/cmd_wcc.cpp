// wcc GRAPH.sluice: weakly connected components by label propagation.
#include "algorithms/wcc.hpp"
#include "tools/algorithm_program.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

int cmd_wcc(int argc, char** argv) {
  po::options_description options("wcc GRAPH.sluice");
  add_program_options(options, "write each vertex's component (its smallest vertex id) to this file");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: wcc GRAPH.sluice [--output FILE] [engine options]\n"
                          "(needs the transpose: `sluice convert --transpose`, or --symmetric)", options, positionals, v)) {
    return exit_ok;
  }
  AlgorithmRun run("wcc", v, Transpose::needed, algorithms::wcc_bytes_per_vertex);
  algorithms::ComponentsResult result;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    auto start = std::chrono::steady_clock::now();
    result = algorithms::wcc(run.out(), run.in(), run.trace());
    run.print_summary(seconds_since(start), result.rounds, components_digest(result));
  }
  run.finish(std::span<const uint64_t>(result.label));
  return exit_ok;
}

}  // namespace sluice::tools
