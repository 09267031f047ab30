// sluice scan GRAPH: every edge through the asynchronous block API, with an
// order-independent digest so two formats of one graph can be compared.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "programs/command_line.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

int cmd_scan(int argc, char** argv) {
  po::options_description options("sluice scan GRAPH");
  options.add_options()("graph", po::value<std::string>()->required(), "graph to scan");
  add_read_options(options);
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map values;
  if (!parse_command_line(argc, argv, "usage: sluice scan GRAPH [--block-edges N] [--buffers N] [--threads N]", options,
                          positionals, values)) {
    return exit_ok;
  }
  auto open_start = std::chrono::steady_clock::now();
  auto graph = formats::BlockGraph::open(values["graph"].as<std::string>(), open_options_from(values));
  auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> edges{0}, blocks{0}, digest{0};
  auto id = graph->request(0, graph->info().vertices, [&](const formats::EdgeBlock& block) {
    uint64_t sum = 0;
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        sum += mix(v * 0x9e3779b97f4a7c15ULL ^ block.target(e - block.first_edge()));
      }
    }
    edges += block.edges;
    digest += sum;
    ++blocks;
    graph->release(block);
  });
  graph->wait(id);
  auto end = std::chrono::steady_clock::now();
  double open_s = std::chrono::duration<double>(start - open_start).count();
  double scan_s = std::chrono::duration<double>(end - start).count();
  char line[256];
  std::snprintf(line, sizeof(line),
                "scan: %llu vertices, %llu edges in %llu blocks; open %.3f s, scan %.3f s (%.1f M edges/s); digest %016llx",
                (unsigned long long)graph->info().vertices, (unsigned long long)edges.load(),
                (unsigned long long)blocks.load(), open_s, scan_s, scan_s > 0 ? double(edges) / scan_s / 1e6 : 0.0,
                (unsigned long long)digest.load());
  std::cout << line << "\n";
  return exit_ok;
}

}  // namespace sluice::tools
