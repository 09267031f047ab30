// bfs GRAPH.sluice [--source V]: breadth-first search out of core.
#include "algorithms/bfs.hpp"
#include "tools/algorithm_program.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

int cmd_bfs(int argc, char** argv) {
  po::options_description options("bfs GRAPH.sluice");
  options.add_options()
    ("source,r", po::value<uint64_t>(), "start vertex, GAPBS's -r (default: the vertex of highest out-degree)")
    ("parents", po::value<std::string>()->default_value(""), "write each vertex's BFS parent (-1: not reached) to this file");
  add_program_options(options, "write each vertex's depth (-1: not reached) to this file");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: bfs GRAPH.sluice [--source V] [--output FILE] [engine options]", options,
                          positionals, v)) {
    return exit_ok;
  }
  AlgorithmRun run("bfs", v, Transpose::not_needed, algorithms::bfs_bytes_per_vertex);
  run.outputs().expect(v, "parents");
  const uint64_t source = pick_source(run.out().graph(), v.count("source") ? std::optional(v["source"].as<uint64_t>()) : std::nullopt);
  run.parameter("source", source);
  algorithms::BfsResult result;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    auto start = std::chrono::steady_clock::now();
    result = algorithms::bfs(run.out(), source, run.trace());
    const double seconds = seconds_since(start);
    int64_t deepest = 0;
    for (int64_t d : result.depth) deepest = std::max(deepest, d);
    run.print_summary(seconds, result.levels,
                      "source " + std::to_string(source) + " reached " + std::to_string(result.reached) + " of " +
                          std::to_string(run.vertices()) + " vertices, depth " + std::to_string(deepest));
  }
  run.outputs().values(v["parents"].as<std::string>(), std::span<const int64_t>(result.parent));
  run.finish(std::span<const int64_t>(result.depth));
  return exit_ok;
}

}  // namespace sluice::tools
