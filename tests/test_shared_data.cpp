// The real graphs in ../shared/data: the RMAT arc list and the cnr-2000
// reference decode, loaded by sluice and by the reference parser.
#include <cstdio>

#include "formats/writers.hpp"
#include "layout/sluice_layout.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

const std::string shared = SLUICE_SHARED_DATA;

// gzip -dc into a file of the temporary directory.
std::string gunzip(const TempDir& dir, const std::string& gz, const std::string& name) {
  std::string out = dir / name;
  std::string command = "gzip -dc '" + gz + "' > '" + out + "'";
  if (std::system(command.c_str()) != 0) ADD_FAILURE() << "cannot run: " << command;
  return out;
}

// WebGraph's ASCIIGraph text (node count, then successors of node i on line
// i + 1) rewritten as an edge list, with the reference graph alongside.
RefGraph ascii_graph_to_edge_list(const std::string& text_path, const std::string& el_path) {
  std::ifstream in(text_path);
  RefGraph g;
  std::string line;
  std::getline(in, line);
  g.n = std::stoull(line);
  std::ofstream out(el_path);
  out << "# Nodes: " << g.n << "\n";
  for (uint64_t v = 0; v < g.n && std::getline(in, line); ++v) {
    std::istringstream words(line);
    uint64_t t;
    while (words >> t) {
      g.edges.push_back({v, t, 1.0f});
      out << v << "\t" << t << "\n";
    }
  }
  return g;
}

TEST(SharedData, Rmat14ArcListMatchesReference) {
  if (!std::filesystem::exists(shared + "/rmat14-bv/rmat14.arcs.gz")) GTEST_SKIP() << "no " << shared;
  TempDir dir;
  std::string arcs = gunzip(dir, shared + "/rmat14-bv/rmat14.arcs.gz", "rmat14.tsv");
  RefGraph expected = reference_parse_edge_list(arcs);
  EXPECT_EQ(expected.edges.size(), 120019u);
  OpenOptions open;
  open.load.vertices = 16384;
  open.load.threads = 3;
  auto graph = BlockGraph::open(arcs, open);
  expected.n = 16384;
  expect_same_graph(expected.csr_order(), read_all(*graph));
}

TEST(SharedData, Cnr2000ThroughSluiceLayoutOnThreeDrives) {
  if (!std::filesystem::exists(shared + "/cnr-2000/cnr-2000.graph-txt.gz")) GTEST_SKIP() << "no " << shared;
  TempDir dir;
  std::string text = gunzip(dir, shared + "/cnr-2000/cnr-2000.graph-txt.gz", "cnr.txt");
  RefGraph expected = ascii_graph_to_edge_list(text, dir / "cnr.el");
  EXPECT_EQ(expected.n, 325557u);
  EXPECT_EQ(expected.edges.size(), 3216152u);
  auto graph = BlockGraph::open(dir / "cnr.el");
  WriteOptions options;
  for (int d = 0; d < 3; ++d) {
    std::filesystem::create_directories(dir / ("d" + std::to_string(d)));
    options.drive_dirs.push_back(dir / ("d" + std::to_string(d)));
  }
  write_graph(*graph, dir / "cnr.sluice", "sluice", options);
  SluiceLayout(dir / "cnr.sluice").verify();
  OpenOptions open;
  open.blocks.block_edges = 100000;
  expect_same_graph(expected, read_all(*BlockGraph::open(dir / "cnr.sluice", open)));
}

}  // namespace
}  // namespace sluice::test
