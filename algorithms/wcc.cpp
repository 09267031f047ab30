#include "algorithms/wcc.hpp"

#include <random>
#include <stdexcept>
#include <unordered_map>

#include "algorithms/union_find.hpp"

namespace sluice::algorithms {

namespace {

// Joins the two ends of every edge it sees; safe on any thread, so the
// engine streams the pages without bins.
template <class Id>
struct Link {
  ConcurrentForest<Id>& forest;
  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = Id(src);
    return true;
  }
  bool gather_atomic(uint64_t dst, const Id& src) {
    forest.link(src, dst);
    return false;
  }
};

// Afforest's guess at the largest component: the most frequent root among
// 1024 sampled vertices (by default seed, so runs repeat).
template <class Id>
Id most_frequent_root(ConcurrentForest<Id>& forest, uint64_t n) {
  std::mt19937_64 random(1);
  std::unordered_map<Id, uint32_t> count;
  Id best = 0;
  uint32_t best_count = 0;
  for (int i = 0; i < 1024; ++i) {
    const Id root = forest.find(random() % n);
    if (++count[root] > best_count) best_count = count[root], best = root;
  }
  return best;
}

template <class Id>
ComponentsResult afforest(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  ComponentsResult result;
  ConcurrentForest<Id> forest(n);
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  auto compress = [&] {
    out.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
      for (uint64_t v = begin; v < end; ++v) forest.compress(v);
    });
  };
  Link<Id> link{forest};
  // 1. Every vertex joins its first two out-neighbours: for most graphs
  //    that already gathers the largest component.
  out.edge_map_first<Id>(all, link, 2, false);
  trace.record(out, "sample", 0);
  compress();
  // 2. Only the vertices outside the largest component need the rest of
  //    their edges: an edge between two of its vertices changes nothing,
  //    and an edge from it to an outside vertex is among that vertex's
  //    in-edges (the transpose's out-edges; the out-edges themselves when
  //    the graph is symmetric).
  if (n > 0) {
    const Id giant = most_frequent_root(forest, n);
    engine::VertexSubset rest = out.vertex_map(all, [&](uint64_t v) { return forest.parent(v) != giant; });
    out.edge_map<Id>(rest, link, false);
    trace.record(out, "out-edges", 1);
    if (in) {
      in->edge_map<Id>(rest, link, false);
      trace.record(*in, "in-edges", 1);
    }
  }
  compress();
  result.label.resize(n);
  for (uint64_t v = 0; v < n; ++v) result.label[v] = forest.parent(v);
  result.rounds = 2;
  summarize_components(result);
  return result;
}

// On several ranks: each joins every edge of its part in a forest over all
// vertices (one full scan: Afforest's skipping needs the in-edges of the
// vertices it leaves out, and a part holds them only for its own range),
// then one allreduce merges the forests' labels (the smallest vertex of
// each component, as Afforest's forest labels it, so the labels are the
// single process's).
template <class Id>
ComponentsResult merged_forests(engine::Engine& out, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  ConcurrentForest<Id> forest(n);
  Link<Id> link{forest};
  out.edge_map<Id>(engine::VertexSubset::all(n), link, false);
  trace.record(out, "edges", 0);
  std::vector<Id> labels(n);
  out.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
    for (uint64_t v = begin; v < end; ++v) labels[v] = forest.find(v);
  });
  out.ranks().communicator().merge_components(std::span<Id>(labels));
  ComponentsResult result;
  result.label.assign(labels.begin(), labels.end());
  result.rounds = 1;
  summarize_components(result);
  return result;
}

}  // namespace

ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  if (in && in->graph().vertices() != n) throw std::invalid_argument("the transpose has another vertex count");
  if (out.distributed()) return n <= (uint64_t(1) << 32) ? merged_forests<uint32_t>(out, trace) : merged_forests<uint64_t>(out, trace);
  return n <= (uint64_t(1) << 32) ? afforest<uint32_t>(out, in, trace) : afforest<uint64_t>(out, in, trace);
}

void summarize_components(ComponentsResult& result) {
  std::vector<uint64_t> size(result.label.size(), 0);
  for (uint64_t l : result.label) ++size[l];
  result.components = 0;
  result.largest = 0;
  for (uint64_t v = 0; v < size.size(); ++v) {
    if (result.label[v] == v) ++result.components;
    result.largest = std::max(result.largest, size[v]);
  }
}

}  // namespace sluice::algorithms
