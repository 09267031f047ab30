// pagerank GRAPH.sluice: PageRank-delta (default) or classic, out of core.
#include <cstdio>

#include "algorithms/pagerank.hpp"
#include "tools/algorithm_program.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

int cmd_pagerank(int argc, char** argv) {
  po::options_description options("pagerank GRAPH.sluice");
  options.add_options()
    ("method", po::value<std::string>()->default_value("delta"), "delta (Ligra/Blaze: only changed vertices push) or classic (GAPBS)")
    ("damping", po::value<double>()->default_value(0.85, "0.85"), "damping factor")
    ("tolerance", po::value<double>()->default_value(1e-4, "1e-4"), "stop when one iteration changes the ranks by less than this in total (L1)")
    ("iterations", po::value<unsigned>()->default_value(20), "iteration cap")
    ("delta-threshold", po::value<double>()->default_value(0.01, "0.01"), "delta: a vertex stays active while its change exceeds this share of its rank")
    ("dangling", po::value<std::string>()->default_value("drop"),
     "rank of vertices without out-edges: drop (GAPBS, Ligra, Blaze) or spread evenly (networkx; classic only)");
  add_program_options(options, "write each vertex's rank to this file");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: pagerank GRAPH.sluice [--method delta|classic] [--output FILE] [engine options]",
                          options, positionals, v)) {
    return exit_ok;
  }
  algorithms::PageRankOptions o;
  o.method = algorithms::PageRankOptions::parse_method(v["method"].as<std::string>());
  o.dangling = algorithms::PageRankOptions::parse_dangling(v["dangling"].as<std::string>());
  o.damping = v["damping"].as<double>();
  o.tolerance = v["tolerance"].as<double>();
  o.max_iterations = v["iterations"].as<unsigned>();
  o.delta_threshold = v["delta-threshold"].as<double>();
  AlgorithmRun run("pagerank", v, Transpose::not_needed, algorithms::pagerank_bytes_per_vertex);
  run.parameter("method", v["method"].as<std::string>());
  run.parameter("dangling", v["dangling"].as<std::string>());
  run.parameter("damping", o.damping);
  run.parameter("tolerance", o.tolerance);
  run.parameter("iterations", uint64_t(o.max_iterations));
  run.parameter("delta_threshold", o.delta_threshold);
  algorithms::PageRankResult result;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    auto start = std::chrono::steady_clock::now();
    result = algorithms::pagerank(run.out(), o, run.trace());
    const double seconds = seconds_since(start);
    const ValueDigest d = digest_of(result.rank);
    char digest[160];
    std::snprintf(digest, sizeof(digest), "sum of ranks %.6f, top vertex %llu (%.3g), last change %.3g", d.sum,
                  (unsigned long long)d.top_vertex, d.top, result.last_change);
    run.print_summary(seconds, result.iterations, digest);
  }
  run.finish(std::span<const double>(result.rank));
  return exit_ok;
}

}  // namespace sluice::tools
