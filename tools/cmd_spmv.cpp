// spmv GRAPH.sluice: y = A x (or A^T x) over the edge weights, out of core.
#include <charconv>
#include <cstdio>

#include "algorithms/spmv.hpp"
#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "tools/algorithm_program.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

namespace {

// x from a file: text, one number per line, or binary float64 values.
std::vector<double> read_vector(const std::string& path, const std::string& format, uint64_t n) {
  base::MappedFile file(path);
  std::vector<double> x;
  x.reserve(n);
  const char* data = file.data();
  const size_t size = file.size();
  if (format == "binary") {
    if (size != n * sizeof(double)) {
      throw base::InputError(path, "", "expected " + std::to_string(n) + " float64 values (" + std::to_string(n * 8) + " bytes), found " + std::to_string(size) + " bytes");
    }
    x.resize(n);
    std::memcpy(x.data(), data, size);
    return x;
  }
  uint64_t line = 1;
  for (size_t at = 0; at < size;) {
    size_t end = at;
    while (end < size && data[end] != '\n') ++end;
    if (end > at) {
      double value;
      auto [ptr, ec] = std::from_chars(data + at, data + end, value);
      if (ec != std::errc() || ptr != data + end) throw base::InputError(path, "line " + std::to_string(line), "expected one number");
      x.push_back(value);
    }
    at = end + 1;
    ++line;
  }
  if (x.size() != n) throw base::InputError(path, "", "expected " + std::to_string(n) + " values, one per vertex, found " + std::to_string(x.size()));
  return x;
}

}  // namespace

int cmd_spmv(int argc, char** argv) {
  po::options_description options("spmv GRAPH.sluice");
  options.add_options()
    ("x", po::value<std::string>()->default_value(""), "the vector x, one value per vertex (text, or float64 with --output-format binary); default all ones")
    ("transposed", po::bool_switch(), "compute A^T x over the out-edges (needs no transpose) instead of A x");
  add_program_options(options, "write y, one value per vertex, to this file");
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: spmv GRAPH.sluice [--x FILE] [--transposed] [--output FILE] [engine options]\n"
                          "A[i][j] is the weight of edge i -> j (1 when unweighted); A x reads the transpose.",
                          options, positionals, v)) {
    return exit_ok;
  }
  const bool transposed = v["transposed"].as<bool>();
  AlgorithmRun run("spmv", v, transposed ? Transpose::not_needed : Transpose::needed, algorithms::spmv_bytes_per_vertex);
  run.outputs().read(v["x"].as<std::string>(), "--x");
  const uint64_t n = run.vertices();
  std::vector<double> x = v["x"].as<std::string>().empty()
                              ? std::vector<double>(n, 1.0)
                              : read_vector(v["x"].as<std::string>(), output_format(v), n);
  run.parameter("product", std::string(transposed ? "A^T x" : "A x"));
  run.parameter("x", v["x"].as<std::string>().empty() ? std::string("ones") : v["x"].as<std::string>());
  std::vector<double> y;
  for (unsigned trial = 0; trial < run.trials(); ++trial) {
    auto start = std::chrono::steady_clock::now();
    y = algorithms::spmv(transposed ? run.out() : run.in_or_out(), x, run.trace());
    const double seconds = seconds_since(start);
    double sum = 0, norm = 0;
    for (double value : y) sum += value, norm += value * value;
    char digest[128];
    std::snprintf(digest, sizeof(digest), "%s: sum of y %.6g, |y| %.6g", transposed ? "y = A^T x" : "y = A x", sum, std::sqrt(norm));
    run.print_summary(seconds, 1, digest);
  }
  run.finish(std::span<const double>(y));
  return exit_ok;
}

}  // namespace sluice::tools
