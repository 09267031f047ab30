#include "algorithms/wcc.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "algorithms/afforest.hpp"
#include "algorithms/union_find.hpp"

namespace sluice::algorithms {

namespace {

using afforest::Link;
using afforest::most_frequent_root;
using afforest::sampled_edges;

template <class Id>
ComponentsResult afforest_one_process(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  ComponentsResult result;
  // The forest lives in the front of the labels' array, into which it is
  // widened at the end: 8 bytes a vertex at the peak, where a forest and
  // a fresh array of labels took 12 (realloc, widening the forest's own
  // array, copied it where malloc had it from the heap).
  result.label = base::Array<uint64_t>(n, "the component labels");
  Id* const parents = reinterpret_cast<Id*>(result.label.data());
  afforest::make_singletons(out, parents, n);
  ConcurrentForest<Id> forest(parents);
  const engine::VertexSubset all = engine::VertexSubset::all(n);
  Link<Id> link{forest};
  // 1. Every vertex joins its first two out-neighbours: for most graphs
  //    that already gathers the largest component.
  out.edge_map_first<Id>(all, link, sampled_edges, false);
  trace.record(out, "sample", 0);
  // Once a pass has pointed every vertex at its root, they stay so until
  // an edge joins two sets: where none of the rest does (RMAT 22's
  // samples leave no vertex needing its lists), the last pass is skipped.
  bool at_roots = false;
  if (n > 0) {
    Id giant = most_frequent_root(forest, 0, n);
    // Each vertex pointed at its root (Afforest's compress); those
    // outside the largest component kept.
    const engine::VertexSubset outside = out.vertex_map(all, [&](uint64_t v) {
      forest.compress(v);
      return forest.parent(v) != giant;
    });
    // 2. Where the layout keeps a sample of the transpose too
    //    (layout/sampled_targets.hpp), the vertices outside join their
    //    first two in-neighbours, read from the sample at no page's cost.
    //    Those inside need none: an in-edge from an outside vertex is
    //    among that vertex's out-edges, read in step 3.
    const bool in_sampled = in && engine::SampleStream::serves(in->graph(), sampled_edges);
    if (in_sampled) {
      in->edge_map_first<Id>(outside, link, sampled_edges, false);
      trace.record(*in, "in-sample", 0);
    }
    // The largest component's vertices point at its root still, unless
    // an in-edge hooked that root under another: then every vertex is
    // pointed at its root again.
    const bool giant_kept = forest.parent(giant) == giant;
    if (!giant_kept) giant = forest.find(giant);
    const engine::VertexSubset still_outside = out.vertex_map(giant_kept ? outside : all, [&](uint64_t v) {
      forest.compress(v);
      return forest.parent(v) != giant;
    });
    // 3. Only the vertices outside the largest component need the rest of
    //    their edges: an edge between two of its vertices changes nothing,
    //    and an edge from it to an outside vertex is among that vertex's
    //    in-edges (the transpose's out-edges; the out-edges themselves when
    //    the graph is symmetric). A list no longer than the sample was
    //    linked whole already (GAPBS's Afforest starts past the sample too),
    //    the in-lists of every vertex still outside among them.
    const layout::DegreeArray::Reader degrees = out.graph().degrees().reader();
    const layout::DegreeArray* in_degrees = in ? &in->graph().degrees() : nullptr;
    const uint32_t in_linked = in_sampled ? sampled_edges : 0;
    std::atomic<bool> joined{false};
    Link<Id> link_rest{forest, &joined};
    out.edge_map<Id>(out.vertex_map(still_outside, [&](uint64_t v) { return degrees[v] > sampled_edges; }), link_rest, false);
    trace.record(out, "out-edges", 1);
    if (in) {
      in->edge_map<Id>(out.vertex_map(still_outside, [&](uint64_t v) { return (*in_degrees)[v] > in_linked; }), link_rest, false);
      trace.record(*in, "in-edges", 1);
    }
    at_roots = !joined.load();
  }
  // Each vertex pointed at its root, its component's smallest id; then
  // the ids widened into the labels.
  if (!at_roots) {
    out.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
      for (uint64_t v = begin; v < end; ++v) forest.compress(v);
    });
  }
  base::widen_in_place<Id, uint64_t>(result.label.data(), 0, n);
  result.rounds = 2;
  return result;
}

}  // namespace

ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  if (in && in->graph().vertices() != n) throw std::invalid_argument("the transpose has another vertex count");
  if (out.distributed()) return wcc_on_ranks(out, in, trace);
  return n <= (uint64_t(1) << 32) ? afforest_one_process<uint32_t>(out, in, trace) : afforest_one_process<uint64_t>(out, in, trace);
}

namespace {
// Each component's size is counted in the upper half of its label's own
// entry (a label is its component's smallest vertex, whose entry holds
// the label itself in its lower half): no array of sizes beside the
// labels, which would take the peak back to 12 bytes a vertex. Labels
// of 2^32 and more take an array of counts.
void count_components_in_place(ComponentsResult& result) {
  constexpr uint64_t low = 0xffffffffULL, one = uint64_t(1) << 32;
  base::Array<uint64_t>& label = result.label;
  for (uint64_t v = 0; v < label.size(); ++v) label[label[v] & low] += one;
  result.components = 0;
  result.largest = 0;
  for (uint64_t v = 0; v < label.size(); ++v) {
    result.largest = std::max(result.largest, label[v] >> 32);
    label[v] &= low;
    if (label[v] == v) ++result.components;
  }
}

void count_components_apart(ComponentsResult& result) {
  base::Array<uint64_t> size = base::Array<uint64_t>::zeros(result.label.size(), "the component sizes");
  for (uint64_t l : result.label) ++size[l];
  result.components = 0;
  result.largest = 0;
  for (uint64_t v = 0; v < size.size(); ++v) {
    if (result.label[v] == v) ++result.components;
    result.largest = std::max(result.largest, size[v]);
  }
}
}  // namespace

void summarize_components(ComponentsResult& result) {
  if (result.label.size() < (uint64_t(1) << 32)) return count_components_in_place(result);
  count_components_apart(result);
}

void summarize_components(ComponentsResult& result, engine::RankExchange& ranks) {
  if (!ranks.distributed()) return summarize_components(result);
  engine::Communicator& communicator = ranks.communicator();
  const uint64_t first = ranks.owned_begin(), last = ranks.owned_end();
  // Each label is a vertex (its component's smallest): its owner counts
  // the component's vertices, told by every other rank how many of its
  // own carry the label. A label is at most its vertex, so it lies in the
  // own range (counted in an array over it) or below it (in a map: few,
  // the largest component's most of all), and no label is sorted.
  struct Piece {
    uint64_t label, size;
  };
  std::vector<uint64_t> size(last - first, 0);
  std::unordered_map<uint64_t, uint64_t> elsewhere;  // labels other ranks own
  uint64_t roots = 0;
  for (uint64_t v = first; v < last; ++v) {
    const uint64_t l = result.label[v];
    if (l >= first && l < last) ++size[l - first];
    else ++elsewhere[l];
    roots += l == v;
  }
  std::vector<std::vector<Piece>> pieces(size_t(communicator.size()));
  for (const auto& [label, count] : elsewhere) pieces[ranks.owner(label)].push_back({label, count});
  elsewhere = {};
  for (const Piece& piece : communicator.exchange_pieces(pieces)) size[piece.label - first] += piece.size;
  const uint64_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
  result.components = communicator.sum(roots);
  result.largest = communicator.fold(largest, [](uint64_t a, uint64_t b) { return std::max(a, b); });
}

}  // namespace sluice::algorithms
