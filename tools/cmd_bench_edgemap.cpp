// sluice bench-edgemap GRAPH.sluice: one EDGEMAP (every active vertex adds
// its value to its out-neighbours; by default all are active, a full scan)
// out of core, with binning and with atomics, against the same traversal
// over the CSR in memory, in one run. --frontier and --skip-threshold
// compare skipping thresholds on sparse frontiers.
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "engine/engine.hpp"
#include "programs/algorithm_run.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

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
    ("frontier", po::value<double>()->default_value(1.0, "1.0"), "share of vertices active (1: a full scan)")
    ("repeat,r", po::value<int>()->default_value(3), "rounds; each round runs all three")
    ("stats", po::value<std::string>()->default_value(""), "write each EDGEMAP's statistics as JSON lines");
  add_engine_options(options, "inf", "both", "binning, atomic or both (push)", "push");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: sluice bench-edgemap GRAPH.sluice [--threads N] [--io uring] [--repeat R]",
                          options, positionals, v)) {
    return exit_ok;
  }
  const std::string path = v["graph"].as<std::string>();
  ProgramOutputs outputs(v, layout::sluice_layout_files(path));  // --stats: checked now, written at the end
  engine::DiskGraph graph(path);
  const uint64_t n = graph.vertices(), m = graph.edges();
  const int threads = base::resolve_threads(threads_option(v));

  // The in-memory CSR, read through the block API (not timed).
  formats::OpenOptions open;
  open.format = "sluice";
  auto memory = formats::BlockGraph::open(path, open);
  std::vector<uint64_t> offsets = memory->offsets(0, n);
  std::vector<uint32_t> targets(m);
  if (memory->info().id_bytes != 4) throw std::runtime_error("bench-edgemap handles 32-bit ids");
  memory->read_edges(0, n, targets.data(), nullptr);

  std::vector<uint64_t> x(n), expected(n, 0), sum(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = i % 1000 + 1;
  const double share = v["frontier"].as<double>();
  if (!(share > 0 && share <= 1)) throw po::error("--frontier must be in (0, 1]");
  std::vector<uint64_t> active_ids;
  std::vector<char> active(n, 0);
  for (uint64_t i = 0; i < n; ++i) {
    if (share >= 1 || double((i * 0x9e3779b97f4a7c15ULL) >> 11) / double(1ULL << 53) < share) active_ids.push_back(i), active[i] = 1;
  }
  const engine::VertexSubset frontier = engine::VertexSubset::from_ids(n, active_ids);
  uint64_t work = 0;  // edges of the active vertices: what the rates count
  for (uint64_t a : active_ids) work += offsets[a + 1] - offsets[a];
  std::string lambda_source;
  const engine::EngineOptions base = engine_options_from(v, graph, &lambda_source);
  const engine::SkipThreshold lambda = *base.skip;
  const std::string which = v["edgemap"].as<std::string>();
  if (which != "both") parse_edgemap(which);
  // One engine per variant for all rounds, as an algorithm keeps one.
  std::vector<std::pair<const char*, std::unique_ptr<engine::Engine>>> engines;
  for (auto variant : {engine::EdgeMapVariant::binning, engine::EdgeMapVariant::atomic}) {
    const char* name = variant == engine::EdgeMapVariant::binning ? "binning" : "atomic";
    if (which != "both" && which != name) continue;
    engine::EngineOptions eo = base;
    eo.variant = variant;
    eo.algorithm_bytes = 3 * n * 8;
    engines.emplace_back(name, std::make_unique<engine::Engine>(graph, eo));
  }
  std::ostringstream stats;

  std::printf("graph %s: %llu vertices, %llu edges, %u drive(s), %d threads, %llu active vertices, skip threshold %s (%s)\n",
              path.c_str(), (unsigned long long)n, (unsigned long long)m, graph.drives(), threads,
              (unsigned long long)frontier.size(), lambda.text().c_str(), lambda_source.c_str());
  std::printf("%-10s %9s %12s %10s %12s %10s %9s\n", "traversal", "seconds", "M_edges/s", "vs_memory", "bytes_read", "MB/s",
              "direction");
  for (int round = 0; round < v["repeat"].as<int>(); ++round) {
    std::fill(expected.begin(), expected.end(), 0);
    auto start = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (uint64_t s = 0; s < n; ++s) {
      if (!active[s]) continue;
      for (uint64_t e = offsets[s]; e < offsets[s + 1]; ++e) {
        std::atomic_ref<uint64_t>(expected[targets[e]]).fetch_add(x[s], std::memory_order_relaxed);
      }
    }
    double memory_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-10s %9.3f %12.1f %10.2f %12s %10s %9s\n", "in-memory", memory_s, double(work) / memory_s / 1e6, 1.0, "-", "-", "push");

    for (auto& [name, engine] : engines) {
      std::fill(sum.begin(), sum.end(), 0);
      SumOfNeighbours f{x, sum};
      engine->edge_map<uint64_t>(frontier, f, false);
      const auto& s = engine->last_stats();
      if (sum != expected) throw std::runtime_error("out-of-core sums differ from the in-memory traversal");
      std::printf("%-10s %9.3f %12.1f %10.2f %12llu %10.1f %9s\n", name, s.seconds, double(work) / s.seconds / 1e6,
                  s.seconds / memory_s, (unsigned long long)s.bytes_read, s.bandwidth() / 1e6, engine::direction_name(s.direction));
      nlohmann::ordered_json line = {{"edgemap", name}};
      algorithms::add_stats(line, s);
      stats << line.dump() << "\n";
    }
  }
  outputs.text(v["stats"].as<std::string>(), stats.str());
  outputs.commit();
  return exit_ok;
}

}  // namespace sluice::tools
