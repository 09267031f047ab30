#include "programs/command_line.hpp"

#include "base/atomic_file.hpp"
#include "base/large_blocks.hpp"
#include "base/signal_cleanup.hpp"
#include "base/thread_count.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace sluice::programs {

std::string version_line() { return std::string("sluice ") + SLUICE_VERSION; }

std::string nearest(const std::string& word, const std::vector<std::string>& known) {
  std::string best;
  size_t best_distance = 4;
  for (const std::string& k : known) {
    std::vector<size_t> row(k.size() + 1);
    for (size_t j = 0; j <= k.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= word.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= k.size(); ++j) {
        const size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (word[i - 1] == k[j - 1] ? 0 : 1)});
        diagonal = up;
      }
    }
    if (row[k.size()] < best_distance) best_distance = row[k.size()], best = k;
  }
  return best;
}

namespace {

// Boost reads "-2" into an unsigned as a huge number: refuse it by name.
template <class T>
bool is_unsigned_option(const po::value_semantic* semantic) {
  return dynamic_cast<const po::typed_value<T>*>(semantic) != nullptr;
}

void refuse_negative_unsigned(const po::parsed_options& parsed, const po::options_description& options) {
  for (const po::option& o : parsed.options) {
    const po::option_description* d = options.find_nothrow(o.string_key, false);
    if (!d) continue;
    const po::value_semantic* s = d->semantic().get();
    const bool unsigned_option = is_unsigned_option<unsigned>(s) || is_unsigned_option<unsigned long>(s) ||
                                 is_unsigned_option<unsigned long long>(s) || is_unsigned_option<ByteSize>(s);
    for (const std::string& token : o.value) {
      if (unsigned_option && !token.empty() && token[0] == '-') {
        throw po::error("--" + d->long_name() + " must not be negative (got " + token + ")");
      }
    }
  }
}

// GAPBS's flags that sluice spells otherwise, for the hint of an unknown
// option (`pr -i 20`, `bfs -g 20`): what to give instead.
const char* gapbs_equivalent(const std::string& option) {
  static const std::pair<const char*, const char*> table[] = {
      {"-g", "GAPBS's -g SCALE (a Kronecker graph) is `sluice generate rmat --scale SCALE -o g.el`, then `sluice convert g.el g.sluice`"},
      {"-u", "GAPBS's -u SCALE (a uniform graph) is `sluice generate uniform --scale SCALE -o g.el`, then `sluice convert g.el g.sluice`"},
      {"-k", "GAPBS's -k DEGREE is `sluice generate --edge-factor DEGREE`"},
      {"-s", "GAPBS's -s (symmetrize) is `sluice convert --symmetrize` (or --symmetric here, for a layout that stores both directions)"},
      {"-i", "GAPBS's pr -i ITERATIONS is sluice-pagerank's --iterations"},
      {"-a", "GAPBS's -a (the analysis of the last run) is --output FILE, and -v (--verify) checks it"},
      {"-l", "GAPBS's -l (logging within each trial) is --stats FILE: every EDGEMAP's records, as JSON lines"},
  };
  for (const auto& [flag, hint] : table) {
    if (option == flag) return hint;
  }
  return nullptr;
}

}  // namespace

bool parse_command_line(int argc, char** argv, const char* usage, po::options_description& options,
                        const po::positional_options_description& positionals, po::variables_map& values) {
  options.add_options()("help,h", "show this help")("version", "print the version");
  po::parsed_options parsed = [&] {
    try {
      return po::command_line_parser(argc, argv).options(options).positional(positionals).run();
    } catch (const po::unknown_option& e) {
      if (const char* gapbs = gapbs_equivalent(e.get_option_name())) throw po::error(std::string(e.what()) + "; " + gapbs);
      std::vector<std::string> known;
      for (const auto& d : options.options()) known.push_back("--" + d->long_name());
      const std::string hint = nearest(e.get_option_name(), known);
      throw po::error(std::string(e.what()) + (hint.empty() ? "" : "; did you mean " + hint + "?"));
    }
  }();
  refuse_negative_unsigned(parsed, options);
  try {
    po::store(parsed, values);
  } catch (const po::invalid_option_value& e) {
    // GAPBS's pr takes -t TOLERANCE; here -t is --threads.
    if (e.get_option_name() == "--threads" && options.find_nothrow("tolerance", false)) {
      throw po::error(std::string(e.what()) + "; -t is --threads here: GAPBS's pr -t TOLERANCE is --tolerance");
    }
    throw;
  }
  if (values.count("help")) {
    std::cout << usage << "\n\n" << options << "\n";
    return false;
  }
  if (values.count("version")) {
    std::cout << version_line() << "\n";
    return false;
  }
  po::notify(values);
  return true;
}

void add_read_options(po::options_description& options) {
  options.add_options()
    ("format", po::value<std::string>()->default_value(""), "input format (el, wel, mtx, adj, bel, bel64, sluice, blaze, bv); default: from the name")
    ("base", po::value<std::string>()->default_value("auto"), "ids in text input are 0- or 1-based (auto: 0, Matrix Market 1)")
    ("vertices", po::value<uint64_t>()->default_value(0), "declared vertex count (0: from the file, or max id + 1)")
    ("wide-ids", po::bool_switch(), "use 64-bit vertex ids even when 32 bits suffice")
    ("save-offsets", po::bool_switch(), "WebGraph BV: write BASENAME.offsets when it had to be built")
    ("adjacency-dirs", po::value<std::string>()->default_value(""), "Blaze input: the directories of its adjacency files, one per drive, in order (default: beside the index)")
    ("block-edges", po::value<uint64_t>()->default_value(uint64_t(1) << 20), "edges per block of the block API")
    ("buffers", po::value<unsigned>()->default_value(4), "buffers of the block API");
  add_threads_option(options);
}

void add_rebuild_options(po::options_description& options) {
  options.add_options()
    ("symmetrize", po::bool_switch(), "add the reverse of every edge")
    ("drop-self-loops", po::bool_switch(), "remove edges (v, v)")
    ("dedup", po::bool_switch(), "remove repeated edges, keeping the first (sorts neighbour lists)")
    ("sort", po::bool_switch(), "sort every neighbour list by target")
    ("reorder", po::value<std::string>()->default_value("none"), "degree: number the vertices by descending degree (in + out), so the most used share cache lines; a sluice layout keeps the map, and results name the input's ids; none: keep the order")
    ("relabel", po::bool_switch(), "keep only the ids that appear in an edge, numbered densely from 0 in the input's order (ids of any 64-bit size; a sluice layout keeps the map, and results name the input's ids)")
    ("drop-weights", po::bool_switch(), "read a weighted graph as unweighted");
}

void add_page_options(po::options_description& options) {
  options.add_options()
    ("compress", po::bool_switch(), "gap-coded edge pages, weights beside the gaps, each list sorted (sluice layout; the default): fewer bytes to read. "
                                    "Given, a graph they cannot hold (32-bit ids, more than 2^31 vertices) is refused rather than written plain")
    ("plain", po::bool_switch(), "edge pages of fixed records (4 or 8 bytes a target, 4 more a weight), each list in the input's order, instead of gap-coded ones (sluice layout)");
}

void require_output_directories(const std::string& output, const std::string& to, const formats::WriteOptions& write) {
  for (const base::NamedFile& f : formats::files_to_write(output, to, write)) {
    const std::filesystem::path dir = std::filesystem::path(f.path).parent_path();
    if (!dir.empty() && !std::filesystem::is_directory(dir)) {
      throw po::error(f.path + " (" + f.what + "): the directory " + dir.string() + " does not exist");
    }
  }
}

void page_options_from(const po::variables_map& v, const std::string& to, formats::WriteOptions& write, const char* compress_name,
                       const char* plain_name) {
  const bool compress = v["compress"].as<bool>(), plain = v["plain"].as<bool>();
  if (compress && plain) throw po::error(std::string(compress_name) + " and " + plain_name + " exclude each other");
  if ((compress || plain) && to != "sluice") throw po::error(std::string(plain ? plain_name : compress_name) + " applies to sluice's layout only");
  write.compress = !plain;
  write.compress_required = compress;
}

formats::OpenOptions open_options_from(const po::variables_map& v) {
  formats::OpenOptions o;
  o.format = v["format"].as<std::string>();
  o.load.threads = threads_option(v);
  const std::string base = v["base"].as<std::string>();
  if (base != "auto" && base != "0" && base != "1") throw po::error("--base must be 0, 1 or auto, not '" + base + "'");
  o.load.base = base == "auto" ? -1 : base == "1" ? 1 : 0;
  o.load.vertices = v["vertices"].as<uint64_t>();
  o.build.symmetrize = v.count("symmetrize") && v["symmetrize"].as<bool>();
  o.build.drop_self_loops = v.count("drop-self-loops") && v["drop-self-loops"].as<bool>();
  o.build.remove_duplicates = v.count("dedup") && v["dedup"].as<bool>();
  o.build.sort_neighbors = v.count("sort") && v["sort"].as<bool>();
  o.build.relabel = v.count("relabel") && v["relabel"].as<bool>();
  if (v.count("reorder")) {
    const std::string order = v["reorder"].as<std::string>();
    if (order != "degree" && order != "none") throw po::error("--reorder must be degree or none, not '" + order + "'");
    o.build.order_by_degree = order == "degree";
  }
  if (o.build.relabel && o.load.vertices) throw po::error("--relabel counts the vertices its edges name: leave --vertices out");
  o.build.threads = o.load.threads;
  o.load.progress = o.build.progress = true;  // shown only on a terminal
  o.drop_weights = v.count("drop-weights") && v["drop-weights"].as<bool>();
  o.load.id_bytes = v["wide-ids"].as<bool>() ? 8 : 0;
  o.save_offsets = v["save-offsets"].as<bool>();
  o.adjacency_dirs = split_list(v["adjacency-dirs"].as<std::string>());
  o.blocks.block_edges = v["block-edges"].as<uint64_t>();
  o.blocks.buffers = v["buffers"].as<unsigned>();
  o.blocks.threads = o.load.threads;
  return o;
}

namespace {
// What was printed must have reached standard output: a full disk or a
// closed pipe behind `> file` is an error, not an exit 0 with an empty file.
void flush_standard_output() {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) {
    throw std::runtime_error(std::string("standard output: write failed") + (errno ? std::string(": ") + std::strerror(errno) : ""));
  }
  // Closing reports what a delayed write (NFS) could not say before; the
  // command has printed its last.
  if (::close(STDOUT_FILENO) != 0 && errno != EBADF) {
    throw std::runtime_error(std::string("standard output: write failed: ") + std::strerror(errno));
  }
}
}  // namespace

namespace {
std::vector<std::string>& invocation_words() {
  static std::vector<std::string> words;
  return words;
}
}  // namespace

const std::vector<std::string>& invocation() { return invocation_words(); }

int run_command(const std::string& program, const std::function<int(int, char**)>& command, int argc, char** argv) {
  base::remove_temporaries_on_signals();  // Ctrl-C or a kill leaves no half-written output
  base::map_large_blocks_apart();         // a freed array's pages go back (peak RSS: base/large_blocks.hpp)
  std::vector<std::string>& words = invocation_words();
  words.assign({program});
  for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
  try {
    const int status = command(argc, argv);
    flush_standard_output();
    return status;
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

void add_threads_option(po::options_description& options, const char* what) {
  options.add_options()("threads,t", po::value<unsigned>()->default_value(0),
                        (std::string(what) + " (0: every core, or OMP_NUM_THREADS when set)").c_str());
}

int threads_option(const po::variables_map& v) {
  const unsigned requested = v["threads"].as<unsigned>();
  if (requested > unsigned(base::max_threads())) {
    throw po::error("--threads " + std::to_string(requested) + " is more than the " + std::to_string(base::max_threads()) +
                    " threads sluice allows on this machine (4 per core, at least 64)");
  }
  return requested ? base::resolve_threads(int(requested), "--threads") : 0;
}


}  // namespace sluice::programs
