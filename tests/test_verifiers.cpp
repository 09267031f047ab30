// The --verify checks (programs/verifiers.hpp) accept right results and
// name what is wrong in wrong ones.
#include "programs/verifiers.hpp"
#include "test_support.hpp"

namespace sluice::test {
namespace {

using programs::VerificationFailed;

std::string failure(const std::function<void()>& check) {
  try {
    check();
  } catch (const VerificationFailed& e) {
    return e.what();
  }
  return "passed";
}

TEST(Verifiers, AcceptRightResultsAndNameWrongOnes) {
  TempDir dir;
  // 0 -> 1 -> 2, 0 -> 2 (weight 5), and 3 alone.
  write_text(dir / "g.wel", "# Nodes: 4\n0 1 1\n1 2 1\n0 2 5\n");
  auto graph = BlockGraph::open(dir / "g.wel");
  const std::vector<int64_t> depth{0, 1, 1, -1}, parent{0, 0, 0, -1};
  EXPECT_EQ(failure([&] { programs::verify_bfs(*graph, 0, depth, parent); }), "passed");
  const std::vector<int64_t> too_deep{0, 1, 2, -1}, wrong_parent{0, 0, 1, -1};
  EXPECT_NE(failure([&] { programs::verify_bfs(*graph, 0, too_deep, wrong_parent); }).find("edge 0 -> 2 leaves 2 at depth 2"),
            std::string::npos);

  EXPECT_EQ(failure([&] { programs::verify_components(*graph, std::vector<uint64_t>{0, 0, 0, 3}); }), "passed");
  EXPECT_NE(failure([&] { programs::verify_components(*graph, std::vector<uint64_t>{0, 0, 2, 3}); }).find("joins components"),
            std::string::npos);

  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(failure([&] { programs::verify_sssp(*graph, 0, std::vector<double>{0, 1, 2, inf}); }), "passed");
  EXPECT_NE(failure([&] { programs::verify_sssp(*graph, 0, std::vector<double>{0, 1, 5, inf}); }).find("below 2's distance"),
            std::string::npos);
  EXPECT_NE(failure([&] { programs::verify_sssp(*graph, 0, std::vector<double>{0, 1, 1.5, inf}); }).find("no in-edge of vertex 2"),
            std::string::npos);

  const std::vector<double> x{1, 2, 3, 4};
  EXPECT_EQ(failure([&] { programs::verify_spmv(*graph, x, std::vector<double>{17, 3, 0, 0}, false); }), "passed");
  EXPECT_EQ(failure([&] { programs::verify_spmv(*graph, x, std::vector<double>{0, 1, 7, 0}, true); }), "passed");
  EXPECT_NE(failure([&] { programs::verify_spmv(*graph, x, std::vector<double>{17, 3, 1, 0}, false); }).find("y at vertex 2"), std::string::npos);

  // A triangle both ways plus a pendant vertex: cores 2, 2, 2, 1.
  write_text(dir / "sym.el", "0 1\n1 0\n1 2\n2 1\n0 2\n2 0\n2 3\n3 2\n");
  auto sym = BlockGraph::open(dir / "sym.el");
  EXPECT_EQ(failure([&] { programs::verify_kcore(*sym, std::vector<uint64_t>{2, 2, 2, 1}); }), "passed");
  EXPECT_NE(failure([&] { programs::verify_kcore(*sym, std::vector<uint64_t>{2, 2, 2, 2}); }).find("vertex 3"), std::string::npos);
  EXPECT_NE(failure([&] { programs::verify_kcore(*sym, std::vector<uint64_t>{1, 2, 2, 1}); }).find("vertex 0"), std::string::npos);

  // PageRank of a 2-cycle: a half each; anything else has a residual.
  write_text(dir / "cycle.el", "0 1\n1 0\n");
  auto cycle = BlockGraph::open(dir / "cycle.el");
  EXPECT_EQ(failure([&] { programs::verify_pagerank(*cycle, std::vector<double>{0.5, 0.5}, 0.85, false, 1e-9); }), "passed");
  EXPECT_NE(failure([&] { programs::verify_pagerank(*cycle, std::vector<double>{0.6, 0.4}, 0.85, false, 1e-9); }).find("above"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice::test
