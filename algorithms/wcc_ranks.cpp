// WCC on MPI ranks: Afforest over each rank's own vertices' lists, then
// the ranks agree on the labels through the vertices they share.
#include <algorithm>
#include <atomic>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "algorithms/afforest.hpp"
#include "algorithms/union_find.hpp"
#include "algorithms/wcc.hpp"
#include "base/array.hpp"
#include "engine/indexed_bitmap.hpp"
#include "engine/labelled_exchange.hpp"

namespace sluice::algorithms {

namespace {

using afforest::Link;
using afforest::sampled_edges;

template <class Id>
using Labelled = engine::LabelledVertex<Id>;

// The vertices this rank's edges touch: its own range and its mirrors,
// walked ascending from the mirrors' bitmap (no list of 8 bytes each).
struct Touched {
  uint64_t vertices, first, last;
  const engine::IndexedBitmap& mirrors;
  template <class F>
  void for_each(F&& f) const {
    for_each_in(0, vertices, f);
  }
  // Those in [begin, end), ascending.
  template <class F>
  void for_each_in(uint64_t begin, uint64_t end, F& f) const {
    if (begin < std::min(end, first)) mirrors.for_each_in(begin, std::min(end, first), f);
    for (uint64_t v = std::max(begin, first); v < std::min(end, last); ++v) f(v);
    if (std::max(begin, last) < end) mirrors.for_each_in(std::max(begin, last), end, f);
  }
};

// Joins an own vertex's sampled out-neighbour where this rank owns it or
// reads it (a mirror: the label agreement covers it, and a hub that many
// vertices sample then costs one message, not one per edge); else keeps
// the edge for the neighbour's owner, whose part holds the edge (the
// vertex is one of its mirrors).
template <class Id>
struct LinkOrKeep : Link<Id> {
  uint64_t first, last;
  const engine::IndexedBitmap& mirrors;
  base::Array<Labelled<Id>>& kept;
  std::atomic<uint64_t>& count;
  bool gather_atomic(uint64_t dst, const Id& src) {
    if ((dst >= first && dst < last) || mirrors.test(dst)) return Link<Id>::gather_atomic(dst, src);
    kept[count.fetch_add(1, std::memory_order_relaxed)] = {src, Id(dst)};
    return false;
  }
};

// The own vertices whose list in `graph` is longer than `longer_than`
// (and, with `label`, whose label is not `giant`): set in a bitmap, a bit
// a vertex, where a list of the own range's ids took 8 bytes each.
template <class Id>
engine::VertexSubset own_with_lists(const engine::DiskGraph& graph, uint64_t first, uint64_t last, uint32_t longer_than,
                                    const std::vector<Id>* label = nullptr, Id giant = 0) {
  engine::IndexedBitmap members(graph.vertices());
  uint64_t count = 0;
  const layout::DegreeArray::Reader degrees = graph.degrees().reader();
  for (uint64_t v = first; v < last; ++v) {
    if (degrees[v] > longer_than && !(label && (*label)[v] == giant)) members.set(v), ++count;
  }
  return engine::VertexSubset::from_bitmap(std::move(members), count);
}

// Which other ranks read each own vertex and linked it in their sample,
// learnt in the first round of the sampled labels' agreement: a bitmap
// over the own range per rank: an eighth of a byte an own vertex and
// rank, where lists of readers would take 4 bytes a linked pair and 8 an
// own vertex (16 MB a rank on uniform 22's 4 ranks).
class LinkedReaders {
 public:
  LinkedReaders(uint64_t first, uint64_t last, size_t ranks) : first_(first) {
    for (size_t r = 0; r < ranks; ++r) linked_by_.emplace_back(last - first);
  }
  // What arrived in the first round, `from` each rank as many (as
  // exchange_labelled gives them).
  template <class Id>
  void add(const std::vector<Labelled<Id>>& told, const std::vector<uint64_t>& from) {
    size_t i = 0;
    for (size_t r = 0; r < from.size(); ++r) {
      for (uint64_t k = 0; k < from[r]; ++k) linked_by_[r].set(told[i++].vertex - first_);
    }
  }
  // f(r) for each rank r that linked own vertex v.
  template <class F>
  void for_each(uint64_t v, F&& f) const {
    for (size_t r = 0; r < linked_by_.size(); ++r) {
      if (linked_by_[r].test(v - first_)) f(r);
    }
  }
  // f(v) for each own vertex in [begin, end) that rank r linked, ascending.
  template <class F>
  void for_each_linked_by(size_t r, uint64_t begin, uint64_t end, F&& f) const {
    linked_by_[r].for_each_in(begin - first_, end - first_, [&](uint64_t i) { f(first_ + i); });
  }

 private:
  uint64_t first_;
  std::vector<engine::IndexedBitmap> linked_by_;
};

// The first round names every linked mirror to its owner, and is answered
// for each: O(mirrors) pairs on every rank at once, where later rounds
// carry only labels that fell (on uniform 22's 4 ranks, 2 M linked
// mirrors a rank, 60 MB at once in one piece). So it goes in slices of the
// vertex ids, each of at most about `pairs` linked mirrors a rank (the
// engine's --exchange-round in pairs), cut at 4096 buckets of the ids
// from every rank's counts summed: the same slices on every rank, and an
// owner receives no more from a slice than every rank names in it.
inline std::vector<uint64_t> first_round_slices(const engine::IndexedBitmap& linked, uint64_t n, uint64_t pairs,
                                                engine::Communicator& communicator) {
  constexpr uint64_t buckets = 4096;
  const uint64_t width = std::max<uint64_t>(1, (n + buckets - 1) / buckets);
  std::vector<uint64_t> counts(buckets, 0);
  linked.for_each([&](uint64_t u) { ++counts[size_t(u / width)]; });
  communicator.sum(std::span<uint64_t>(counts));
  const uint64_t most = std::max<uint64_t>(pairs, 1) * uint64_t(communicator.size());
  std::vector<uint64_t> bounds{0};
  uint64_t in_slice = 0;
  for (uint64_t b = 0; b < buckets && b * width < n; ++b) {
    if (in_slice > 0 && in_slice + counts[size_t(b)] > most) bounds.push_back(b * width), in_slice = 0;
    in_slice += counts[size_t(b)];
  }
  bounds.push_back(n);
  return bounds;
}

// The ranks' agreement on the sampled components' labels. Each rank has a
// forest over its own vertices and its mirrors (`touched`; the
// forest compressed), but only the mirrors its sample linked to another
// vertex carry anything: the others stay unknown here, so the rounds cost
// O(sampled edges) in bytes, whatever the number of mirrors.
// label: an own vertex's current label; a linked mirror's, what its owner
// last said (unknown before). least (every entry unknown on the way in):
// per local root, the least label its component has seen. Each round,
// readers tell a linked mirror's owner what its local component has seen
// below that, and owners tell the readers that linked a vertex the labels
// that fell. In the first round every linked mirror is told and answered
// (the answers as values alone, in the order asked), which is how an
// owner learns who linked it.
// A label only ever falls and ends at the smallest id of the whole
// component, as on one process.
template <class Id>
std::vector<Id> agree_on_sampled_labels(engine::Engine& out, ConcurrentForest<Id>& forest, const Touched& touched,
                                        std::vector<Id>& least, RunTrace& trace, uint64_t& rounds) {
  constexpr Id unknown = std::numeric_limits<Id>::max();
  const uint64_t n = out.graph().vertices();
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  engine::RankExchange& ranks = out.ranks();
  engine::Communicator& communicator = ranks.communicator();
  const size_t rank_count = size_t(communicator.size());
  std::vector<Id> label(n, unknown);
  // A local root (the smallest id of its local component) is its
  // component's first label; a mirror is linked if its component has
  // another vertex, or it is not the root.
  touched.for_each([&](uint64_t v) {
    const Id root = forest.parent(v);
    if (root != v || (v >= first && v < last)) least[root] = root;
  });
  engine::IndexedBitmap linked(n);  // a bit a vertex, where a list of ids took 8 bytes a linked mirror
  touched.for_each([&](uint64_t v) {
    if (v >= first && v < last) label[v] = forest.parent(v);
    else if (least[forest.parent(v)] != unknown) linked.set(v);
  });
  auto take = [&](uint64_t u, Id value) {  // what a mirror's owner said
    label[u] = value;
    Id& l = least[forest.parent(u)];
    l = std::min(l, value);
  };
  auto fold = [&](const std::vector<Labelled<Id>>& told) {  // what readers said
    for (const Labelled<Id>& m : told) {
      Id& l = least[forest.parent(m.vertex)];
      l = std::min(l, m.label);
    }
  };
  std::vector<std::vector<Labelled<Id>>> pieces(rank_count);
  // Readers tell owners what a linked mirror's component has seen below
  // its label, those in [begin, end); the owner's label falls to it.
  auto tell = [&](uint64_t begin, uint64_t end) {
    for (auto& piece : pieces) piece.clear();
    uint64_t sent = 0;
    linked.for_each_in(begin, end, [&](uint64_t u) {
      const Id l = least[forest.parent(u)];
      if (!(l < label[u])) return;
      pieces[ranks.owner(u)].push_back({Id(u), l});
      label[u] = l;
      ++sent;
    });
    return sent;
  };
  // Own vertices take their component's least label; with `note`, those
  // whose label fell go to `changed` (not in the first round, whose
  // answers cover every label asked about).
  std::vector<uint64_t> changed;
  auto own_take_least = [&](bool note) {
    changed.clear();
    for (uint64_t v = first; v < last; ++v) {
      const Id l = least[forest.parent(v)];
      if (!(l < label[v])) continue;
      label[v] = l;
      if (note) changed.push_back(v);
    }
  };

  // The first round, slice by slice: every linked mirror is told (its
  // label is unknown), owners learn who linked each of their vertices,
  // take their components' least labels, and answer every label asked
  // about, to the readers in the order they asked (ascending by vertex,
  // as the owners' ranges are).
  const std::vector<uint64_t> slices =
      first_round_slices(linked, n, out.options().exchange_round_bytes / sizeof(Labelled<Id>), communicator);
  LinkedReaders readers(first, last, rank_count);
  uint64_t sent = 0;
  for (size_t s = 0; s + 1 < slices.size(); ++s) {
    sent += tell(slices[s], slices[s + 1]);
    std::vector<uint64_t> from;
    const std::vector<Labelled<Id>> told = engine::exchange_labelled(communicator, pieces, &from);
    readers.add(told, from);
    fold(told);
  }
  own_take_least(false);
  for (size_t s = 0; s + 1 < slices.size(); ++s) {
    std::vector<std::vector<Id>> answers(rank_count);
    const uint64_t begin = std::clamp(slices[s], first, last), end = std::clamp(slices[s + 1], first, last);
    for (size_t r = 0; r < rank_count; ++r) {
      if (begin < end) readers.for_each_linked_by(r, begin, end, [&](uint64_t v) { answers[r].push_back(label[v]); });
    }
    const std::vector<Id> answered = engine::exchange_labels(communicator, answers);
    size_t i = 0;
    linked.for_each_in(slices[s], slices[s + 1], [&](uint64_t u) { take(u, answered.at(i++)); });
    if (i != answered.size()) throw std::logic_error("wcc on ranks: answered more labels than asked");
  }
  // Each later round: what fell since, told and answered whole.
  for (;;) {
    out.end_exchange_step();
    trace.record_exchange(out, "sample labels", rounds);
    ++rounds;
    if (communicator.sum(sent) == 0) break;
    sent = tell(0, n);
    fold(engine::exchange_labelled(communicator, pieces));
    own_take_least(true);
    std::vector<std::vector<Labelled<Id>>> fell(rank_count);
    for (uint64_t v : changed) readers.for_each(v, [&](size_t r) { fell[r].push_back({Id(v), label[v]}); });
    for (const auto& piece : fell) sent += piece.size();
    for (const Labelled<Id>& m : engine::exchange_labelled(communicator, fell)) take(m.vertex, m.label);
  }
  return label;
}

// Every mirror of this rank takes its owner's label, once the sampled
// labels are agreed: the largest component's (which every rank knows)
// unless its owner names another, as (vertex, label) pairs; or every
// label a rank reads as values alone, where that is fewer bytes
// (read_pairs: the (vertex, reading rank) pairs of every rank).
template <class Id>
void learn_mirror_labels(engine::Engine& out, std::vector<Id>& label, Id giant, const Touched& touched,
                         uint64_t read_pairs) {
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  engine::RankExchange& ranks = out.ranks();
  engine::Communicator& communicator = ranks.communicator();
  std::vector<std::vector<Labelled<Id>>> pieces(size_t(communicator.size()));
  uint64_t pairs = 0;
  for (uint64_t v = first; v < last; ++v) {
    if (label[v] == giant) continue;
    ranks.for_each_reader(v, [&](size_t r) { pieces[r].push_back({Id(v), label[v]}); });
  }
  for (const auto& piece : pieces) pairs += piece.size();
  if (communicator.sum(pairs) * sizeof(Labelled<Id>) >= read_pairs * sizeof(Id)) {
    ranks.source_values(std::span<Id>(label));
    communicator.finish_pending();
    return;
  }
  touched.for_each([&](uint64_t u) {
    if (u < first || u >= last) label[u] = giant;
  });
  for (const Labelled<Id>& m : engine::exchange_labelled(communicator, pieces)) label[m.vertex] = m.label;
}

// The ranks' agreement on the final labels, from `label`, labels they
// agreed on before the forests grew (each mirror's its owner's): each
// rank's forest covers its own vertices and its mirrors (`touched`; the
// forest compressed). Each round two exchanges, of what fell alone:
// owners tell the ranks that read a vertex its label, and readers tell
// the owner of a mirror what its local component has seen,
// as (vertex, label) pairs or, where fewer bytes, every label read as
// values alone in the order both sides know (Gemini's mirrors; read_pairs
// as learn_mirror_labels takes it). The rounds cost O(own vertices +
// mirrors) each, and a walk of the mirrors' bitmap (V / 64 words).
// least: as agree_on_sampled_labels left it (set afresh at every local
// root here: one array of V for both agreements).
template <class Id>
std::vector<Id> agree_on_labels(engine::Engine& out, ConcurrentForest<Id>& forest, const Touched& touched,
                                std::vector<Id>& least, uint64_t read_pairs, RunTrace& trace, uint64_t& rounds,
                                std::vector<Id> label) {
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  engine::RankExchange& ranks = out.ranks();
  engine::Communicator& communicator = ranks.communicator();
  touched.for_each([&](uint64_t v) { least[forest.parent(v)] = std::numeric_limits<Id>::max(); });
  touched.for_each([&](uint64_t v) { least[forest.parent(v)] = std::min(least[forest.parent(v)], label[v]); });
  const size_t rank_count = size_t(communicator.size());
  std::vector<std::vector<Labelled<Id>>> pieces(rank_count);
  std::vector<uint64_t> changed;
  for (uint64_t round = 0;; ++round) {
    // 1. Owners send the labels that changed to the ranks that read them
    //    (none the first round: every mirror has its owner's label).
    if (round > 0) {
      for (auto& piece : pieces) piece.clear();
      uint64_t pairs = 0;
      for (uint64_t v : changed) ranks.for_each_reader(v, [&](size_t r) { pieces[r].push_back({Id(v), label[v]}); });
      for (const auto& piece : pieces) pairs += piece.size();
      if (communicator.sum(pairs) * sizeof(Labelled<Id>) >= read_pairs * sizeof(Id)) {
        ranks.source_values(std::span<Id>(label));
        communicator.finish_pending();
        touched.for_each([&](uint64_t v) {
          if (v >= first && v < last) return;
          Id& l = least[forest.parent(v)];
          l = std::min(l, label[v]);
        });
      } else {
        for (const Labelled<Id>& m : engine::exchange_labelled(communicator, pieces)) {
          label[m.vertex] = std::min(label[m.vertex], m.label);
          Id& l = least[forest.parent(m.vertex)];
          l = std::min(l, m.label);
        }
      }
    }
    // 2. Every touched vertex takes its component's least label; a mirror
    //    that falls tells its owner.
    for (auto& piece : pieces) piece.clear();
    changed.clear();
    touched.for_each([&](uint64_t v) {
      const Id l = least[forest.parent(v)];
      if (!(l < label[v])) return;
      label[v] = l;
      if (v >= first && v < last) changed.push_back(v);
      else pieces[ranks.owner(v)].push_back({Id(v), l});
    });
    for (const Labelled<Id>& m : engine::exchange_labelled(communicator, pieces)) {
      if (!(m.label < label[m.vertex])) continue;
      label[m.vertex] = m.label;
      changed.push_back(m.vertex);
      Id& l = least[forest.parent(m.vertex)];
      l = std::min(l, m.label);
    }
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    out.end_exchange_step();
    trace.record_exchange(out, "labels", rounds);
    ++rounds;
    if (communicator.sum(uint64_t(changed.size())) == 0) break;
  }
  return label;
}

// The label that most vertices of all ranks carry, among each rank's
// most frequent one in a sample of 1024 of its own vertices: a reduction,
// the same answer on every rank.
template <class Id>
Id largest_component(const std::vector<Id>& label, uint64_t first, uint64_t last, engine::Communicator& communicator) {
  uint64_t guess = std::numeric_limits<uint64_t>::max();  // a rank without vertices votes for none
  if (last > first) guess = afforest::most_frequent<Id>(first, last, [&](uint64_t v) { return label[v]; });
  std::vector<uint64_t> guesses = communicator.all_gather_one(guess);
  std::sort(guesses.begin(), guesses.end());
  guesses.erase(std::unique(guesses.begin(), guesses.end()), guesses.end());
  std::vector<uint64_t> carried(guesses.size(), 0);
  for (uint64_t v = first; v < last; ++v) {
    const auto at = std::lower_bound(guesses.begin(), guesses.end(), uint64_t(label[v]));
    if (at != guesses.end() && *at == label[v]) ++carried[size_t(at - guesses.begin())];
  }
  communicator.sum(std::span<uint64_t>(carried));
  size_t best = 0;
  for (size_t i = 1; i < guesses.size(); ++i) {
    if (carried[i] > carried[best]) best = i;
  }
  return Id(guesses[best]);
}

// On several ranks each rank reads only its own vertices' lists, as one
// process reads everyone's: their in-lists are in its part's CSC, their
// out-lists in the CSC of the transpose graph's part (`in`; none for a
// symmetric graph, whose in-lists are its out-lists). Afforest's sample
// (the first two of each) is linked first; a sampled out-neighbour owned
// elsewhere goes to its owner, whose part holds that edge. The ranks then
// agree on the sampled components' labels and on the largest of them,
// and only the vertices outside it stream the rest: their own in- and
// out-lists, and, as sources, their edges in every part (an edge from an
// outside vertex into the largest component lies only there). The forests
// are never merged whole (that costs O(V) per step): the ranks agree on
// the final labels as on the sampled ones (agree_on_labels).
template <class Id>
ComponentsResult afforest_on_ranks(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  const uint64_t first = out.owned_begin(), last = out.owned_end();
  engine::RankExchange& ranks = out.ranks();
  engine::Communicator& communicator = ranks.communicator();
  ComponentsResult result;
  ConcurrentForest<Id> forest = afforest::singletons<Id>(out, n);
  const Touched touched{n, first, last, ranks.mirrors()};
  auto compress = [&] {
    out.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
      auto compress_one = [&](uint64_t v) { forest.compress(v); };
      touched.for_each_in(begin, end, compress_one);
    });
  };
  // Run as one process over the own vertices' lists (Engine::kept_transposed,
  // made when the program opened the parts, and kept for every trial).
  // A symmetric layout split without --transpose has no CSC: its parts'
  // own out-lists stand in for the sample, and every edge with an end
  // outside the largest component is some outside vertex's out-edge.
  engine::Engine* const own_in = out.can_pull() ? &out.kept_transposed() : nullptr;
  engine::Engine* const own_out = in ? &in->kept_transposed() : nullptr;

  // 1. The sample: the first two in- and out-neighbours of each own vertex.
  Link<Id> link{forest};
  engine::Engine& in_lists = own_in ? *own_in : out;
  in_lists.edge_map_first<Id>(own_with_lists<Id>(in_lists.graph(), first, last, 0), link, sampled_edges, false);
  trace.record(in_lists, own_in ? "in-sample" : "sample in the part", 0);
  if (own_out) {
    // Room for every sampled edge, of which few are kept (17,791 of 4.2 M
    // on RMAT 22's 2 ranks): left unwritten, its pages cost nothing.
    base::Array<Labelled<Id>> kept((last - first) * sampled_edges, "the sampled edges kept for their owners");
    std::atomic<uint64_t> count{0};
    LinkOrKeep<Id> link_or_keep{{forest}, first, last, ranks.mirrors(), kept, count};
    own_out->edge_map_first<Id>(own_with_lists<Id>(own_out->graph(), first, last, 0), link_or_keep, sampled_edges, false);
    trace.record(*own_out, "out-sample", 0);
    std::vector<std::vector<Labelled<Id>>> pieces(size_t(communicator.size()));
    for (uint64_t i = 0; i < count.load(); ++i) pieces[ranks.owner(kept[i].label)].push_back(kept[i]);
    for (auto& piece : pieces) std::sort(piece.begin(), piece.end(), [](const Labelled<Id>& a, const Labelled<Id>& b) { return a.vertex < b.vertex; });
    for (const Labelled<Id>& edge : engine::exchange_labelled(communicator, pieces)) forest.link(edge.vertex, edge.label);
  }
  compress();
  uint64_t rounds = 2;
  std::vector<Id> least(n, std::numeric_limits<Id>::max());
  std::vector<Id> label = agree_on_sampled_labels(out, forest, touched, least, trace, rounds);

  // 2. The rest of the lists of the vertices outside the largest component.
  const Id giant = largest_component(label, first, last, communicator);
  const uint64_t read_pairs = communicator.sum(ranks.read_pairs());  // (vertex, reading rank) pairs of every rank
  learn_mirror_labels(out, label, giant, touched, read_pairs);
  // Which lists no longer than the sample were linked whole already: a
  // rank knows the whole out-degrees of its own vertices alone, and tells
  // the ranks that read one outside the largest component (few: ids).
  std::vector<Id> short_mirrors;  // ascending: each piece is, and ranges follow each other
  if (own_out) {
    std::vector<std::vector<Id>> pieces(size_t(communicator.size()));
    for (uint64_t v = first; v < last; ++v) {
      if (label[v] == giant || out.out_degree(v) > sampled_edges) continue;
      ranks.for_each_reader(v, [&](size_t r) { pieces[r].push_back(Id(v)); });
    }
    short_mirrors = communicator.exchange_pieces(pieces);
  }
  auto linked_whole = [&](uint64_t v) {
    if (!own_out) return false;
    if (v >= first && v < last) return out.out_degree(v) <= sampled_edges;
    return std::binary_search(short_mirrors.begin(), short_mirrors.end(), Id(v));
  };
  std::vector<uint64_t> sources;
  const layout::DegreeArray::Reader part_degrees = out.graph().degrees().reader();
  touched.for_each([&](uint64_t v) {
    if (label[v] != giant && part_degrees[v] > 0 && !linked_whole(v)) sources.push_back(v);
  });
  out.edge_map<Id>(engine::VertexSubset::from_sorted_ids(n, std::move(sources)), link, false);
  trace.record(out, "out-edges in the part", 1);
  if (own_in) {
    own_in->edge_map<Id>(own_with_lists(own_in->graph(), first, last, sampled_edges, &label, giant), link, false);
    trace.record(*own_in, "in-edges", 1);
  }
  compress();
  label = agree_on_labels(out, forest, touched, least, read_pairs, trace, rounds, std::move(label));
  result.rounds = rounds;
  // Valid on the own range alone: the rest of the array is never touched
  // (calloc's pages), so it costs nothing beyond the range.
  result.label = base::Array<uint64_t>::zeros(label.size(), "the component labels");
  std::copy(label.begin() + long(first), label.begin() + long(last), result.label.begin() + long(first));
  return result;
}

}  // namespace

ComponentsResult wcc_on_ranks(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  return n <= (uint64_t(1) << 32) ? afforest_on_ranks<uint32_t>(out, in, trace) : afforest_on_ranks<uint64_t>(out, in, trace);
}

}  // namespace sluice::algorithms
