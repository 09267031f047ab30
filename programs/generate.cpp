// sluice generate: RMAT (Graph500) or uniform random graphs, streamed to
// disk for edge-list outputs, built in memory for the others.
#include <chrono>
#include <iostream>

#include "base/format_names.hpp"
#include "formats/csr_builder.hpp"
#include "formats/generators.hpp"
#include "formats/writers.hpp"
#include "programs/command_line.hpp"
#include "programs/graph_commands.hpp"

namespace sluice::programs {

namespace {

template <class V>
std::unique_ptr<formats::BlockGraph> generate_in_memory(const formats::GeneratorOptions& gen, const formats::BuildOptions& build) {
  formats::Csr<V> csr = formats::build_csr(formats::generate_edge_list<V>(gen), build);
  return std::make_unique<formats::BlockGraph>(std::make_unique<formats::InMemorySource<V>>(std::move(csr), gen.kind), formats::BlockOptions{});
}

}  // namespace

int generate_command(int argc, char** argv) {
  po::options_description options("sluice generate [rmat|uniform] -o OUT");
  options.add_options()
    ("kind", po::value<std::string>()->default_value("rmat"), "rmat or uniform")
    ("output,o", po::value<std::string>()->required(), "output path; its extension picks the format")
    ("to", po::value<std::string>()->default_value(""), "output format (default: from the extension)")
    ("scale,s", po::value<unsigned>()->default_value(16), "2^scale vertices")
    ("edge-factor,e", po::value<double>()->default_value(16, "16"), "edges per vertex")
    ("seed", po::value<uint64_t>()->default_value(1), "random seed; the same seed gives the same graph")
    ("a", po::value<double>()->default_value(0.57, "0.57"), "RMAT probability a")
    ("b", po::value<double>()->default_value(0.19, "0.19"), "RMAT probability b")
    ("c", po::value<double>()->default_value(0.19, "0.19"), "RMAT probability c")
    ("no-permute", po::bool_switch(), "keep RMAT's vertex ids (no scrambling)")
    ("weighted", po::bool_switch(), "integer weights in [1, 255]")
    ("force", po::bool_switch(), "overwrite drive files that belong to another layout (refused by default, naming it)")
    ("drives", po::value<std::string>()->default_value(""), "comma-separated drive directories (sluice/blaze output)")
    ("transpose", po::bool_switch(), "also store the transpose (sluice output)")
    ("symmetrize", po::bool_switch(), "add the reverse of every edge")
    ("drop-self-loops", po::bool_switch(), "remove edges (v, v)")
    ("dedup", po::bool_switch(), "remove repeated edges")
    ("sort", po::bool_switch(), "sort neighbour lists");
  add_page_options(options);
  add_threads_option(options);
  po::positional_options_description positionals;
  positionals.add("kind", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: sluice generate [rmat|uniform] -o OUT [--scale S] [--edge-factor E] [--seed N]",
                          options, positionals, v)) {
    return exit_ok;
  }
  formats::GeneratorOptions gen;
  gen.kind = v["kind"].as<std::string>();
  gen.scale = v["scale"].as<unsigned>();
  gen.edge_factor = v["edge-factor"].as<double>();
  gen.seed = v["seed"].as<uint64_t>();
  gen.a = v["a"].as<double>();
  gen.b = v["b"].as<double>();
  gen.c = v["c"].as<double>();
  gen.permute = !v["no-permute"].as<bool>();
  gen.weighted = v["weighted"].as<bool>();
  gen.threads = threads_option(v);
  gen.validate();
  formats::BuildOptions build;
  build.symmetrize = v["symmetrize"].as<bool>();
  build.drop_self_loops = v["drop-self-loops"].as<bool>();
  build.remove_duplicates = v["dedup"].as<bool>();
  build.sort_neighbors = v["sort"].as<bool>();
  build.threads = gen.threads;

  const std::string output = v["output"].as<std::string>();
  std::string to = v["to"].as<std::string>();
  if (to.empty()) to = base::format_from_extension(output);
  if (to.empty()) throw po::error("cannot tell the output format from '" + output + "'; give --to");
  formats::WriteOptions write;
  page_options_from(v, to, write);
  write.drive_dirs = split_list(v["drives"].as<std::string>());
  write.with_transpose = v["transpose"].as<bool>();
  require_output_directories(output, to, write);  // before a generation that may take minutes

  auto start = std::chrono::steady_clock::now();
  bool streams = (to == "el" || to == "wel" || to == "bel" || to == "bel64") && !build.changes_edges();
  if (streams) {
    formats::generate_to_file(gen, output, to, true);
  } else {
    auto graph = gen.vertices() <= (uint64_t(1) << 32) ? generate_in_memory<uint32_t>(gen, build)
                                                        : generate_in_memory<uint64_t>(gen, build);
    std::unique_ptr<formats::BlockGraph> transpose;
    if (v["transpose"].as<bool>()) transpose = formats::transpose_of(*graph, gen.threads);
    write.force = v["force"].as<bool>();
    write.transpose = transpose.get();
    write.progress = true;
    formats::write_graph(*graph, output, to, write);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  (output == "-" ? std::cerr : std::cout) << "generated " << gen.kind << " scale " << gen.scale << " edge factor " << gen.edge_factor << " seed "
            << gen.seed << ": " << gen.vertices() << " vertices, " << gen.edges() << " edges in " << seconds << " s -> "
            << output << "\n";
  return exit_ok;
}

}  // namespace sluice::programs
