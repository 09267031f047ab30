// Shared by the test suites: a deliberately simple graph representation,
// reference parsers written the obvious way (streams, no parallelism), the
// graph shapes every reader is tried on, and temporary directories.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/array.hpp"
#include "base/errors.hpp"
#include "base/sanitizers.hpp"
#include "formats/block_graph.hpp"
#include "formats/writers.hpp"
#include "layout/sluice_layout.hpp"

namespace sluice::test {

// Built with a sanitizer: the slowest suites then cover fewer combinations
// (every code path still, over fewer repetitions of it).
#if defined(SLUICE_ADDRESS_SANITIZER) || defined(SLUICE_THREAD_SANITIZER)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// The tests reach into every layer below the engine.
using namespace sluice::base;
using namespace sluice::layout;
using namespace sluice::formats;

struct Edge {
  uint64_t u, v;
  float w;
  bool operator==(const Edge& o) const { return u == o.u && v == o.v && w == o.w; }
};

struct RefGraph {
  std::string name;
  uint64_t n = 0;
  std::vector<Edge> edges;
  bool weighted = false;

  // CSR order: by source, ties in input order.
  RefGraph csr_order() const {
    RefGraph g = *this;
    std::stable_sort(g.edges.begin(), g.edges.end(), [](const Edge& a, const Edge& b) { return a.u < b.u; });
    return g;
  }
};

inline void PrintTo(const Edge& e, std::ostream* os) { *os << "(" << e.u << "," << e.v << "," << e.w << ")"; }

// Everything a BlockGraph holds, read synchronously vertex range by range.
inline RefGraph read_all(BlockGraph& graph) {
  RefGraph g;
  g.n = graph.info().vertices;
  g.weighted = graph.info().weighted;
  std::vector<uint64_t> offsets = graph.offsets(0, g.n);
  const uint64_t m = offsets.back();
  std::vector<char> targets(m * graph.info().id_bytes + 8);
  std::vector<float> weights(m + 1);
  graph.read_edges(0, g.n, targets.data(), weights.data());
  for (uint64_t v = 0; v < g.n; ++v) {
    for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      uint64_t t = graph.info().id_bytes == 4 ? reinterpret_cast<uint32_t*>(targets.data())[e]
                                              : reinterpret_cast<uint64_t*>(targets.data())[e];
      g.edges.push_back({v, t, g.weighted ? weights[e] : 1.0f});
    }
  }
  return g;
}

inline void expect_same_graph(const RefGraph& expected, const RefGraph& actual, const std::string& context = "") {
  EXPECT_EQ(expected.n, actual.n) << context;
  EXPECT_EQ(expected.weighted, actual.weighted) << context;
  ASSERT_EQ(expected.edges.size(), actual.edges.size()) << context;
  for (size_t i = 0; i < expected.edges.size(); ++i) {
    ASSERT_EQ(expected.edges[i], actual.edges[i]) << context << " edge " << i;
  }
}

// The reference edge-list parser: one line at a time with a string stream.
inline RefGraph reference_parse_edge_list(const std::string& path, int base = 0) {
  std::ifstream in(path);
  RefGraph g;
  std::string line;
  uint64_t max_id = 0;
  bool any = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '#' || first[0] == '%') {
      if (line.find("Nodes:") != std::string::npos) {
        std::istringstream rest(line.substr(line.find("Nodes:") + 6));
        rest >> g.n;
      }
      continue;
    }
    uint64_t u = std::stoull(first) - base, v;
    words >> v;
    v -= base;
    float w = 1.0f;
    if (words >> w) g.weighted = true;
    g.edges.push_back({u, v, w});
    max_id = std::max({max_id, u, v});
    any = true;
  }
  if (g.n == 0 && any) g.n = max_id + 1;
  return g;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string edge_list_text(const RefGraph& g, bool weights) {
  std::ostringstream out;
  out << "# Nodes: " << g.n << " Edges: " << g.edges.size() << "\n";
  for (auto& e : g.edges) {
    out << e.u << " " << e.v;
    if (weights) out << " " << e.w;
    out << "\n";
  }
  return out.str();
}

// The shapes every reader and writer is tried on.
// Build options from bits: 1 symmetrize, 2 transpose, 4 drop self loops,
// 8 remove duplicates, 16 sort, 32 relabel, 64 reorder by degree.
inline BuildOptions build_options_from_bits(int bits) {
  BuildOptions o;
  o.symmetrize = bits & 1;
  o.transpose = bits & 2;
  o.drop_self_loops = bits & 4;
  o.remove_duplicates = bits & 8;
  o.sort_neighbors = bits & 16;
  o.relabel = bits & 32;
  o.order_by_degree = bits & 64;
  return o;
}

inline std::vector<RefGraph> graph_shapes(bool weighted) {
  std::vector<RefGraph> shapes;
  auto add = [&](std::string name, uint64_t n, std::vector<std::pair<uint64_t, uint64_t>> pairs) {
    RefGraph g;
    g.name = std::move(name);
    g.n = n;
    g.weighted = weighted;
    for (size_t i = 0; i < pairs.size(); ++i) {
      g.edges.push_back({pairs[i].first, pairs[i].second, weighted ? float(i % 7) + 0.25f : 1.0f});
    }
    shapes.push_back(g);
  };
  add("no_edges", 5, {});
  add("one_vertex", 1, {});
  add("one_self_loop", 1, {{0, 0}});
  add("self_loops", 4, {{0, 0}, {1, 1}, {1, 2}, {3, 3}});
  add("duplicates", 3, {{0, 1}, {0, 1}, {1, 2}, {0, 1}, {2, 0}});
  add("isolated", 10, {{2, 7}, {7, 2}, {9, 0}});
  std::vector<std::pair<uint64_t, uint64_t>> star, chain;
  for (uint64_t i = 1; i < 3000; ++i) star.push_back({0, i});
  for (uint64_t i = 0; i + 1 < 2500; ++i) chain.push_back({i, i + 1});
  add("star", 3000, star);
  add("chain", 2500, chain);
  std::mt19937_64 random(42);
  std::vector<std::pair<uint64_t, uint64_t>> uniform, skewed;
  for (int i = 0; i < 20000; ++i) uniform.push_back({random() % 1500, random() % 1500});
  // A crude RMAT: recursive quadrant choice with a = .57, b = c = .19.
  for (int i = 0; i < 20000; ++i) {
    uint64_t u = 0, v = 0;
    for (int level = 0; level < 11; ++level) {
      double r = double(random() % 1000000) / 1e6;
      u = u * 2 + (r >= 0.76);
      v = v * 2 + ((r >= 0.57 && r < 0.76) || r >= 0.95);
    }
    skewed.push_back({u, v});
  }
  add("uniform", 1500, uniform);
  add("rmat", 2048, skewed);
  return shapes;
}

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sluice-test-XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    path_ = ::mkdtemp(name.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }
  const std::string& path() const { return path_; }
  // Every regular file under the directory, relative names, sorted.
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (auto& entry : std::filesystem::recursive_directory_iterator(path_)) {
      if (entry.is_regular_file()) out.push_back(std::filesystem::relative(entry.path(), path_).string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string path_;
};

// `f` throws an InputError whose message holds every piece.
template <class F>
void expect_error_with(F&& f, const std::vector<std::string>& pieces) {
  try {
    f();
    ADD_FAILURE() << "no InputError; expected one with '" << (pieces.empty() ? "" : pieces[0]) << "'";
  } catch (const InputError& e) {
    for (auto& piece : pieces) EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << "'" << piece << "' not in: " << e.what();
  }
}

// Opens a hand-made edge-list file of `g` through the block API.
inline std::unique_ptr<BlockGraph> open_as_edge_list(const TempDir& dir, const RefGraph& g, const OpenOptions& options = {}) {
  std::string path = dir / (g.name + (g.weighted ? ".wel" : ".el"));
  write_text(path, edge_list_text(g, g.weighted));
  return BlockGraph::open(path, options);
}

// Writes `g` in sluice's layout over `drives` drive directories (and its
// transpose when asked; gap-coded pages with `compress`; each vertex's
// first `sample_edges` targets in a side file, as convert does by
// default); returns the manifest's path.
inline std::string layout_on_drives(const TempDir& dir, const RefGraph& g, unsigned drives, bool transpose = false,
                                    bool compress = false, uint32_t sample_edges = 2) {
  auto graph = open_as_edge_list(dir, g);
  WriteOptions options;
  options.compress = compress;
  options.sample_edges = sample_edges;
  const std::string name = g.name + (transpose ? "-t" : "") + (compress ? "-c" : "") +
                           (sample_edges != 2 ? "-s" + std::to_string(sample_edges) + "-" : "") + std::to_string(drives);
  for (unsigned d = 0; d < drives; ++d) {
    std::string drive = dir / (name + "-drive" + std::to_string(d));
    std::filesystem::create_directories(drive);
    options.drive_dirs.push_back(drive);
  }
  std::unique_ptr<BlockGraph> reversed;
  if (transpose) {
    reversed = transpose_of(*graph, 0);  // OpenMP's threads: one under TSan (OMP_NUM_THREADS=1)
    options.transpose = reversed.get();
  }
  std::string path = dir / (name + ".sluice");
  write_graph(*graph, path, "sluice", options);
  return path;
}

// A result's array as a vector, to compare with a reference.
template <class T>
std::vector<T> as_vector(const base::Array<T>& values) {
  return std::vector<T>(values.begin(), values.end());
}

// The size of an edge set's sample file (layout/sampled_targets.hpp) of
// n vertices, k 32-bit targets each: header, body, a checksum per piece.
inline uint64_t sample_file_bytes(uint64_t n, uint64_t k) { return 64 + n * k * 4 + 8 * ((n + 16383) / 16384); }

}  // namespace sluice::test
