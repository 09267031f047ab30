// An algorithm written outside sluice's tree against the installed
// package: the BFS of docs/writing-an-algorithm.md, with the
// built-in programs' flags, --output and --stats handling and summary line,
// alone or on MPI ranks. tests/cli/install.sh installs sluice, builds this
// with CMake and with pkg-config, checks its depths against sluice-bfs, and
// that the doc's copy is this file.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "cluster/session.hpp"
#include "engine/engine.hpp"
#include "programs/algorithm_run.hpp"
#include "programs/owned_figures.hpp"

using namespace sluice::engine;

struct BfsStep {
  std::vector<int64_t>& parent;
  int64_t get(uint64_t v) { return std::atomic_ref(parent[v]).load(std::memory_order_relaxed); }
  bool cond(uint64_t dst) { return get(dst) < 0; }              // not visited yet
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) {  // send my id
    out = src;
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& src) {  // first sender wins
    if (get(dst) >= 0) return false;
    std::atomic_ref(parent[dst]).store(int64_t(src), std::memory_order_relaxed);
    return true;  // dst joins the next frontier
  }
};

std::vector<int64_t> bfs(Engine& engine, uint64_t source, sluice::algorithms::RunTrace& trace, uint64_t& levels) {
  const uint64_t n = engine.graph().vertices();
  std::vector<int64_t> parent(n, -1), depth(n, -1);
  parent[source] = int64_t(source);
  depth[source] = 0;
  VertexSubset frontier = VertexSubset::single(n, source);
  for (levels = 1; !frontier.empty(); ++levels) {
    BfsStep step{parent};
    frontier = engine.edge_map<uint64_t>(frontier, step);  // pushed, or pulled over the transpose
    trace.record(engine, "level", levels);                  // a --stats line
    engine.vertex_map(frontier, [&](uint64_t v) { depth[v] = int64_t(levels); return true; });
  }
  return depth;
}

int main(int argc, char** argv) {
  using namespace sluice::programs;
  return run_command("my-bfs", [](int argc, char** argv) {
    // Alone, or one rank of `mpirun -np R my-bfs g.sluice` on a layout
    // converted with --ranks R: MPI starts here under mpirun.
    sluice::cluster::Session session(argc, argv);
    po::options_description options("my-bfs GRAPH.sluice");
    options.add_options()("source,s", po::value<uint64_t>()->default_value(0), "start vertex, as the input names it");
    add_program_options(options, "write each vertex's depth (-1: not reached) to this file");  // and the engine's flags
    po::positional_options_description positionals;
    positionals.add("graph", 1);
    po::variables_map v;
    if (!parse_command_line(argc, argv, "usage: my-bfs GRAPH.sluice [--source V] [--output FILE]", options, positionals, v)) {
      return int(exit_ok);
    }
    return session.run("my-bfs", [&] {  // on ranks, an error on one ends them all
      AlgorithmRun run("my-bfs", v, Transpose::not_needed, 16, session.communicator());  // 16 bytes of state per vertex
      run.parameter("source", v["source"].as<uint64_t>());  // recorded in --stats
      // The input's id; a relabelled layout (convert --relabel) has its own.
      const uint64_t source = vertex_of_input(run.out().graph(), v["source"].as<uint64_t>(), "--source");
      std::vector<int64_t> depth;
      for (unsigned trial = 0; trial < run.trials(); ++trial) {  // --trials N
        const auto start = std::chrono::steady_clock::now();
        uint64_t levels = 0;
        depth = bfs(run.out(), source, run.trace(), levels);
        // On ranks each depth lies with the rank that owns the vertex: the
        // count is taken over each rank's own range, then summed.
        const uint64_t reached = owned_count(run.out().ranks(), depth, [](int64_t d) { return d >= 0; });
        run.print_summary(seconds_since(start), levels, "reached " + std::to_string(reached) + " vertices");
      }
      run.finish(std::span<const int64_t>(depth));  // median of the trials, --output, --stats
      return int(exit_ok);
    });
  }, argc, argv);
}
