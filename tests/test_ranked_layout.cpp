// A layout split for MPI ranks (formats/ranked_writer.hpp,
// layout/ranked_layout.hpp): the ranges, what each part holds, and what
// is refused. tests/cli/ranks.sh runs the programs on such layouts.
#include <numeric>

#include "formats/ranked_writer.hpp"
#include "layout/sampled_targets.hpp"
#include "test_support.hpp"

namespace sluice::test {
namespace {

TEST(RankedLayout, RangesBalanceVerticesAndInEdges) {
  // One vertex holds half the in-edges: the ranges stay contiguous, cover
  // every vertex, and none weighs more than its share plus one vertex.
  std::vector<uint64_t> in(1000, 1);
  in[10] = 1000;
  for (unsigned ranks : {1u, 2u, 3u, 7u}) {
    const std::vector<uint64_t> b = rank_boundaries(in, ranks, 1);
    ASSERT_EQ(b.size(), ranks + 1);
    EXPECT_EQ(b.front(), 0u);
    EXPECT_EQ(b.back(), in.size());
    const double total = std::accumulate(in.begin(), in.end(), 0.0) + double(in.size());
    for (unsigned r = 0; r < ranks; ++r) {
      ASSERT_LE(b[r], b[r + 1]);
      double weight = 0;
      for (uint64_t v = b[r]; v < b[r + 1]; ++v) weight += 1 + double(in[v]);
      EXPECT_LE(weight, total / ranks + 1001) << ranks << " ranks, rank " << r;
    }
  }
  EXPECT_EQ(rank_boundaries({}, 2, 1), (std::vector<uint64_t>{0, 0, 0}));
}

TEST(RankedLayout, RangesOfLargeGraphsAreWholeSamplePieces) {
  // A rank then reads its own range's samples and none of its neighbours'.
  constexpr uint64_t piece = layout::SampleFile::piece_vertices;
  std::vector<uint64_t> in(3 * 8 * piece + 5, 2);
  in[12345] = 100000;
  const std::vector<uint64_t> b = rank_boundaries(in, 3, 2);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b.back(), in.size());
  for (unsigned r = 1; r < 3; ++r) {
    EXPECT_EQ(b[r] % piece, 0u) << "bound " << r << ": " << b[r];
    EXPECT_LT(b[r - 1], b[r]);
  }
}

TEST(RankedLayout, EachPartHoldsTheEdgesIntoItsRange) {
  for (const RefGraph& g : graph_shapes(true)) {
    if (g.n < 3) continue;
    TempDir dir;
    auto graph = open_as_edge_list(dir, g);
    RankedWriteOptions options;
    options.ranks = 3;
    options.transpose = true;
    write_ranked_sluice_layout(*graph, dir / "r.sluice", options);
    const Manifest top = Manifest::read(dir / "r.sluice");
    ASSERT_EQ(top.parts.size(), 3u) << g.name;
    std::vector<Edge> seen;
    for (unsigned r = 0; r < 3; ++r) {
      BlockGraph part(open_sluice_layout(dir / "r.sluice", false, RankChoice{r, 3}), BlockOptions{});
      const RefGraph held = read_all(part);
      EXPECT_EQ(held.n, g.n);
      for (const Edge& e : held.edges) {
        EXPECT_GE(e.v, top.parts[r].begin) << g.name;
        EXPECT_LT(e.v, top.parts[r].end) << g.name;
        seen.push_back(e);
      }
      SluiceLayout(dir / "r.sluice", RankChoice{r, 3}).verify();
    }
    std::vector<Edge> expected = g.edges;
    auto order = [](const Edge& a, const Edge& b) { return std::tie(a.u, a.v, a.w) < std::tie(b.u, b.v, b.w); };
    std::sort(expected.begin(), expected.end(), order);
    std::sort(seen.begin(), seen.end(), order);
    EXPECT_EQ(seen, expected) << g.name;
  }
}

TEST(RankedLayout, RefusesWhatWouldLoseEdges) {
  TempDir dir;
  auto graph = open_as_edge_list(dir, graph_shapes(false).back());
  RankedWriteOptions options;
  options.ranks = 2;
  write_ranked_sluice_layout(*graph, dir / "r.sluice", options);
  write_graph(*graph, dir / "plain.sluice", "sluice", WriteOptions{});
  auto message = [](auto&& open) {
    try {
      open();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { SluiceLayout(dir / "r.sluice"); }).find("is a layout split for 2 ranks"), std::string::npos);
  EXPECT_NE(message([&] { SluiceLayout(dir / "r.sluice", RankChoice{0, 3}); }).find("was split for 2 ranks, and this job runs 3"), std::string::npos);
  EXPECT_NE(message([&] { SluiceLayout(dir / "r.part1.sluice"); }).find("is part 1 of 2 of the ranked layout"), std::string::npos);
  EXPECT_NE(message([&] { SluiceLayout(dir / "plain.sluice", RankChoice{1, 2}); }).find("is not split into ranks, and this job runs 2"), std::string::npos);
  std::filesystem::copy_file(dir / "r.part0.sluice", dir / "r.part1.sluice", std::filesystem::copy_options::overwrite_existing);
  EXPECT_NE(message([&] { SluiceLayout(dir / "r.sluice", RankChoice{1, 2}); }).find("says it is part 0 of 2"), std::string::npos);
}

}  // namespace
}  // namespace sluice::test
