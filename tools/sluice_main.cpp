// `sluice COMMAND ...`: the one entry point for conversion, generation,
// inspection and benchmarks.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "programs/command_line.hpp"
#include "tools/commands.hpp"

using namespace sluice::tools;
using namespace sluice::programs;

static void usage(std::ostream& out) {
  out << "usage: sluice COMMAND [options]   (sluice COMMAND --help for its options)\n\ncommands:\n";
  size_t width = 0;
  for (const auto& c : sluice_commands()) width = std::max(width, c.name.size());
  for (const auto& c : algorithm_commands()) width = std::max(width, c.name.size());
  auto list = [&](const Command& c) { out << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n"; };
  for (const auto& c : sluice_commands()) list(c);
  out << "\nalgorithms (also installed as programs of their own: sluice-bfs GRAPH.sluice ...):\n";
  for (const auto& c : algorithm_commands()) list(c);
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
  std::vector<std::string> known;
  for (const auto* list : {&sluice_commands(), &algorithm_commands()}) {
    for (const auto& c : *list) {
      if (name == c.name) return run_command("sluice " + name, c.run, argc - 1, argv + 1);
      known.push_back(c.name);
    }
  }
  const std::string hint = nearest(name, known);
  std::cerr << "sluice: unknown command '" << name << "'" << (hint.empty() ? "" : "; did you mean " + hint + "?") << "\n\n";
  usage(std::cerr);
  return exit_usage;
}
