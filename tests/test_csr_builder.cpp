// CSR building options against a reference that applies them the obvious way.
#include <map>
#include <set>

#include "formats/csr_builder.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

EdgeList<uint32_t> to_edge_list(const RefGraph& g) {
  EdgeList<uint32_t> list;
  list.vertices = g.n;
  list.weighted = g.weighted;
  list.sources = Array<uint32_t>(g.edges.size());
  list.targets = Array<uint32_t>(g.edges.size());
  if (g.weighted) list.weights = Array<float>(g.edges.size());
  for (size_t i = 0; i < g.edges.size(); ++i) {
    list.sources[i] = uint32_t(g.edges[i].u);
    list.targets[i] = uint32_t(g.edges[i].v);
    if (g.weighted) list.weights[i] = g.edges[i].w;
  }
  return list;
}

RefGraph from_csr(const Csr<uint32_t>& csr) {
  RefGraph g;
  g.n = csr.vertices;
  g.weighted = csr.weighted;
  for (uint64_t v = 0; v < csr.vertices; ++v) {
    for (uint64_t e = csr.offsets[v]; e < csr.offsets[v + 1]; ++e) {
      g.edges.push_back({v, csr.targets[e], csr.weighted ? csr.weights[e] : 1.0f});
    }
  }
  return g;
}

// The reference: per-vertex lists built edge by edge, then sorted / deduplicated.
RefGraph reference_build(const RefGraph& in, const BuildOptions& o) {
  std::vector<std::vector<Edge>> lists(in.n);
  for (const Edge& e : in.edges) {
    if (e.u == e.v) {
      if (!o.drop_self_loops) lists[e.u].push_back(e);
      continue;
    }
    bool forward = !o.transpose || o.symmetrize, backward = o.transpose || o.symmetrize;
    if (forward) lists[e.u].push_back(e);
    if (backward) lists[e.v].push_back({e.v, e.u, e.w});
  }
  RefGraph out;
  out.n = in.n;
  out.weighted = in.weighted;
  for (auto& list : lists) {
    if (o.sort_neighbors || o.remove_duplicates) {
      std::stable_sort(list.begin(), list.end(), [](const Edge& a, const Edge& b) { return a.v < b.v; });
    }
    std::set<uint64_t> seen;
    for (const Edge& e : list) {
      if (o.remove_duplicates && !seen.insert(e.v).second) continue;
      out.edges.push_back(e);
    }
  }
  return out;
}

TEST(CsrBuilder, EveryOptionCombinationMatchesReference) {
  for (bool weighted : {false, true}) {
    for (const RefGraph& g : graph_shapes(weighted)) {
      for (int mask = 0; mask < 32; ++mask) {
        BuildOptions o = build_options_from_bits(mask);
        RefGraph expected = reference_build(g, o);
        for (int threads : {1, 2, 4}) {
          o.threads = threads;
          expect_same_graph(expected, from_csr(build_csr(to_edge_list(g), o)),
                            g.name + " options " + std::to_string(mask) + " threads " + std::to_string(threads));
        }
      }
    }
  }
}

// Lists sorted stably by target after the build (a rank's transpose
// part): equal targets keep their weights in the order the edges came,
// whatever the threads; sorted lists stay as they are.
TEST(CsrBuilder, SortingBuiltListsKeepsTiesInTheirOrder) {
  for (bool weighted : {false, true}) {
    for (const RefGraph& g : graph_shapes(weighted)) {
      BuildOptions sorted;
      sorted.sort_neighbors = true;
      const RefGraph expected = reference_build(g, sorted);
      for (int threads : {1, 2, 4}) {
        Csr<uint32_t> csr = build_csr(to_edge_list(g), BuildOptions{});
        sort_and_deduplicate(csr, csr.vertices, false, threads);
        expect_same_graph(expected, from_csr(csr), g.name + " threads " + std::to_string(threads));
        sort_and_deduplicate(csr, csr.vertices, false, threads);
        expect_same_graph(expected, from_csr(csr), g.name + " sorted again, threads " + std::to_string(threads));
      }
    }
  }
}

}  // namespace
}  // namespace sluice::test
