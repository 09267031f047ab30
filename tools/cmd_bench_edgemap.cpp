// sluice bench-edgemap GRAPH.sluice: one full-scan EDGEMAP (every vertex
// adds its value to its out-neighbours) out of core, with binning and with
// atomics, against the same traversal over the CSR in memory, in one run.
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "engine/engine.hpp"
#include "tools/command_line.hpp"

namespace sluice::tools {

namespace {

struct SumOfNeighbours {
  const std::vector<uint64_t>& x;
  std::vector<uint64_t>& sum;
  bool cond(uint64_t) { return true; }
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) {
    out = x[src];
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& value) {
    sum[dst] += value;
    return false;
  }
  bool gather_atomic(uint64_t dst, const uint64_t& value) {
    std::atomic_ref<uint64_t>(sum[dst]).fetch_add(value, std::memory_order_relaxed);
    return false;
  }
};

}  // namespace

int cmd_bench_edgemap(int argc, char** argv) {
  po::options_description options("sluice bench-edgemap GRAPH.sluice");
  options.add_options()
    ("graph", po::value<std::string>()->required(), "graph in sluice's layout")
    ("threads,t", po::value<int>()->default_value(0), "compute threads (0: all cores)")
    ("io", po::value<std::string>()->default_value("auto"), "backend: auto, uring, aio, psync")
    ("bins", po::value<uint32_t>()->default_value(1024), "bins")
    ("repeat,r", po::value<int>()->default_value(3), "rounds; each round runs all three")
    ("stats", po::value<std::string>()->default_value(""), "write each EDGEMAP's statistics as JSON lines");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: sluice bench-edgemap GRAPH.sluice [--threads N] [--io uring] [--repeat R]",
                          options, positionals, v)) {
    return exit_ok;
  }
  const std::string path = v["graph"].as<std::string>();
  engine::DiskGraph graph(path);
  const uint64_t n = graph.vertices(), m = graph.edges();
  const int threads = resolve_threads(v["threads"].as<int>());

  // The in-memory CSR, read through the block API (not timed).
  OpenOptions open;
  open.format = "sluice";
  auto memory = BlockGraph::open(path, open);
  std::vector<uint64_t> offsets = memory->offsets(0, n);
  std::vector<uint32_t> targets(m);
  if (memory->info().id_bytes != 4) throw std::runtime_error("bench-edgemap handles 32-bit ids");
  memory->read_edges(0, n, targets.data(), nullptr);

  std::vector<uint64_t> x(n), expected(n, 0), sum(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = i % 1000 + 1;
  std::ofstream stats_file;
  if (!v["stats"].as<std::string>().empty()) stats_file.open(v["stats"].as<std::string>());

  std::printf("graph %s: %llu vertices, %llu edges, %u drive(s), %d threads\n", path.c_str(), (unsigned long long)n,
              (unsigned long long)m, graph.drives(), threads);
  std::printf("%-10s %9s %12s %10s %12s %10s\n", "traversal", "seconds", "M_edges/s", "vs_memory", "bytes_read", "MB/s");
  for (int round = 0; round < v["repeat"].as<int>(); ++round) {
    std::fill(expected.begin(), expected.end(), 0);
    auto start = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (uint64_t s = 0; s < n; ++s) {
      for (uint64_t e = offsets[s]; e < offsets[s + 1]; ++e) {
        std::atomic_ref<uint64_t>(expected[targets[e]]).fetch_add(x[s], std::memory_order_relaxed);
      }
    }
    double memory_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-10s %9.3f %12.1f %10.2f %12s %10s\n", "in-memory", memory_s, double(m) / memory_s / 1e6, 1.0, "-", "-");

    for (auto variant : {engine::EdgeMapVariant::binning, engine::EdgeMapVariant::atomic}) {
      engine::EngineOptions eo;
      eo.threads = threads;
      eo.bins = v["bins"].as<uint32_t>();
      eo.variant = variant;
      eo.skip = engine::SkipThreshold::parse("inf");
      eo.io.backend = io::parse_backend(v["io"].as<std::string>());
      eo.algorithm_bytes = 3 * n * 8;
      engine::Engine engine(graph, eo);
      std::fill(sum.begin(), sum.end(), 0);
      SumOfNeighbours f{x, sum};
      engine.edge_map<uint64_t>(engine::VertexSubset::all(n), f, false);
      const auto& s = engine.last_stats();
      if (sum != expected) throw std::runtime_error("out-of-core sums differ from the in-memory traversal");
      const char* name = variant == engine::EdgeMapVariant::binning ? "binning" : "atomic";
      std::printf("%-10s %9.3f %12.1f %10.2f %12llu %10.1f\n", name, s.seconds, double(m) / s.seconds / 1e6,
                  s.seconds / memory_s, (unsigned long long)s.bytes_read, s.bandwidth() / 1e6);
      if (stats_file) stats_file << s.json() << "\n";
    }
  }
  return exit_ok;
}

}  // namespace sluice::tools
