// The BFS of the README's "Writing an algorithm", compiled and run, so the
// README stays true. Keep the two in step.
#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/engine.hpp"
#include "formats/writers.hpp"
#include "tests/test_support.hpp"

namespace readme {
using namespace sluice::engine;

// --- README: begin ---
struct BfsStep {
  std::vector<int64_t>& parent;
  int64_t get(uint64_t v) { return std::atomic_ref(parent[v]).load(std::memory_order_relaxed); }
  bool cond(uint64_t dst) { return get(dst) < 0; }              // not visited yet
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) {  // send my id
    out = src;
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& src) {  // first sender wins
    if (get(dst) >= 0) return false;
    std::atomic_ref(parent[dst]).store(int64_t(src), std::memory_order_relaxed);
    return true;  // dst joins the next frontier
  }
};

std::vector<int64_t> bfs(const DiskGraph& graph, uint64_t source, const EngineOptions& options) {
  Engine engine(graph, options);
  std::vector<int64_t> parent(graph.vertices(), -1), depth(graph.vertices(), -1);
  parent[source] = int64_t(source);
  depth[source] = 0;
  VertexSubset frontier = VertexSubset::single(graph.vertices(), source);
  for (int64_t level = 1; !frontier.empty(); ++level) {
    BfsStep step{parent};
    frontier = engine.edge_map<uint64_t>(frontier, step);
    engine.vertex_map(frontier, [&](uint64_t v) { depth[v] = level; return true; });
  }
  return depth;
}
// --- README: end ---

}  // namespace readme

namespace sluice::test {
namespace {

TEST(Readme, BfsReachesTheChainInOrder) {
  TempDir dir;
  RefGraph chain;  // 0 -> 1 -> ... -> 199: one BFS level per vertex
  chain.name = "chain200";
  chain.n = 200;
  for (uint64_t v = 0; v + 1 < chain.n; ++v) chain.edges.push_back({v, v + 1, 1.0f});
  auto graph = open_as_edge_list(dir, chain);
  write_graph(*graph, dir / "chain.sluice", "sluice", {});
  engine::DiskGraph disk(dir / "chain.sluice");
  std::vector<int64_t> depth = readme::bfs(disk, 0, engine::EngineOptions{});
  for (uint64_t v = 0; v < chain.n; ++v) ASSERT_EQ(depth[v], int64_t(v));
}

}  // namespace
}  // namespace sluice::test
