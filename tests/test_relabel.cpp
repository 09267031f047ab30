// convert --relabel (formats/relabel.hpp, base/id_map.hpp,
// layout/id_map_file.hpp): dense ids in the input's order over every
// graph shape, both ways of compacting, the map kept by a layout and
// checked on open. tests/cli/relabel.sh runs the programs on such layouts.
#include <fstream>
#include <set>

#include "formats/relabel.hpp"
#include "formats/sluice_format.hpp"
#include "layout/id_map_file.hpp"
#include "test_support.hpp"

namespace sluice::test {
namespace {

// Relabels a copy of `g`'s edges spread over ids scaled by `stride` (and
// shifted by `offset`): the dense graph must be g's with its ids renumbered
// in order, and the map must give each dense id back.
template <class V>
void check_compaction(const RefGraph& g, uint64_t stride, uint64_t offset) {
  EdgeList<V> edges;
  const uint64_t m = g.edges.size();
  edges.sources = base::Array<V>(m);
  edges.targets = base::Array<V>(m);
  std::set<uint64_t> used;
  for (uint64_t e = 0; e < m; ++e) {
    edges.sources[e] = V(g.edges[e].u * stride + offset);
    edges.targets[e] = V(g.edges[e].v * stride + offset);
    used.insert(edges.sources[e]);
    used.insert(edges.targets[e]);
  }
  const base::IdMap map = compact_ids(edges, 2);
  ASSERT_EQ(edges.vertices, used.size()) << g.name;
  const std::vector<uint64_t> in_order(used.begin(), used.end());
  for (uint64_t v = 0; v < in_order.size(); ++v) {
    EXPECT_EQ(map.original(v), in_order[v]) << g.name;
    EXPECT_EQ(map.vertex_of(in_order[v]), v) << g.name;
  }
  for (uint64_t e = 0; e < m; ++e) {
    EXPECT_EQ(map.original(edges.sources[e]), g.edges[e].u * stride + offset) << g.name << " edge " << e;
    EXPECT_EQ(map.original(edges.targets[e]), g.edges[e].v * stride + offset) << g.name << " edge " << e;
  }
  if (m) {
    EXPECT_FALSE(map.vertex_of(in_order.back() + 1).has_value());
  }
}

TEST(Relabel, DenseIdsInTheInputsOrderForEveryShape) {
  for (const RefGraph& g : graph_shapes(false)) {
    check_compaction<uint32_t>(g, 3, 7);                         // small gaps: the bitmap
    check_compaction<uint64_t>(g, uint64_t(1) << 40, 5);         // 64-bit sparse ids: sorting
    check_compaction<uint64_t>(g, 1, (uint64_t(1) << 63) + 11);  // ids above 2^63
  }
}

TEST(Relabel, OrderByDegreePutsTheBusiestFirst) {
  for (const RefGraph& g : graph_shapes(false)) {
    EdgeList<uint32_t> edges;
    edges.vertices = g.n;
    const uint64_t m = g.edges.size();
    edges.sources = base::Array<uint32_t>(m);
    edges.targets = base::Array<uint32_t>(m);
    std::vector<uint64_t> degree(g.n, 0);
    for (uint64_t e = 0; e < m; ++e) {
      edges.sources[e] = uint32_t(g.edges[e].u);
      edges.targets[e] = uint32_t(g.edges[e].v);
      ++degree[g.edges[e].u], ++degree[g.edges[e].v];
    }
    const base::IdMap map = order_by_degree(edges, 2);
    EXPECT_EQ(edges.vertices, g.n) << g.name;
    if (g.n == 0) continue;
    EXPECT_TRUE(map.permutes()) << g.name;
    for (uint64_t v = 1; v < g.n; ++v) {
      const uint64_t before = map.original(v - 1), now = map.original(v);
      EXPECT_TRUE(degree[before] > degree[now] || (degree[before] == degree[now] && before < now)) << g.name << " at " << v;
    }
    for (uint64_t e = 0; e < m; ++e) {
      EXPECT_EQ(map.original(edges.sources[e]), g.edges[e].u) << g.name;
      EXPECT_EQ(map.original(edges.targets[e]), g.edges[e].v) << g.name;
    }
    for (uint64_t id = 0; id < g.n; ++id) EXPECT_EQ(map.original(*map.vertex_of(id)), id) << g.name;
  }
}

TEST(Relabel, MapsLookUpAndComposeInAnyOrder) {
  base::Array<uint64_t> shuffled(4);
  const uint64_t values[] = {40, 10, 30, 20};
  std::copy(values, values + 4, shuffled.begin());
  const base::IdMap map(std::move(shuffled));
  EXPECT_EQ(map.vertex_of(30), 2u);
  EXPECT_EQ(map.vertex_of(10), 1u);
  EXPECT_FALSE(map.vertex_of(25).has_value());
  std::vector<uint64_t> listed;
  for (uint64_t i = 0; i < 4; ++i) listed.push_back(map.original(map.in_original_order(i)));
  EXPECT_EQ(listed, (std::vector<uint64_t>{10, 20, 30, 40}));
  base::Array<uint64_t> twice(2);
  twice[0] = 3, twice[1] = 3;
  EXPECT_THROW(base::IdMap(std::move(twice)), std::invalid_argument);
  // Relabelling a relabelled graph: dense 0 and 1 of the second are the first's 1 and 3.
  base::Array<uint64_t> outer(2);
  outer[0] = 1, outer[1] = 3;
  const base::IdMap both = compose(map, base::IdMap(std::move(outer)));
  EXPECT_EQ(both.original(0), 10u);
  EXPECT_EQ(both.original(1), 20u);
  EXPECT_TRUE(compose(base::IdMap(), base::IdMap()).empty());
}

TEST(Relabel, TheLayoutKeepsTheMapAndChecksIt) {
  TempDir dir;
  write_text(dir / "g.el", "# Nodes: 3 Edges: 4\n100 7\n7 100\n5000000000000 7\n100 100\n");
  OpenOptions options;
  options.build.relabel = true;
  auto graph = BlockGraph::open(dir / "g.el", options);
  EXPECT_EQ(graph->info().vertices, 3u);
  EXPECT_EQ(graph->info().id_bytes, 4u);  // 64-bit input ids, 32-bit once dense
  WriteOptions write;
  write_graph(*graph, dir / "g.sluice", "sluice", write);
  const SluiceLayout layout(dir / "g.sluice");
  ASSERT_FALSE(layout.ids().empty());
  EXPECT_EQ(layout.ids().original(0), 7u);
  EXPECT_EQ(layout.ids().original(1), 100u);
  EXPECT_EQ(layout.ids().original(2), 5000000000000u);
  BlockGraph opened(open_sluice_layout(dir / "g.sluice"), BlockOptions{});
  const RefGraph held = read_all(opened);
  EXPECT_EQ(held.edges, (std::vector<Edge>{{0, 1, 1}, {1, 0, 1}, {1, 1, 1}, {2, 0, 1}}));

  // Rewritten without a map, the old map is removed with the old layout.
  write_text(dir / "plain.el", "0 1\n");
  auto plain = BlockGraph::open(dir / "plain.el");
  write_graph(*plain, dir / "g.sluice", "sluice", write);
  EXPECT_FALSE(std::filesystem::exists(dir / "g.ids"));
  EXPECT_TRUE(SluiceLayout(dir / "g.sluice").ids().empty());

  // A damaged map is named.
  write_graph(*graph, dir / "g.sluice", "sluice", write);
  {
    std::fstream f(dir / "g.ids", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64);
    f.put('\x55');
  }
  expect_error_with([&] { SluiceLayout damaged(dir / "g.sluice"); }, {"g.ids", "id map checksum mismatch"});
  // So is a map of the wrong length.
  std::filesystem::resize_file(dir / "g.ids", 64 + 16);
  expect_error_with([&] { SluiceLayout damaged(dir / "g.sluice"); }, {"g.ids", "holds 80 bytes, expected 88 for 3 vertices"});
}

}  // namespace
}  // namespace sluice::test
