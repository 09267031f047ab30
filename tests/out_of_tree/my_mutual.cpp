// An algorithm on whole neighbour lists, written outside sluice's tree:
// each vertex's mutual neighbours (v with edges u -> v and v -> u), the
// example of docs/writing-an-algorithm.md. The sorted lists of as many
// vertices as --list-memory holds are kept in DRAM; then every list
// streams past them. tests/cli/install.sh builds it against the installed
// package and checks its counts against the edge list.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "programs/algorithm_run.hpp"

using namespace sluice::engine;

std::vector<uint64_t> mutual(Engine& engine, uint64_t budget, sluice::algorithms::RunTrace& trace, uint64_t& ranges) {
  const DiskGraph& graph = engine.graph();
  const uint64_t n = graph.vertices();
  if (n > UINT32_MAX) throw std::invalid_argument("this example holds 32-bit ids");
  std::vector<uint64_t> count(n, 0);
  // Vertex ranges whose lists (at most 4 bytes an edge) fit the budget.
  auto cut = list_ranges(n, budget, [&](uint64_t v) { return ResidentLists<uint32_t>::bytes_per_vertex + 4 * graph.degree(v); });
  ranges = cut.size();
  for (auto [first, last] : cut) {
    ResidentLists<uint32_t> held = engine.hold_lists<uint32_t>(first, last, [](const NeighbourList& list, std::vector<uint32_t>& kept) {
      kept.assign(list.targets.begin(), list.targets.end());
      std::sort(kept.begin(), kept.end());
      kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    });
    trace.record(engine, "hold", first);  // a --stats line
    engine.for_each_list(VertexSubset::all(n), [&](const NeighbourList& list) {  // one thread per list
      std::vector<uint64_t> targets(list.targets.begin(), list.targets.end());
      std::sort(targets.begin(), targets.end());
      targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
      for (uint64_t v : targets) {
        if (v == list.vertex || !held.holds(v)) continue;
        std::span<const uint32_t> back = held.of(v);
        count[list.vertex] += std::binary_search(back.begin(), back.end(), uint32_t(list.vertex));
      }
    });
    trace.record(engine, "scan", first);
  }
  return count;
}

int main(int argc, char** argv) {
  using namespace sluice::programs;
  return run_command("my-mutual", [](int argc, char** argv) {
    po::options_description options("my-mutual GRAPH.sluice");
    options.add_options()("list-memory", po::value<uint64_t>()->default_value(uint64_t(64) << 20), "bytes of lists held at once");
    add_program_options(options, "write each vertex's count of mutual neighbours to this file");
    po::positional_options_description positionals;
    positionals.add("graph", 1);
    po::variables_map v;
    if (!parse_command_line(argc, argv, "usage: my-mutual GRAPH.sluice [--list-memory BYTES] [--output FILE]", options, positionals, v)) {
      return int(exit_ok);
    }
    AlgorithmRun run("my-mutual", v, Transpose::not_needed, 8);  // 8 bytes of state per vertex
    std::vector<uint64_t> count;
    for (unsigned trial = 0; trial < run.trials(); ++trial) {
      const auto start = std::chrono::steady_clock::now();
      uint64_t ranges = 0;
      count = mutual(run.out(), v["list-memory"].as<uint64_t>(), run.trace(), ranges);
      uint64_t pairs = 0;
      for (uint64_t c : count) pairs += c;
      run.print_summary(seconds_since(start), ranges, std::to_string(pairs / 2) + " mutual pairs, " + std::to_string(ranges) + " range(s)");
    }
    run.finish(std::span<const uint64_t>(count));
    return int(exit_ok);
  }, argc, argv);
}
