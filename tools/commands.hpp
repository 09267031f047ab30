// The commands of the `sluice` executable and the algorithm programs.
#pragma once

#include <functional>

namespace sluice::tools {

struct Command {
  const char* name;
  const char* summary;
  std::function<int(int argc, char** argv)> run;
};

int cmd_convert(int argc, char** argv);
int cmd_generate(int argc, char** argv);
int cmd_info(int argc, char** argv);
int cmd_scan(int argc, char** argv);
int cmd_bench_load(int argc, char** argv);
int cmd_iobench(int argc, char** argv);
int cmd_calibrate(int argc, char** argv);
int cmd_bench_edgemap(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_bfs(int argc, char** argv);
int cmd_pagerank(int argc, char** argv);
int cmd_wcc(int argc, char** argv);
int cmd_jtcc(int argc, char** argv);
int cmd_spmv(int argc, char** argv);
int cmd_bc(int argc, char** argv);

// The algorithm programs: `sluice NAME` and the executables sluice-NAME.
extern const Command algorithm_commands[6];

}  // namespace sluice::tools
