// The commands of the `sluice` executable and the algorithm programs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "programs/algorithm_table.hpp"

namespace sluice::tools {

struct Command {
  std::string name;
  std::string summary;
  std::function<int(int argc, char** argv)> run;
};

// convert, generate, info, scan, the benchmarks, calibrate, sweep.
const std::vector<Command>& sluice_commands();
// The algorithm programs: `sluice NAME` and the executables sluice-NAME,
// one per row of the algorithm table, and jtcc (the block API's).
const std::vector<Command>& algorithm_commands();

// Any row of the algorithm table as a program: its flags, the engine's,
// --output, --stats, --trials; a summary line per trial.
int run_algorithm_program(const programs::Algorithm& algorithm, int argc, char** argv);

int cmd_convert(int argc, char** argv);
int cmd_info(int argc, char** argv);
int cmd_scan(int argc, char** argv);
int cmd_bench_load(int argc, char** argv);
int cmd_iobench(int argc, char** argv);
int cmd_calibrate(int argc, char** argv);
int cmd_bench_edgemap(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_plot(int argc, char** argv);
int cmd_jtcc(int argc, char** argv);

}  // namespace sluice::tools
