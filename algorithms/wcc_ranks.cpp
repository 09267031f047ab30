// WCC on MPI ranks: Afforest on each rank's own part, then the ranks
// agree on the labels through the vertices they share.
#include <algorithm>
#include <limits>

#include "algorithms/afforest.hpp"
#include "algorithms/union_find.hpp"
#include "algorithms/wcc.hpp"

namespace sluice::algorithms {

namespace {

using afforest::Link;
using afforest::most_frequent_root;
using afforest::sampled_edges;

// Links each open destination with its in-neighbours: pulled over a
// rank's in-edges (or, where the engine cannot pull, pushed over all its
// edges), the open ones being those outside the largest component.
template <class Id>
struct LinkInto {
  ConcurrentForest<Id>& forest;
  Id giant;
  bool cond(uint64_t dst) const { return forest.parent(dst) != giant; }
  bool scatter(uint64_t src, uint64_t, float, Id& out) const {
    out = Id(src);
    return true;
  }
  bool gather(uint64_t dst, const Id& src) {
    forest.link(src, dst);
    return false;
  }
};

template <class Id>
struct Labelled {
  Id vertex, label;
};

// On several ranks, Afforest runs on each rank's own part, then the ranks
// agree on the labels. Every edge lies in exactly one part (its
// destination owner's), so a rank's forest over its part joins exactly
// what its edges join: its own vertices and its mirrors (the sources it
// reads from other ranks). Sampling reads the pages holding the first two
// edges of each list; then the vertices outside the rank's largest
// component stream the rest of their out-edges in the part (push) and
// their in-edges (pull over the part's CSC). The forests are never merged
// whole (that costs O(V) per step): the ranks agree on labels through the
// vertices they share, min-label propagation over the contracted graph
// (Gemini's and DFOGraph's CC exchange labels the same way), each round
// two exchanges: owners tell the ranks that read a vertex its label, and
// readers tell the owner of a mirror what its local component has seen,
// as (vertex, label) pairs or, where fewer bytes, every label read as
// values alone in the order both sides know. A label only ever falls, and
// it ends at the smallest id of the whole component, as on one process.
// The rounds cost O(own vertices + mirrors) each, never O(V).
template <class Id>
ComponentsResult afforest_on_ranks(engine::Engine& out, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  engine::RankExchange& ranks = out.ranks();
  engine::Communicator& communicator = ranks.communicator();
  ComponentsResult result;
  ConcurrentForest<Id> forest = afforest::singletons<Id>(out, n);
  // The vertices this rank's edges touch: its own range and its mirrors, ascending.
  std::vector<uint64_t> touched;
  touched.reserve(last - first);
  bool own_added = false;
  auto add_own = [&] {
    for (uint64_t v = first; v < last; ++v) touched.push_back(v);
    own_added = true;
  };
  ranks.mirrors().for_each([&](uint64_t u) {
    if (!own_added && u >= first) add_own();
    touched.push_back(u);
  });
  if (!own_added) add_own();
  auto compress = [&] {
    out.parallel_for(touched.size(), [&](int, uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) forest.compress(touched[i]);
    });
  };
  Link<Id> link{forest};
  out.edge_map_first<Id>(engine::VertexSubset::all(n), link, sampled_edges, false);
  trace.record(out, "sample", 0);
  compress();
  // The largest component as this rank's part sees it, sampled from its
  // range. (A rank without vertices has no edges: nothing is read then,
  // whatever it names.)
  const Id giant = last > first ? most_frequent_root(forest, first, last) : Id(0);
  const uint32_t* degrees = out.graph().degrees();  // in the part
  std::vector<uint64_t> rest;
  for (uint64_t v : touched) {
    if (forest.parent(v) != giant && degrees[v] > sampled_edges) rest.push_back(v);
  }
  out.edge_map<Id>(engine::VertexSubset::from_sorted_ids(n, std::move(rest)), link, false);
  trace.record(out, "out-edges", 1);
  LinkInto<Id> link_into{forest, giant};
  out.edge_map<Id>(engine::VertexSubset::all(n), link_into, false);
  trace.record(out, "in-edges", 1);
  compress();

  // Agreement. label: an own vertex's current label; a mirror's, the least
  // this rank and its owner both know of (unknown until the owner's first
  // word). least: per local root, the least label its component has seen.
  std::vector<Id> label(n), least(n);
  for (uint64_t v : touched) {
    const Id root = forest.parent(v);  // compressed: the root, the smallest id of the local component
    label[v] = v >= first && v < last ? root : std::numeric_limits<Id>::max();
    least[root] = root;
  }
  const size_t rank_count = size_t(communicator.size());
  std::vector<std::vector<Labelled<Id>>> pieces(rank_count);
  std::vector<uint64_t> changed;
  const uint64_t read_pairs = communicator.sum(ranks.read_pairs());  // (vertex, reading rank) pairs of every rank
  result.rounds = 2;
  for (uint64_t round = 0;; ++round) {
    // 1. Owners send the labels that changed to the ranks that read them:
    //    as (vertex, label) pairs, or, when those would take more bytes
    //    (the first round: every label), every label read as values alone
    //    in the order both sides know (Gemini's mirrors).
    for (auto& piece : pieces) piece.clear();
    uint64_t pairs = 0;
    if (round > 0) {
      for (uint64_t v : changed) ranks.for_each_reader(v, [&](size_t r) { pieces[r].push_back({Id(v), label[v]}); });
      for (const auto& piece : pieces) pairs += piece.size();
    }
    if (round == 0 || communicator.sum(pairs) * sizeof(Labelled<Id>) >= read_pairs * sizeof(Id)) {
      ranks.source_values(std::span<Id>(label));
      communicator.finish_pending();
      for (uint64_t v : touched) {
        if (v >= first && v < last) continue;
        Id& l = least[forest.parent(v)];
        l = std::min(l, label[v]);
      }
    } else {
      for (const Labelled<Id>& m : communicator.exchange_pieces(pieces)) {
        label[m.vertex] = std::min(label[m.vertex], m.label);
        Id& l = least[forest.parent(m.vertex)];
        l = std::min(l, m.label);
      }
    }
    // 2. Every touched vertex takes its component's least label; a mirror
    //    that falls tells its owner.
    for (auto& piece : pieces) piece.clear();
    changed.clear();
    for (uint64_t v : touched) {
      const Id l = least[forest.parent(v)];
      if (!(l < label[v])) continue;
      label[v] = l;
      if (v >= first && v < last) changed.push_back(v);
      else if (round > 0) pieces[ranks.owner(v)].push_back({Id(v), l});
    }
    auto take = [&](uint64_t v, Id value) {
      if (!(value < label[v])) return;
      label[v] = value;
      changed.push_back(v);
      Id& l = least[forest.parent(v)];
      l = std::min(l, value);
    };
    // First every mirror's label, as values alone (most fell); then pairs.
    if (round == 0) {
      ranks.mirror_values_to_owners(label.data(), take);
    } else {
      for (const Labelled<Id>& m : communicator.exchange_pieces(pieces)) take(m.vertex, m.label);
    }
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    out.end_exchange_step();
    trace.record_exchange(out, "labels", round);
    ++result.rounds;
    if (communicator.sum(uint64_t(changed.size())) == 0) break;
  }
  result.label = base::Array<uint64_t>(label.size(), "the component labels");
  std::copy(label.begin(), label.end(), result.label.begin());
  return result;
}

}  // namespace

ComponentsResult wcc_on_ranks(engine::Engine& out, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  return n <= (uint64_t(1) << 32) ? afforest_on_ranks<uint32_t>(out, trace) : afforest_on_ranks<uint64_t>(out, trace);
}

}  // namespace sluice::algorithms
