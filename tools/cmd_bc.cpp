// bc GRAPH.sluice: betweenness centrality (Brandes) from one or more sources.
#include <cstdio>

#include "algorithms/bc.hpp"
#include "tools/algorithm_program.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

int cmd_bc(int argc, char** argv) {
  po::options_description options("bc GRAPH.sluice");
  options.add_options()
    ("sources,s", po::value<std::string>()->default_value(""), "source vertices, comma-separated (default: the vertex of highest out-degree)")
    ("all-sources", po::bool_switch(), "every vertex a source: exact betweenness");
  add_program_options(options, "write each vertex's centrality to this file");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: bc GRAPH.sluice [--sources V,W,...] [--output FILE] [engine options]\n"
                          "(needs the transpose: `sluice convert --transpose`, or --symmetric)", options, positionals, v)) {
    return exit_ok;
  }
  if (v["all-sources"].as<bool>() && !v["sources"].defaulted()) throw po::error("give --sources or --all-sources, not both");
  AlgorithmRun run("bc", v, Transpose::needed, algorithms::bc_bytes_per_vertex);
  std::vector<uint64_t> sources;
  if (v["all-sources"].as<bool>()) {
    for (uint64_t s = 0; s < run.vertices(); ++s) sources.push_back(s);
  } else if (v["sources"].as<std::string>().empty()) {
    sources.push_back(pick_source(run.out().graph(), std::nullopt));
  } else {
    for (const std::string& s : split_list(v["sources"].as<std::string>())) {
      sources.push_back(pick_source(run.out().graph(), parse_vertex_id(s, "--sources")));
    }
  }
  run.parameter("sources", uint64_t(sources.size()));
  algorithms::BcResult result;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    auto start = std::chrono::steady_clock::now();
    result = algorithms::bc(run.out(), run.in(), sources, run.trace());
    const double seconds = seconds_since(start);
    const ValueDigest d = digest_of(result.score);
    char digest[160];
    std::snprintf(digest, sizeof(digest), "%llu source(s), sum of scores %.6g, top vertex %llu (%.6g)",
                  (unsigned long long)result.sources, d.sum, (unsigned long long)d.top_vertex, d.top);
    run.print_summary(seconds, result.levels, digest);
  }
  run.finish(std::span<const double>(result.score));
  return exit_ok;
}

}  // namespace sluice::tools
