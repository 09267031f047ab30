// jtcc GRAPH: connected components by concurrent union-find in one pass
// over the edges through the block API (any input format).
#include <cstdio>

#include "algorithms/jtcc.hpp"
#include "cluster/session.hpp"
#include "programs/algorithm_run.hpp"
#include "programs/input_ids.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {
int run_jtcc(const po::variables_map& v, engine::Communicator* communicator);
}  // namespace

int cmd_jtcc(int argc, char** argv) {
  po::options_description options("jtcc GRAPH");
  options.add_options()
    ("graph", po::value<std::string>()->required(), "graph in any format the block API reads")
    ("seed", po::value<uint64_t>()->default_value(0x5eed), "seed of the random linking order");
  add_output_options(options, "write each vertex's component (its smallest vertex id) to this file");
  add_read_options(options);
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  // Under mpirun each rank reads a share of the blocks (the same file on
  // every machine: any format); an error on any rank ends the job.
  cluster::Session session(argc, argv);
  if (!parse_command_line(argc, argv, "usage: jtcc GRAPH [--threads N] [--output FILE] [block API options]", options,
                          positionals, v)) {
    return exit_ok;
  }
  return session.run("sluice-jtcc", [&] { return run_jtcc(v, session.communicator()); });
}

namespace {

int run_jtcc(const po::variables_map& v, engine::Communicator* communicator) {
  const bool leader = !communicator || communicator->rank() == 0;
  const std::string path = v["graph"].as<std::string>();
  const formats::OpenOptions open_options = open_options_from(v);
  ProgramOutputs outputs(v, formats::graph_files(path, open_options));  // checked before the run, not after it
  auto graph = formats::BlockGraph::open(path, open_options);
  if (communicator && communicator->size() > 1) {  // each rank writes the labels of the share it read
    const algorithms::VertexShare share = algorithms::jtcc_share(graph->info().vertices, *communicator);
    outputs.write_by_ranks(*communicator, share.begin, share.end);
  }
  base::require_memory(graph->info().vertices * algorithms::jtcc_bytes_per_vertex, "the union-find's parent and label arrays");
  auto start = std::chrono::steady_clock::now();
  algorithms::JtccResult result = algorithms::jtcc(*graph, v["seed"].as<uint64_t>(), communicator);
  const double seconds = seconds_since(start);
  const double bytes = double(result.edges) * graph->info().id_bytes / 1e6;
  if (leader) std::printf("jtcc %s: %.3f s, 1 pass over %llu edges (%.1f M edges/s, %.1f MB of ids), %s\n", path.c_str(), seconds,
              (unsigned long long)result.edges, seconds > 0 ? double(result.edges) / seconds / 1e6 : 0.0, bytes,
              components_digest(result).c_str());
  // A relabelled layout's components are named, and written, by the input's ids.
  const base::IdMap& ids = graph->source().ids();
  if (!ids.empty()) {
    name_components_by_input_ids(std::span<uint64_t>(result.label), ids);
    outputs.name_vertices_by(&ids);
  }
  outputs.values(v["output"].as<std::string>(), std::span<const uint64_t>(result.label));
  outputs.commit();
  return exit_ok;
}

}  // namespace

}  // namespace sluice::tools
