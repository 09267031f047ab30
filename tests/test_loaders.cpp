// Each reader against the simple reference parser, on hand-written files and
// on every graph shape.
#include "formats/csr_builder.hpp"
#include "formats/loaders.hpp"
#include "layout/sluice_layout.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

TEST(EdgeListReader, MatchesReferenceOnEveryShape) {
  TempDir dir;
  for (bool weighted : {false, true}) {
    for (const RefGraph& g : graph_shapes(weighted)) {
      for (int threads : {1, 2, 3}) {
        OpenOptions options;
        options.load.threads = threads;
        auto graph = open_as_edge_list(dir, g, options);
        std::string path = dir / (g.name + (weighted ? ".wel" : ".el"));
        RefGraph expected = reference_parse_edge_list(path).csr_order();
        expected.weighted = weighted;
        expect_same_graph(expected, read_all(*graph), g.name + " threads " + std::to_string(threads));
      }
    }
  }
}

// A SNAP header's "# Nodes:" describes the file, it does not bound it:
// web-Google and cit-Patents declare fewer nodes than their largest id + 1.
TEST(EdgeListReader, SnapHeaderCountIsALowerBound) {
  TempDir dir;
  write_text(dir / "gaps.txt", "# Nodes: 5 Edges: 3\n0 9\n9 2\n4 1\n");
  auto gaps = BlockGraph::open(dir / "gaps.txt");
  EXPECT_EQ(gaps->info().vertices, 10u);
  EXPECT_EQ(read_all(*gaps).edges.size(), 3u);
  write_text(dir / "isolated.txt", "# Nodes: 50 Edges: 1\n0 9\n");
  EXPECT_EQ(BlockGraph::open(dir / "isolated.txt")->info().vertices, 50u);  // isolated vertices past the ids are kept
}

TEST(EdgeListReader, CommentsBlankLinesTabsAndCarriageReturns) {
  TempDir dir;
  std::string path = dir / "snap.txt";
  write_text(path,
             "# Directed graph (each unordered pair of nodes is saved once): Example.txt\n"
             "# Nodes: 6 Edges: 4\n"
             "% a Matrix-Market-style comment\n"
             "\n"
             "0\t1\r\n"
             "   \n"
             "  2   3  \n"
             "  # an indented comment\n"
             "4 1\n"
             "0 2");  // no final newline
  auto graph = BlockGraph::open(path);
  RefGraph g = read_all(*graph);
  EXPECT_EQ(g.n, 6u);
  ASSERT_EQ(g.edges.size(), 4u);
  EXPECT_EQ(g.edges[0], (Edge{0, 1, 1}));
  EXPECT_EQ(g.edges[1], (Edge{0, 2, 1}));
  EXPECT_EQ(g.edges[2], (Edge{2, 3, 1}));
  EXPECT_EQ(g.edges[3], (Edge{4, 1, 1}));
}

TEST(EdgeListReader, WeightColumnIsDetectedInEl) {
  TempDir dir;
  std::string path = dir / "w.el";
  write_text(path, "0 1 0.5\n1 2 -3e2\n2 0 +7\n");
  auto graph = BlockGraph::open(path);
  EXPECT_TRUE(graph->info().weighted);
  RefGraph g = read_all(*graph);
  EXPECT_EQ(g.edges[0], (Edge{0, 1, 0.5f}));
  EXPECT_EQ(g.edges[1], (Edge{1, 2, -300.0f}));
  EXPECT_EQ(g.edges[2], (Edge{2, 0, 7.0f}));
}

TEST(EdgeListReader, OneBasedIds) {
  TempDir dir;
  std::string path = dir / "one.el";
  write_text(path, "1 2\n3 1\n");
  OpenOptions options;
  options.load.base = 1;
  RefGraph g = read_all(*BlockGraph::open(path, options));
  EXPECT_EQ(g.n, 3u);
  EXPECT_EQ(g.edges[0], (Edge{0, 1, 1}));
  EXPECT_EQ(g.edges[1], (Edge{2, 0, 1}));
}

TEST(EdgeListReader, IdsBeyond32BitsUse64BitIds) {
  TempDir dir;
  std::string path = dir / "wide.el";
  write_text(path, "0 5000000000\n5000000000 1\n");
  LoadOptions load;
  AnyEdgeList edges = read_text_edge_list(path, load, false);
  ASSERT_TRUE(std::holds_alternative<EdgeList<uint64_t>>(edges));
  auto& list = std::get<EdgeList<uint64_t>>(edges);
  EXPECT_EQ(list.vertices, 5000000001u);
  EXPECT_EQ(list.targets[0], 5000000000u);
  EXPECT_EQ(list.sources[1], 5000000000u);
}

TEST(MatrixMarketReader, PatternIntegerRealGeneralSymmetric) {
  TempDir dir;
  std::string general = dir / "g.mtx";
  write_text(general,
             "%%MatrixMarket matrix coordinate real general\n% comment\n%\n3 4 3\n1 2 0.5\n3 4 1.5\n2 2 2\n");
  RefGraph g = read_all(*BlockGraph::open(general));
  EXPECT_EQ(g.n, 4u);
  EXPECT_TRUE(g.weighted);
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0], (Edge{0, 1, 0.5f}));
  EXPECT_EQ(g.edges[1], (Edge{1, 1, 2.0f}));
  EXPECT_EQ(g.edges[2], (Edge{2, 3, 1.5f}));

  std::string symmetric = dir / "s.mtx";
  write_text(symmetric, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 3\n");
  RefGraph s = read_all(*BlockGraph::open(symmetric));
  EXPECT_FALSE(s.weighted);
  // Off-diagonal entries appear in both directions, the diagonal once.
  std::vector<Edge> expected = {{0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {2, 0, 1}, {2, 2, 1}};
  EXPECT_EQ(s.edges, expected);

  std::string integer = dir / "i.mtx";
  write_text(integer, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 -4\n");
  RefGraph i = read_all(*BlockGraph::open(integer));
  EXPECT_EQ(i.edges[0], (Edge{1, 0, -4.0f}));
}

TEST(MatrixMarketReader, MatchesReferenceOnEveryShape) {
  TempDir dir;
  for (const RefGraph& g : graph_shapes(true)) {
    std::ostringstream text;
    text << "%%MatrixMarket matrix coordinate real general\n" << g.n << " " << g.n << " " << g.edges.size() << "\n";
    for (auto& e : g.edges) text << e.u + 1 << " " << e.v + 1 << " " << e.w << "\n";
    std::string path = dir / (g.name + ".mtx");
    write_text(path, text.str());
    expect_same_graph(g.csr_order(), read_all(*BlockGraph::open(path)), g.name);
  }
}

TEST(AdjacencyGraphReader, LigraTextFormat) {
  TempDir dir;
  std::string path = dir / "g.adj";
  write_text(path, "AdjacencyGraph\n4\n5\n0\n2\n2\n4\n1\n2\n0\n3\n1\n");
  RefGraph g = read_all(*BlockGraph::open(path));
  std::vector<Edge> expected = {{0, 1, 1}, {0, 2, 1}, {2, 0, 1}, {2, 3, 1}, {3, 1, 1}};
  EXPECT_EQ(g.n, 4u);
  EXPECT_EQ(g.edges, expected);

  std::string weighted = dir / "w.adj";
  write_text(weighted, "WeightedAdjacencyGraph 2 2  0 1  1 0  5 7");  // any whitespace separates
  RefGraph w = read_all(*BlockGraph::open(weighted));
  std::vector<Edge> expected_w = {{0, 1, 5}, {1, 0, 7}};
  EXPECT_EQ(w.edges, expected_w);
}

TEST(BinaryEdgeListReader, PairsOf32And64BitIds) {
  TempDir dir;
  std::vector<uint32_t> narrow = {0, 1, 3, 2, 1, 1};
  std::ofstream(dir / "g.bel", std::ios::binary).write(reinterpret_cast<char*>(narrow.data()), narrow.size() * 4);
  RefGraph g = read_all(*BlockGraph::open(dir / "g.bel"));
  std::vector<Edge> expected = {{0, 1, 1}, {1, 1, 1}, {3, 2, 1}};
  EXPECT_EQ(g.n, 4u);
  EXPECT_EQ(g.edges, expected);

  std::vector<uint64_t> wide = {0, 1, 3, 2, 1, 1};
  std::ofstream(dir / "g.bel64", std::ios::binary).write(reinterpret_cast<char*>(wide.data()), wide.size() * 8);
  EXPECT_EQ(read_all(*BlockGraph::open(dir / "g.bel64")).edges, expected);

  std::vector<uint64_t> huge = {0, uint64_t(1) << 33};
  std::ofstream(dir / "h.bel64", std::ios::binary).write(reinterpret_cast<char*>(huge.data()), 16);
  AnyEdgeList h = read_binary_edge_list(dir / "h.bel64", 8, LoadOptions{});
  ASSERT_TRUE(std::holds_alternative<EdgeList<uint64_t>>(h));
  EXPECT_EQ(std::get<EdgeList<uint64_t>>(h).vertices, (uint64_t(1) << 33) + 1);

  // No edges at all is an empty file, and a valid graph.
  write_text(dir / "none.bel", "");
  OpenOptions three;
  three.load.vertices = 3;
  EXPECT_EQ(BlockGraph::open(dir / "none.bel", three)->info().vertices, 3u);
}

TEST(FormatDetection, ByExtensionAndByMagic) {
  TempDir dir;
  EXPECT_EQ(detect_format("x.el"), "el");
  EXPECT_EQ(detect_format("x.wel"), "wel");
  EXPECT_EQ(detect_format("x.mtx"), "mtx");
  EXPECT_EQ(detect_format("x.gr.index"), "blaze");
  EXPECT_EQ(detect_format("x.sluice"), "sluice");
  write_text(dir / "noext1", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n");
  write_text(dir / "noext2", "AdjacencyGraph\n0\n0\n");
  write_text(dir / "noext3", "0 1\n");
  EXPECT_EQ(detect_format(dir / "noext1"), "mtx");
  EXPECT_EQ(detect_format(dir / "noext2"), "adj");
  EXPECT_EQ(detect_format(dir / "noext3"), "el");
}

}  // namespace
}  // namespace sluice::test
