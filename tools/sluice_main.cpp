// `sluice COMMAND ...`: the one entry point for conversion, generation,
// inspection and benchmarks.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

using namespace sluice::tools;

static const Command commands[] = {
    {"convert", "convert a graph between formats, or onto drives in sluice's layout", cmd_convert},
    {"generate", "generate an RMAT or uniform random graph", cmd_generate},
    {"info", "print counts, degree statistics and the on-disk layout; --verify checksums", cmd_info},
    {"scan", "read every edge through the block API and report the rate", cmd_scan},
    {"bench-load", "time parsing and CSR building of an edge-list file, or BV decoding", cmd_bench_load},
    {"iobench", "fio-style read benchmark through sluice's IO path", cmd_iobench},
    {"calibrate", "measure drives and derive the skipping threshold", cmd_calibrate},
    {"sweep", "run algorithms at several skipping thresholds (and devices): time, bytes, requests per run", cmd_sweep},
    {"bench-edgemap", "full-scan EDGEMAP out of core (binning, atomic) against the in-memory CSR", cmd_bench_edgemap},
};

static void usage(std::ostream& out) {
  out << "usage: sluice COMMAND [options]   (sluice COMMAND --help for its options)\n\ncommands:\n";
  size_t width = 0;
  for (const auto& c : commands) width = std::max(width, std::strlen(c.name));
  for (const auto& c : algorithm_commands) width = std::max(width, std::strlen(c.name));
  auto list = [&](const Command& c) { out << "  " << c.name << std::string(width + 2 - std::strlen(c.name), ' ') << c.summary << "\n"; };
  for (const auto& c : commands) list(c);
  out << "\nalgorithms (also installed as programs of their own: bfs GRAPH.sluice ...):\n";
  for (const auto& c : algorithm_commands) list(c);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return exit_usage;
  }
  std::string name = argv[1];
  // Through run_command too: a write error on standard output is an error.
  if (name == "--help" || name == "-h" || name == "help") {
    return run_command("sluice", [](int, char**) { usage(std::cout); return int(exit_ok); }, argc, argv);
  }
  if (name == "--version") {
    return run_command("sluice", [](int, char**) { std::cout << version_line() << "\n"; return int(exit_ok); }, argc, argv);
  }
  for (const auto& c : commands) {
    if (name == c.name) return run_command("sluice " + name, c.run, argc - 1, argv + 1);
  }
  for (const auto& c : algorithm_commands) {
    if (name == c.name) return run_command("sluice " + name, c.run, argc - 1, argv + 1);
  }
  std::vector<std::string> known;
  for (const auto& c : commands) known.push_back(c.name);
  for (const auto& c : algorithm_commands) known.push_back(c.name);
  const std::string hint = nearest(name, known);
  std::cerr << "sluice: unknown command '" << name << "'" << (hint.empty() ? "" : "; did you mean " + hint + "?") << "\n\n";
  usage(std::cerr);
  return exit_usage;
}
