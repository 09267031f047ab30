// Generated graphs depend on the seed only, never on the thread count, and
// have the shape their parameters ask for.
#include "formats/csr_builder.hpp"
#include "formats/generators.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

TEST(Generators, SameSeedSameGraphWhateverTheThreads) {
  for (const char* kind : {"rmat", "uniform"}) {
    GeneratorOptions gen;
    gen.kind = kind;
    gen.scale = 12;
    gen.edge_factor = 20;  // several chunks
    gen.weighted = true;
    gen.threads = 1;
    EdgeList<uint32_t> one = generate_edge_list<uint32_t>(gen);
    for (int threads : {2, 3, 8}) {
      gen.threads = threads;
      EdgeList<uint32_t> many = generate_edge_list<uint32_t>(gen);
      ASSERT_EQ(one.size(), many.size());
      EXPECT_TRUE(std::equal(one.sources.begin(), one.sources.end(), many.sources.begin())) << kind << threads;
      EXPECT_TRUE(std::equal(one.targets.begin(), one.targets.end(), many.targets.begin())) << kind << threads;
      EXPECT_TRUE(std::equal(one.weights.begin(), one.weights.end(), many.weights.begin())) << kind << threads;
    }
    gen.seed = 2;
    EdgeList<uint32_t> other = generate_edge_list<uint32_t>(gen);
    EXPECT_FALSE(std::equal(one.sources.begin(), one.sources.end(), other.sources.begin()));
  }
}

TEST(Generators, StreamedFileEqualsInMemoryGraph) {
  TempDir dir;
  GeneratorOptions gen;
  gen.scale = 11;
  gen.edge_factor = 40;  // 81920 edges: more than one chunk
  generate_to_file(gen, dir / "g.bel", "bel", false);
  generate_to_file(gen, dir / "g.el", "el", false);
  EdgeList<uint32_t> memory = generate_edge_list<uint32_t>(gen);
  RefGraph expected;
  expected.n = gen.vertices();
  for (uint64_t e = 0; e < memory.size(); ++e) expected.edges.push_back({memory.sources[e], memory.targets[e], 1.0f});
  expected = expected.csr_order();
  OpenOptions open;
  open.load.vertices = gen.vertices();
  expect_same_graph(expected, read_all(*BlockGraph::open(dir / "g.bel", open)));
  expect_same_graph(expected, read_all(*BlockGraph::open(dir / "g.el")));
}

TEST(Generators, RmatIsSkewedUniformIsNot) {
  GeneratorOptions gen;
  gen.scale = 14;
  gen.edge_factor = 16;
  auto degree_max = [&](const char* kind) {
    gen.kind = kind;
    Csr<uint32_t> csr = build_csr(generate_edge_list<uint32_t>(gen), BuildOptions{});
    uint64_t max = 0, zero = 0;
    for (uint64_t v = 0; v < csr.vertices; ++v) {
      max = std::max(max, csr.degree(v));
      zero += csr.degree(v) == 0;
    }
    EXPECT_EQ(csr.edges(), gen.edges());
    return std::make_pair(max, zero);
  };
  auto [rmat_max, rmat_zero] = degree_max("rmat");
  auto [uniform_max, uniform_zero] = degree_max("uniform");
  EXPECT_GT(rmat_max, 20 * gen.edge_factor);   // heavy hubs
  EXPECT_LT(uniform_max, 3 * gen.edge_factor);  // Poisson-like
  EXPECT_GT(rmat_zero, gen.vertices() / 10);   // many vertices without out-edges
  EXPECT_EQ(uniform_zero, 0u);
}

TEST(Generators, PermutationIsABijection) {
  GeneratorOptions gen;
  gen.scale = 10;
  gen.edge_factor = 64;
  gen.kind = "uniform";
  gen.permute = false;
  EdgeList<uint32_t> plain = generate_edge_list<uint32_t>(gen);
  gen.permute = true;
  EdgeList<uint32_t> permuted = generate_edge_list<uint32_t>(gen);
  std::vector<int64_t> mapping(gen.vertices(), -1);
  for (uint64_t e = 0; e < plain.size(); ++e) {
    for (auto [a, b] : {std::pair{plain.sources[e], permuted.sources[e]}, std::pair{plain.targets[e], permuted.targets[e]}}) {
      ASSERT_LT(b, gen.vertices());
      if (mapping[a] == -1) mapping[a] = b;
      ASSERT_EQ(mapping[a], int64_t(b));
    }
  }
  std::vector<int64_t> sorted = mapping;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
}

}  // namespace
}  // namespace sluice::test
