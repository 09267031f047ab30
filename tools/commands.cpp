#include "tools/commands.hpp"

#include "cluster/session.hpp"
#include "programs/graph_commands.hpp"

namespace sluice::tools {

// Under mpirun, MPI starts here: the ranks convert together, and an error
// on any rank ends the whole job.
int cmd_convert(int argc, char** argv) {
  cluster::Session session(argc, argv);
  return session.run("sluice convert", [&] { return programs::convert_command(argc, argv, session.communicator()); });
}

const std::vector<Command>& sluice_commands() {
  static const std::vector<Command> commands = {
      {"convert", "convert a graph between formats, or onto drives in sluice's layout", cmd_convert},
      {"generate", "generate an RMAT or uniform random graph", programs::generate_command},
      {"info", "print counts, degree statistics and the on-disk layout; --verify checksums", cmd_info},
      {"scan", "read every edge through the block API and report the rate", cmd_scan},
      {"bench-load", "time parsing and CSR building of an edge-list file, or BV decoding", cmd_bench_load},
      {"iobench", "fio-style read benchmark through sluice's IO path", cmd_iobench},
      {"calibrate", "measure drives and derive the skipping threshold", cmd_calibrate},
      {"sweep", "run algorithms at several skipping thresholds (and devices): time, bytes, requests per run", cmd_sweep},
      {"plot", "draw sluice sweep's CSV: time and bytes against the skipping threshold (Python, matplotlib)", cmd_plot},
      {"bench-edgemap", "full-scan EDGEMAP out of core (binning, atomic) against the in-memory CSR", cmd_bench_edgemap},
  };
  return commands;
}

const std::vector<Command>& algorithm_commands() {
  static const std::vector<Command> commands = [] {
    std::vector<Command> list;
    for (const programs::Algorithm& a : programs::algorithm_table()) {
      list.push_back({a.name, a.summary, [&a](int argc, char** argv) { return run_algorithm_program(a, argc, argv); }});
    }
    list.push_back({"jtcc", "connected components by concurrent union-find, one pass through the block API", cmd_jtcc});
    return list;
  }();
  return commands;
}

}  // namespace sluice::tools
