#include "tools/command_line.hpp"

#include "formats/atomic_file.hpp"

#include <iostream>

namespace sluice::tools {

bool parse_command_line(int argc, char** argv, const char* usage, po::options_description& options,
                        const po::positional_options_description& positionals, po::variables_map& values) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(argc, argv).options(options).positional(positionals).run(), values);
  if (values.count("help")) {
    std::cout << usage << "\n\n" << options << "\n";
    return false;
  }
  po::notify(values);
  return true;
}

void add_open_options(po::options_description& options) {
  options.add_options()
    ("format", po::value<std::string>()->default_value(""), "input format (el, wel, mtx, adj, bel, bel64, sluice, blaze, bv); default: from the name")
    ("threads,t", po::value<int>()->default_value(0), "threads (0: all cores)")
    ("base", po::value<int>()->default_value(-1), "ids in text input are 0- or 1-based (default: 0, Matrix Market 1)")
    ("vertices", po::value<uint64_t>()->default_value(0), "declared vertex count (default: from the file, or max id + 1)")
    ("symmetrize", po::bool_switch(), "add the reverse of every edge")
    ("drop-self-loops", po::bool_switch(), "remove edges (v, v)")
    ("dedup", po::bool_switch(), "remove repeated edges, keeping the first (sorts neighbour lists)")
    ("sort", po::bool_switch(), "sort every neighbour list by target")
    ("drop-weights", po::bool_switch(), "read a weighted graph as unweighted")
    ("wide-ids", po::bool_switch(), "use 64-bit vertex ids even when 32 bits suffice")
    ("save-offsets", po::bool_switch(), "WebGraph BV: write BASENAME.offsets when it had to be built")
    ("adjacency-dirs", po::value<std::string>()->default_value(""), "Blaze input: the directories of its adjacency files, one per drive, in order (default: beside the index)")
    ("block-edges", po::value<uint64_t>()->default_value(uint64_t(1) << 20), "edges per block of the block API")
    ("buffers", po::value<unsigned>()->default_value(4), "buffers of the block API");
}

OpenOptions open_options_from(const po::variables_map& v) {
  OpenOptions o;
  o.format = v["format"].as<std::string>();
  o.load.threads = v["threads"].as<int>();
  o.load.base = v["base"].as<int>();
  o.load.vertices = v["vertices"].as<uint64_t>();
  o.build.symmetrize = v["symmetrize"].as<bool>();
  o.build.drop_self_loops = v["drop-self-loops"].as<bool>();
  o.build.remove_duplicates = v["dedup"].as<bool>();
  o.build.sort_neighbors = v["sort"].as<bool>();
  o.build.threads = o.load.threads;
  o.drop_weights = v["drop-weights"].as<bool>();
  o.load.id_bytes = v["wide-ids"].as<bool>() ? 8 : 0;
  o.save_offsets = v["save-offsets"].as<bool>();
  o.adjacency_dirs = split_list(v["adjacency-dirs"].as<std::string>());
  o.blocks.block_edges = v["block-edges"].as<uint64_t>();
  o.blocks.buffers = v["buffers"].as<unsigned>();
  o.blocks.threads = o.load.threads;
  if (o.load.base != -1 && o.load.base != 0 && o.load.base != 1) throw po::error("--base must be 0 or 1");
  return o;
}

int run_command(const std::string& program, const std::function<int(int, char**)>& command, int argc, char** argv) {
  remove_temporaries_on_signals();  // Ctrl-C or a kill leaves no half-written output
  try {
    return command(argc, argv);
  } catch (const po::error& e) {
    std::cerr << program << ": " << e.what() << " (see " << program << " --help)\n";
    return exit_usage;
  } catch (const std::invalid_argument& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return exit_error;
  }
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

}  // namespace sluice::tools
