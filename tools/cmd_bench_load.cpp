// sluice bench-load FILE: how fast an edge-list file becomes a CSR, split
// into the plain read of the file (what `cat` costs), parsing and building;
// for a WebGraph BV graph, how fast it decodes per thread.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include <atomic>
#include <filesystem>

#include "formats/csr_builder.hpp"
#include "formats/loaders.hpp"
#include "formats/webgraph_bv.hpp"
#include "programs/command_line.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double read_whole_file(const std::string& path) {
  auto start = std::chrono::steady_clock::now();
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error(path + ": cannot open");
  std::vector<char> buffer(1 << 20);
  while (::read(fd, buffer.data(), buffer.size()) > 0) {
  }
  ::close(fd);
  return seconds_since(start);
}

// A BV graph: the offsets pass at open, then every list decoded through the
// asynchronous block API; ParaGrapher's model needs the compression ratio r
// (uncompressed CSR edge bytes / compressed bytes) and the decode bandwidth
// d (uncompressed edge bytes produced per second).
int bench_bv(const std::string& path, int threads, int repeat) {
  const std::string base = formats::bv_basename(path);
  const uint64_t compressed = std::filesystem::file_size(base + ".graph");
  std::printf("%-7s %8s %9s %12s %16s %8s %10s\n", "threads", "open_s", "decode_s", "decode_Me/s",
              "Me/s_per_thread", "ratio_r", "d_MB/s");
  for (int run = 0; run < repeat; ++run) {
    auto start = std::chrono::steady_clock::now();
    formats::OpenOptions options;
    options.format = "bv";
    options.load.threads = threads;
    options.blocks.threads = threads;
    options.blocks.buffers = unsigned(2 * threads);
    options.blocks.block_edges = 1 << 18;
    auto graph = formats::BlockGraph::open(path, options);
    double open_s = seconds_since(start);
    auto decode_start = std::chrono::steady_clock::now();
    std::atomic<uint64_t> edges{0};
    auto id = graph->request(0, graph->info().vertices, [&](const formats::EdgeBlock& block) {
      edges += block.edges;
      graph->release(block);
    });
    graph->wait(id);
    double decode_s = seconds_since(decode_start);
    double uncompressed = double(edges) * graph->info().id_bytes;
    std::printf("%-7d %8.3f %9.3f %12.1f %16.1f %8.2f %10.1f\n", threads, open_s, decode_s, double(edges) / decode_s / 1e6,
                double(edges) / decode_s / 1e6 / threads, uncompressed / double(compressed), uncompressed / decode_s / 1e6);
  }
  return exit_ok;
}

}  // namespace

int cmd_bench_load(int argc, char** argv) {
  po::options_description options("sluice bench-load FILE");
  options.add_options()
    ("file", po::value<std::string>()->required(), "edge list (el, wel, mtx, bel, bel64) or WebGraph BV graph")
    ("format", po::value<std::string>()->default_value(""), "format (default: from the name)")
    ("repeat,r", po::value<int>()->default_value(3), "runs; each is reported");
  add_threads_option(options);
  po::positional_options_description positionals;
  positionals.add("file", 1);
  po::variables_map values;
  if (!parse_command_line(argc, argv, "usage: sluice bench-load FILE [--threads N] [--repeat R]", options, positionals, values)) {
    return exit_ok;
  }
  const std::string path = values["file"].as<std::string>();
  std::string format = values["format"].as<std::string>();
  if (format.empty()) format = formats::detect_format(path);
  formats::LoadOptions load;
  load.threads = base::resolve_threads(threads_option(values));
  if (format == "bv") return bench_bv(path, load.threads, values["repeat"].as<int>());
  formats::BuildOptions build;
  build.threads = load.threads;

  std::printf("%-6s %-7s %8s %8s %8s %8s %12s %12s\n", "format", "threads", "read_s", "parse_s", "build_s", "total_s",
              "parse_Me/s", "total_Me/s");
  for (int run = 0; run < values["repeat"].as<int>(); ++run) {
    double read_s = read_whole_file(path);
    auto start = std::chrono::steady_clock::now();
    formats::AnyEdgeList edges;
    bool symmetric = false;
    if (format == "el" || format == "wel") {
      edges = formats::read_text_edge_list(path, load, format == "wel");
    } else if (format == "mtx") {
      formats::MatrixMarketGraph mtx = formats::read_matrix_market(path, load);
      edges = std::move(mtx.edges);
      symmetric = mtx.symmetric;
    } else if (format == "bel" || format == "bel64") {
      edges = formats::read_binary_edge_list(path, format == "bel" ? 4 : 8, load);
    } else {
      throw po::error("bench-load times edge-list formats (el, wel, mtx, bel, bel64), not " + format);
    }
    double parse_s = seconds_since(start);
    auto build_start = std::chrono::steady_clock::now();
    formats::BuildOptions b = build;
    b.symmetrize = symmetric;
    formats::AnyCsr csr = formats::build_any_csr(edges, b);
    double build_s = seconds_since(build_start);
    uint64_t m = std::visit([](auto& e) { return e.size(); }, edges);
    double total = parse_s + build_s;
    std::printf("%-6s %-7d %8.3f %8.3f %8.3f %8.3f %12.1f %12.1f\n", format.c_str(), load.threads, read_s, parse_s,
                build_s, total, double(m) / parse_s / 1e6, double(m) / total / 1e6);
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak resident memory: %.1f MiB\n", double(usage.ru_maxrss) / 1024.0);
  return exit_ok;
}

}  // namespace sluice::tools
