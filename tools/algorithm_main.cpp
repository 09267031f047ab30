// The entry point of each algorithm program (bfs, pagerank, ...): the same
// code as `sluice NAME`, chosen by the name this executable was built as.
#include <cstring>
#include <iostream>

#include "tools/command_line.hpp"

using namespace sluice::tools;

int main(int argc, char** argv) {
  for (const auto& c : algorithm_commands) {
    if (std::strcmp(c.name, SLUICE_PROGRAM) == 0) return run_command(SLUICE_PROGRAM, c.run, argc, argv);
  }
  std::cerr << SLUICE_PROGRAM << ": not an algorithm program\n";
  return exit_usage;
}
