// CSR building in bounded memory (formats/external_csr.hpp) against the
// in-memory builder: the same offsets, targets, weights and id map for
// every shape, every build option, both id widths, with ranges of a few
// records each (many scratch files) and with one range.
#include <filesystem>
#include <random>

#include "formats/block_graph.hpp"
#include "formats/csr_builder.hpp"
#include "formats/external_csr.hpp"
#include "formats/relabel.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

template <class V>
EdgeList<V> edge_list_of(const RefGraph& g, uint64_t id_scale = 1) {
  EdgeList<V> list;
  list.vertices = g.n * id_scale;
  list.weighted = g.weighted;
  list.sources = Array<V>(g.edges.size());
  list.targets = Array<V>(g.edges.size());
  if (g.weighted) list.weights = Array<float>(g.edges.size());
  for (size_t i = 0; i < g.edges.size(); ++i) {
    list.sources[i] = V(g.edges[i].u * id_scale);
    list.targets[i] = V(g.edges[i].v * id_scale);
    if (g.weighted) list.weights[i] = g.edges[i].w;
  }
  return list;
}

// The edges as passes of `chunk` edges each.
EdgePasses passes_of_list(const RefGraph& g, unsigned id_bytes, uint64_t id_scale, uint64_t chunk) {
  EdgePasses passes;
  passes.vertices = g.n * id_scale;
  passes.edges = g.edges.size();
  passes.weighted = g.weighted;
  passes.id_bytes = id_bytes;
  passes.keep_wide = id_bytes == 8;  // as --wide-ids: relabelled ids stay 64-bit
  passes.format = "test";
  passes.pass = [g, id_scale, chunk](const EdgeConsumer& consume) {
    std::vector<uint64_t> sources, targets;
    std::vector<float> weights;
    for (uint64_t first = 0; first < g.edges.size(); first += chunk) {
      sources.clear(), targets.clear(), weights.clear();
      for (uint64_t e = first; e < std::min<uint64_t>(g.edges.size(), first + chunk); ++e) {
        sources.push_back(g.edges[e].u * id_scale);
        targets.push_back(g.edges[e].v * id_scale);
        weights.push_back(g.edges[e].w);
      }
      consume(EdgeChunk{sources.data(), targets.data(), g.weighted ? weights.data() : nullptr, sources.size()});
    }
  };
  return passes;
}

// What open_graph does in memory: relabel, reorder, build.
template <class V>
std::pair<Csr<V>, base::IdMap> in_memory(EdgeList<V> list, const BuildOptions& o) {
  base::IdMap map;
  if (o.relabel) map = compact_ids(list, 1);
  if (o.order_by_degree) map = compose(map, order_by_degree(list, 1));
  return {build_csr(list, o), std::move(map)};
}

template <class V>
void expect_same(const std::pair<Csr<V>, base::IdMap>& expected, const GraphSource& actual, const std::string& context) {
  const Csr<V>& csr = expected.first;
  const base::GraphInfo info = actual.info();
  ASSERT_EQ(info.vertices, csr.vertices) << context;
  ASSERT_EQ(info.edges, csr.edges()) << context;
  ASSERT_EQ(info.id_bytes, sizeof(V)) << context;
  EXPECT_EQ(info.weighted, csr.weighted) << context;
  std::vector<uint64_t> offsets(csr.vertices + 1);
  actual.read_offsets(0, csr.vertices, offsets.data());
  EXPECT_EQ(offsets, std::vector<uint64_t>(csr.offsets.data(), csr.offsets.data() + csr.vertices + 1)) << context;
  std::vector<V> targets(csr.edges());
  std::vector<float> weights(csr.edges());
  if (csr.vertices) actual.read_edges(0, csr.vertices, targets.data(), weights.data());
  EXPECT_EQ(targets, std::vector<V>(csr.targets.data(), csr.targets.data() + csr.edges())) << context;
  if (csr.weighted) {
    EXPECT_EQ(weights, std::vector<float>(csr.weights.data(), csr.weights.data() + csr.edges())) << context;
  }
  const auto& originals = expected.second.originals();
  EXPECT_EQ(std::vector<uint64_t>(actual.ids().originals().data(), actual.ids().originals().data() + actual.ids().originals().size()),
            std::vector<uint64_t>(originals.data(), originals.data() + originals.size())) << context;
}

// The transpose transpose_of builds in memory from a built CSR: its edges
// in CSR order, reversed.
template <class V>
std::pair<Csr<V>, base::IdMap> transpose_in_memory(const std::pair<Csr<V>, base::IdMap>& built) {
  const Csr<V>& csr = built.first;
  EdgeList<V> list;
  list.vertices = csr.vertices;
  list.weighted = csr.weighted;
  list.sources = Array<V>(csr.edges());
  list.targets = Array<V>(csr.edges());
  if (csr.weighted) list.weights = Array<float>(csr.edges());
  for (uint64_t u = 0; u < csr.vertices; ++u) {
    for (uint64_t e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      list.sources[e] = V(u);
      list.targets[e] = csr.targets[e];
      if (csr.weighted) list.weights[e] = csr.weights[e];
    }
  }
  BuildOptions o;
  o.transpose = true;
  o.threads = 1;
  return {build_csr(list, o), built.second.copy()};
}

// What a writer's one pass over `actual` sees: the lists streamed as its
// ranges are placed (GraphSource::stream_once), as in memory. Returns
// false where the source does not stream (its ranges were placed first).
template <class V>
bool expect_streamed(const std::pair<Csr<V>, base::IdMap>& expected, const GraphSource& actual, const std::string& context) {
  const Csr<V>& csr = expected.first;
  std::vector<uint64_t> offsets{0};
  std::vector<V> targets;
  std::vector<float> weights;
  uint64_t next = 0;
  const bool streamed = actual.stream_once([&](const EdgeBlock& block) {
    EXPECT_EQ(block.begin, next) << context << ": blocks in vertex order";
    EXPECT_LT(block.begin, block.end) << context;
    EXPECT_EQ(block.first_edge(), offsets.back()) << context;
    EXPECT_EQ(block.id_bytes, sizeof(V)) << context;
    for (uint64_t v = block.begin; v < block.end; ++v) offsets.push_back(block.offsets[v - block.begin + 1]);
    const std::span<const V> t = block.targets_as<V>();
    targets.insert(targets.end(), t.begin(), t.end());
    if (block.weights) weights.insert(weights.end(), block.weights, block.weights + block.edges);
    next = block.end;
  });
  if (!streamed) return false;
  EXPECT_EQ(actual.info().edges, csr.edges()) << context;
  EXPECT_EQ(offsets, std::vector<uint64_t>(csr.offsets.data(), csr.offsets.data() + csr.vertices + 1)) << context;
  EXPECT_EQ(targets, std::vector<V>(csr.targets.data(), csr.targets.data() + csr.edges())) << context;
  if (csr.weighted) {
    EXPECT_EQ(weights, std::vector<float>(csr.weights.data(), csr.weights.data() + csr.edges())) << context;
  }
  EXPECT_FALSE(actual.stream_once([](const EdgeBlock&) {})) << context << ": streamed once";
  std::vector<uint64_t> after(csr.vertices + 1);
  EXPECT_THROW(actual.read_offsets(0, csr.vertices, after.data()), std::logic_error) << context << ": nothing is left to read";
  return true;
}

// The graph built with its transpose alongside, both handed to a writer
// as placed (as sluice convert writes them), or read by range where the
// graph's ranges had to be placed first: both as in memory.
template <class V>
void expect_same_with_transpose(const std::pair<Csr<V>, base::IdMap>& expected, EdgePasses passes, BuildOptions o,
                                const std::string& context) {
  o.transpose_alongside = true;
  const std::unique_ptr<GraphSource> built = build_external_csr(std::move(passes), o);
  const std::unique_ptr<GraphSource> transpose = built->built_transpose();
  ASSERT_TRUE(transpose) << context;
  EXPECT_FALSE(built->built_transpose()) << context << ": the transpose is taken once";
  if (!expect_streamed(expected, *built, context + " (with its transpose)")) {
    expect_same(expected, *built, context + " (with its transpose)");
  }
  const std::pair<Csr<V>, base::IdMap> reversed = transpose_in_memory(expected);
  EXPECT_TRUE(expect_streamed(reversed, *transpose, context + ", its transpose")) << context << ": a transpose always streams";
}

// The edge options, then --relabel and --reorder degree over a few of
// them; ranges of about 64 records and one range; 32- and 64-bit ids.
TEST(ExternalCsr, MatchesTheInMemoryBuildForEveryShapeAndOption) {
  TempDir dir;
  // Each option alone, in pairs and all together (the in-memory builder's
  // own test takes all 32 combinations).
  std::vector<int> masks{0, 1, 2, 3, 4, 8, 16, 6, 10, 18, 24, 31};
  for (int edges : {0, 1 | 4, 2 | 8, 31}) masks.insert(masks.end(), {32 | edges, 64 | edges, 96 | edges});
  for (bool weighted : {false, true}) {
    for (const RefGraph& g : graph_shapes(weighted)) {
      for (int mask : masks) {
        if (weighted && mask != 2 && mask != 10 && mask != 31 && mask != 37 && mask != 66) continue;
        BuildOptions o = build_options_from_bits(mask);
        o.threads = 2;
        o.memory.limit = uint64_t(64) << 20;
        o.memory.temp_dir = dir.path();
        for (uint64_t range_bytes : {uint64_t(256), uint64_t(0)}) {
          if (range_bytes == 0 && mask != 31 && mask != 6 && mask != 127) continue;
          o.memory.range_bytes = range_bytes;
          const std::string context = g.name + " options " + std::to_string(mask) + " range bytes " + std::to_string(range_bytes);
          expect_same(in_memory(edge_list_of<uint32_t>(g), o), *build_external_csr(passes_of_list(g, 4, 1, 3), o), context + " 32-bit");
          if (range_bytes == 0 || mask % 4 == 3 || mask == 96) {
            expect_same(in_memory(edge_list_of<uint64_t>(g), o), *build_external_csr(passes_of_list(g, 8, 1, 5), o), context + " 64-bit");
          }
          if (!o.transpose) {
            expect_same_with_transpose(in_memory(edge_list_of<uint32_t>(g), o), passes_of_list(g, 4, 1, 3), o, context + " 32-bit");
            if (range_bytes == 0 || mask % 4 == 0) {
              expect_same_with_transpose(in_memory(edge_list_of<uint64_t>(g), o), passes_of_list(g, 8, 1, 5), o, context + " 64-bit");
            }
          }
        }
      }
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "scratch files are never named";
}

// Ids up to 2^40: relabelled through the sorted list of the ids seen (a
// bitmap would not fit the limit), down to 32-bit ids.
TEST(ExternalCsr, RelabelsSparseIdsWithoutABitmap) {
  TempDir dir;
  const RefGraph g = graph_shapes(true).back();
  BuildOptions o;
  o.relabel = true;
  o.transpose = true;
  o.memory.limit = uint64_t(16) << 20;
  o.memory.temp_dir = dir.path();
  o.memory.range_bytes = 64;
  const uint64_t scale = uint64_t(1) << 30;
  EdgeList<uint64_t> list = edge_list_of<uint64_t>(g, scale);
  base::IdMap map = compact_ids(list, 1);
  std::pair<Csr<uint32_t>, base::IdMap> expected{build_csr(narrowed(std::move(list), 1), o), std::move(map)};
  EdgePasses passes = passes_of_list(g, 8, scale, 7);
  passes.keep_wide = false;
  expect_same(expected, *build_external_csr(std::move(passes), o), "ids times 2^30");
}

// Over 16384 vertices, vertices are counted in buckets and the ranges
// are whole buckets, but for a bucket whose hub alone exceeds a range:
// that one is cut vertex by vertex. Both give the in-memory build.
TEST(ExternalCsr, CutsRangesByBucketsAndByVerticesAroundAHub) {
  TempDir dir;
  RefGraph g;
  g.name = "a hub among 20000 uniform vertices";
  g.n = 20000;
  g.weighted = true;
  std::mt19937_64 random(7);
  for (int e = 0; e < 60000; ++e) g.edges.push_back({random() % g.n, random() % g.n, float(e % 13)});
  for (uint64_t v = 0; v < 6000; ++v) g.edges.push_back({v % 2 ? 4242 : v * 3, v % 2 ? v * 3 : 4242, 1.5f});
  for (int mask : {0, 1, 29, 31}) {
    BuildOptions o = build_options_from_bits(mask);
    o.threads = 2;
    o.memory.limit = uint64_t(64) << 20;
    o.memory.temp_dir = dir.path();
    // 96 KiB: several ranges of whole buckets; 8 KiB: the hub's bucket
    // (its 3000 or 6000 records) alone is more.
    for (uint64_t range_bytes : {uint64_t(96) << 10, uint64_t(8) << 10}) {
      o.memory.range_bytes = range_bytes;
      const std::string context = "options " + std::to_string(mask) + " range bytes " + std::to_string(range_bytes);
      expect_same(in_memory(edge_list_of<uint32_t>(g), o), *build_external_csr(passes_of_list(g, 4, 1, 1000), o), context);
      if (!o.transpose) expect_same_with_transpose(in_memory(edge_list_of<uint32_t>(g), o), passes_of_list(g, 4, 1, 1000), o, context);
    }
  }
}

// Chunks of 100000 edges are counted by several lanes at once, in
// slices, and ranges placed side by side, few and wide (64 MiB, ranges of
// 96 KiB) or many and narrow around a hub (16 MiB, ranges of 8 KiB).
// 1, 2 and 4 lanes give the in-memory build.
TEST(ExternalCsr, LanesCountAndPlaceAsOneThreadDoes) {
  TempDir dir;
  RefGraph g;
  g.name = "a hub among 50000 skewed vertices";
  g.n = 50000;
  g.weighted = true;
  std::mt19937_64 random(11);
  for (int e = 0; e < 240000; ++e) {
    const uint64_t u = random() % g.n, v = (random() % g.n) * (random() % g.n) / g.n;  // low ids are hubs
    g.edges.push_back({u, v, float(e % 29)});
  }
  for (uint64_t v = 0; v < 20000; ++v) g.edges.push_back({v % 3 ? 777 : v * 2, v % 3 ? v * 2 : 777, 2.5f});
  for (int mask : {0, 1, 29, 31}) {
    for (int threads : {1, 2, 4}) {
      for (auto [limit, range_bytes] : {std::pair<uint64_t, uint64_t>{uint64_t(64) << 20, uint64_t(96) << 10},
                                        std::pair<uint64_t, uint64_t>{uint64_t(16) << 20, uint64_t(8) << 10}}) {
        BuildOptions o = build_options_from_bits(mask);
        o.threads = threads;
        o.memory.limit = limit;
        o.memory.range_bytes = range_bytes;
        o.memory.temp_dir = dir.path();
        const std::string context = "options " + std::to_string(mask) + " threads " + std::to_string(threads) + " limit " +
                                    std::to_string(limit >> 20) + " MiB";
        expect_same(in_memory(edge_list_of<uint32_t>(g), o), *build_external_csr(passes_of_list(g, 4, 1, 100000), o), context);
        if (!o.transpose) expect_same_with_transpose(in_memory(edge_list_of<uint32_t>(g), o), passes_of_list(g, 4, 1, 100000), o, context);
      }
    }
  }
}

// A build's ranges are placed once: streamed to a writer when that comes
// first, else into scratch files, which every later read is served from.
// The transpose, read first, places the graph's ranges (and so its own
// records) first. Placed at once are one range (from the input) and a
// deduplicated graph (its edge count is known only once placed).
TEST(ExternalCsr, HandsItsListsToAWriterOnceOrServesThemFromScratch) {
  TempDir dir;
  const RefGraph g = graph_shapes(true).back();
  BuildOptions o;
  o.threads = 2;
  o.memory.limit = uint64_t(64) << 20;
  o.memory.temp_dir = dir.path();
  o.memory.range_bytes = 256;
  const auto expected = in_memory(edge_list_of<uint32_t>(g), o);
  EXPECT_TRUE(expect_streamed(expected, *build_external_csr(passes_of_list(g, 4, 1, 3), o), "streamed"));
  {
    BuildOptions alongside = o;
    alongside.transpose_alongside = true;
    const std::unique_ptr<GraphSource> built = build_external_csr(passes_of_list(g, 4, 1, 3), alongside);
    const std::unique_ptr<GraphSource> transpose = built->built_transpose();
    expect_same(transpose_in_memory(expected), *transpose, "the transpose read first");
    EXPECT_FALSE(transpose->stream_once([](const EdgeBlock&) {})) << "placed by the read";
    EXPECT_FALSE(built->stream_once([](const EdgeBlock&) {})) << "placed for the transpose's records";
    expect_same(expected, *built, "the graph after its transpose");
    expect_same(expected, *built, "the graph read again");
  }
  BuildOptions one_range = o;
  one_range.memory.range_bytes = 0;
  EXPECT_FALSE(build_external_csr(passes_of_list(g, 4, 1, 3), one_range)->stream_once([](const EdgeBlock&) {})) << "one range";
  BuildOptions dedup = o;
  dedup.remove_duplicates = true;
  const std::unique_ptr<GraphSource> deduplicated = build_external_csr(passes_of_list(g, 4, 1, 3), dedup);
  EXPECT_FALSE(deduplicated->stream_once([](const EdgeBlock&) {})) << "deduplicated";
  expect_same(in_memory(edge_list_of<uint32_t>(g), dedup), *deduplicated, "deduplicated");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "scratch files are never named";
}

TEST(ExternalCsr, RefusesALimitBelowItsPerVertexArraysBeforeAnyPass) {
  TempDir dir;
  const RefGraph g = graph_shapes(false).back();
  BuildOptions o;
  o.memory.limit = uint64_t(4) << 20;
  o.memory.temp_dir = dir.path();
  EdgePasses passes = passes_of_list(g, 4, 1, 3);
  passes.keep_wide = false;
  bool passed = false;
  auto inner = passes.pass;
  passes.pass = [&](const EdgeConsumer& consume) { passed = true, inner(consume); };
  try {
    build_external_csr(std::move(passes), o);
    ADD_FAILURE() << "a 4 MiB limit was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("needs at least 8.0 MiB"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(passed);
}

}  // namespace
}  // namespace sluice::test
