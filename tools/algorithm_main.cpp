// The entry point of each algorithm program (sluice-bfs, sluice-pagerank,
// ...): the same code as `sluice NAME`, chosen by the name it was built for.
#include <iostream>

#include "programs/command_line.hpp"
#include "tools/commands.hpp"

using namespace sluice::tools;
using namespace sluice::programs;

int main(int argc, char** argv) {
  for (const auto& c : algorithm_commands()) {
    if (c.name == SLUICE_PROGRAM) return run_command("sluice-" SLUICE_PROGRAM, c.run, argc, argv);
  }
  std::cerr << "sluice-" SLUICE_PROGRAM ": not an algorithm program\n";
  return exit_usage;
}
