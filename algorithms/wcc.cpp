#include "algorithms/wcc.hpp"

#include <random>
#include <stdexcept>
#include <unordered_map>

#include "algorithms/relaxed.hpp"
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

// On several ranks, label propagation (as Gemini's CC): every vertex
// starts with its own id, and each round the vertices whose label fell
// offer it along their out-edges and, over the transpose's parts, their
// in-edges; a destination keeps the least. It ends with every label the
// smallest id of its component, as Afforest's forest labels it. Afforest
// does not distribute: its forest spans every vertex, and merging R
// forests costs O(V) per merge step however few labels changed, while a
// round here sends only the changed labels to the ranks that read them.
// Each rank's labels are valid on its own range.
template <class Id>
struct LowerLabel {
  Id* label;
  static constexpr bool cond_always_true = true;
  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = relaxed_load(label[src]);
    return true;
  }
  bool gather(uint64_t dst, const Id& offer) {
    if (!(offer < label[dst])) return false;
    relaxed_store(label[dst], offer);
    return true;
  }
  Id combine(const Id& a, const Id& b) const { return std::min(a, b); }
};

template <class Id>
ComponentsResult propagated_labels(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  std::vector<Id> label(n);
  for (uint64_t v = 0; v < n; ++v) label[v] = Id(v);
  ComponentsResult result;
  engine::VertexSubset frontier = engine::VertexSubset::all(n);
  while (!frontier.empty()) {
    LowerLabel<Id> lower{label.data()};
    out.ranks().member_values(frontier, label.data());
    engine::VertexSubset changed = out.edge_map<Id>(frontier, lower);
    trace.record(out, "out-edges", result.rounds);
    if (in) {
      in->ranks().member_values(frontier, label.data());
      changed = engine::VertexSubset::unite(changed, in->edge_map<Id>(frontier, lower));
      trace.record(*in, "in-edges", result.rounds);
    }
    frontier = std::move(changed);
    ++result.rounds;
  }
  result.label.assign(label.begin(), label.end());
  return result;
}

}  // namespace

ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  if (in && in->graph().vertices() != n) throw std::invalid_argument("the transpose has another vertex count");
  if (out.distributed()) {
    return n <= (uint64_t(1) << 32) ? propagated_labels<uint32_t>(out, in, trace) : propagated_labels<uint64_t>(out, in, trace);
  }
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
