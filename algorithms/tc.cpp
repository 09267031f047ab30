#include "algorithms/tc.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "base/interruption.hpp"

namespace sluice::algorithms {

namespace {

void add(uint64_t& at, uint64_t count) { std::atomic_ref<uint64_t>(at).fetch_add(count, std::memory_order_relaxed); }

// The vertices in rank order: by degree, then by id (a counting sort over
// the degrees). Oriented lists hold ranks, so that in a list sorted by
// rank the neighbours above any member are the ones after it.
template <class Id>
struct Ranking {
  std::vector<Id> rank_of, id_of;
  std::vector<uint64_t> at_least;  // per degree: the vertices of at least that degree

  Ranking(const layout::DegreeArray::Reader& degree, uint64_t n) : rank_of(n), id_of(n) {
    uint32_t largest = 0;
    for (uint64_t v = 0; v < n; ++v) largest = std::max(largest, degree[v]);
    std::vector<uint64_t> start(uint64_t(largest) + 2, 0);
    for (uint64_t v = 0; v < n; ++v) ++start[degree[v] + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    at_least.resize(start.size() - 1);
    for (size_t d = 0; d + 1 < start.size(); ++d) at_least[d] = n - start[d];
    for (uint64_t v = 0; v < n; ++v) {
      const uint64_t r = start[degree[v]]++;
      rank_of[v] = Id(r), id_of[r] = Id(v);
    }
  }
};

// Where a thread credits triangles (by rank): a tally of its own (32-bit,
// carried into the shared count when it wraps) where the budget holds one
// per thread, else the shared counts, atomically (the tops of triangles
// are mostly the same few hubs, whose counts the threads would share).
class Credits {
 public:
  Credits(uint64_t* shared, uint32_t* tally) : shared_(shared), tally_(tally) {}
  void operator()(uint64_t r, uint64_t count) {
    if (!tally_) return add(shared_[r], count);
    const uint64_t sum = uint64_t(tally_[r]) + count;
    tally_[r] = uint32_t(sum);
    if (sum >> 32) add(shared_[r], sum & ~uint64_t(UINT32_MAX));
  }

 private:
  uint64_t* shared_;
  uint32_t* tally_;
};

// The ranks of `list`'s neighbours above its vertex, sorted, each once.
template <class Id>
void orient(const engine::NeighbourList& list, const Ranking<Id>& ranking, std::vector<Id>& out) {
  const uint64_t own = ranking.rank_of[list.vertex];
  out.clear();
  for (uint64_t w : list.targets) {
    const Id r = ranking.rank_of[w];
    if (r > own) out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// The ranks both sorted lists hold: each the top of a triangle, credited;
// returns how many.
template <class Id>
uint64_t close_triangles(const Id* a, const Id* a_end, const Id* b, const Id* b_end, Credits& credit) {
  uint64_t found = 0;
  while (a != a_end && b != b_end) {
    if (*a < *b) {
      ++a;
    } else if (*b < *a) {
      ++b;
    } else {
      credit(*a, 1);
      ++found, ++a, ++b;
    }
  }
  return found;
}

// Triangles u < v < w (in rank) for u's oriented list, with v among the
// held vertices: w is above v, so only the part of u's list after v can
// meet v's list. Credited to u, v and w; returns how many.
template <class Id>
uint64_t count_from(uint64_t u_rank, std::span<const Id> above_u, const engine::ResidentLists<Id>& held, const Ranking<Id>& ranking,
                    Credits& credit) {
  uint64_t at_u = 0;
  for (size_t i = 0; i + 1 < above_u.size(); ++i) {
    const uint64_t v = ranking.id_of[above_u[i]];
    if (!held.holds(v)) continue;
    const std::span<const Id> above_v = held.of(v);
    const uint64_t found = close_triangles<Id>(above_u.data() + i + 1, above_u.data() + above_u.size(), above_v.data(),
                                               above_v.data() + above_v.size(), credit);
    if (found) credit(above_u[i], found), at_u += found;
  }
  if (at_u) credit(u_rank, at_u);
  return at_u;
}

template <class Id>
TcResult count(engine::Engine& engine, const TcOptions& options, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  const layout::DegreeArray::Reader degree = engine.graph().degrees().reader();  // the whole graph's: tc runs in one process
  TcResult result;
  result.list_memory = options.list_memory;
  if (!result.list_memory) {
    const uint64_t limit = engine.fitted().limit, used = engine.budget().total();
    result.list_memory = !limit ? std::numeric_limits<uint64_t>::max() : limit > used ? limit - used : 0;
    if (result.list_memory < tc_least_list_memory) {
      throw std::runtime_error("tc: the memory limit leaves " + std::to_string(result.list_memory >> 10) +
                               " KiB for the neighbour lists, under the 1024 KiB they need at least (raise --memory-limit, or give --list-memory)");
    }
  }
  const Ranking<Id> ranking(degree, n);
  std::vector<uint64_t> by_rank(n, 0);                     // triangles, by rank
  std::vector<uint32_t> out(n, 0), in_by_rank(n, 0);      // oriented degrees: their sum is the simple degree
  // A tally per thread when they take at most a quarter of the list budget
  // (beyond that the lists need the room: fewer ranges, fewer bytes read).
  const uint64_t threads = uint64_t(engine.threads());
  std::vector<std::vector<uint32_t>> tallies(threads > 1 && 16 * n * threads <= result.list_memory ? threads : 0);
  if (!tallies.empty()) result.list_memory -= 4 * n * threads;
  for (std::vector<uint32_t>& tally : tallies) tally.assign(n, 0);
  auto credits = [&](int t) { return Credits(by_rank.data(), tallies.empty() ? nullptr : tallies[size_t(t)].data()); };
  // A vertex holds at most its degree, and at most the vertices of at
  // least its degree but itself (hubs rank high: few rank above them).
  // The first range is cut by that bound. Its scan counts every list's
  // part above its vertex (before deduplication: exact on a deduplicated
  // layout), and the rest are cut by those counts: on RMAT 22 the bound
  // alone cut 11 ranges where a quarter of the bytes asked for 4.
  auto ranges = engine::list_ranges(n, result.list_memory, [&](uint64_t v) {
    return engine::ResidentLists<Id>::bytes_per_vertex + sizeof(Id) * std::min<uint64_t>(degree[v], ranking.at_least[degree[v]] - 1);
  });
  bool counted = false;  // the lists' sizes above their vertices, in `out` for those not held yet
  std::atomic<uint64_t> total{0};
  std::vector<std::vector<Id>> scratch(size_t(engine.threads()));
  for (size_t r = 0; r < ranges.size(); ++r) {
    const uint64_t first = ranges[r].first, last = ranges[r].second;  // not a structured binding: clang 14 cannot capture one
    const engine::ResidentLists<Id> held = engine.hold_lists<Id>(first, last, [&](const engine::NeighbourList& list, std::vector<Id>& kept) {
      orient(list, ranking, kept);
      out[list.vertex] = uint32_t(kept.size());
      for (Id w : kept) std::atomic_ref<uint32_t>(in_by_rank[w]).fetch_add(1, std::memory_order_relaxed);
    });
    trace.record(engine, "hold", r);
    result.held_bytes = std::max(result.held_bytes, held.bytes());
    result.oriented_edges += held.ids();
    if (ranges.size() == 1) {  // every list is held: count from them
      std::atomic<uint64_t> cursor{0};
      constexpr uint64_t step = 1024;
      engine.on_every_thread([&](int t) {
        Credits credit = credits(t);
        uint64_t found = 0;
        for (uint64_t from; (from = cursor.fetch_add(step, std::memory_order_relaxed)) < n && !base::interruption_requested();) {
          for (uint64_t u = from; u < std::min(n, from + step); ++u) found += count_from<Id>(ranking.rank_of[u], held.of(u), held, ranking, credit);
        }
        total += found;
      });
      continue;
    }
    // Several ranges: every list streams past this one's.
    engine.for_each_list(engine::VertexSubset::all(n), [&](const engine::NeighbourList& list) {
      std::vector<Id>& above = scratch[size_t(list.thread)];
      const Id own = ranking.rank_of[list.vertex];
      above.clear();
      bool reaches = false;  // a list with no member in the range needs no sort
      for (uint64_t w : list.targets) {
        const Id rank = ranking.rank_of[w];
        if (rank <= own) continue;
        above.push_back(rank);
        reaches |= held.holds(w);
      }
      if (!counted && list.vertex >= last) out[list.vertex] = uint32_t(above.size());
      if (!reaches) return;
      std::sort(above.begin(), above.end());
      above.erase(std::unique(above.begin(), above.end()), above.end());
      Credits credit = credits(list.thread);
      total += count_from<Id>(own, std::span<const Id>(above), held, ranking, credit);
    });
    trace.record(engine, "scan", r);
    if (!counted) {
      counted = true;
      ranges.resize(r + 1);
      if (last < n) {
        for (auto [a, b] : engine::list_ranges(n - last, result.list_memory, [&](uint64_t i) {
               return engine::ResidentLists<Id>::bytes_per_vertex + sizeof(Id) * out[last + i];
             })) {
          ranges.emplace_back(last + a, last + b);
        }
      }
    }
  }
  result.ranges = ranges.size();
  result.passes = ranges.size() == 1 ? 1 : ranges.size() + 1;
  result.total = total.load();
  for (const std::vector<uint32_t>& tally : tallies) {
    engine.parallel_for(n, [&](int, uint64_t begin, uint64_t end) {
      for (uint64_t r = begin; r < end; ++r) by_rank[r] += tally[r];
    });
  }
  tallies.clear();
  result.triangles.resize(n);
  result.clustering.assign(n, 0.0);
  double triads = 0, clustering = 0;  // sum of d(d - 1), and of the coefficients, in vertex order
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t rank = ranking.rank_of[v];
    result.triangles[v] = by_rank[rank];
    const double d = double(out[v]) + double(in_by_rank[rank]);
    if (d >= 2) result.clustering[v] = 2.0 * double(result.triangles[v]) / (d * (d - 1));
    triads += d * (d - 1);
    clustering += result.clustering[v];
  }
  result.transitivity = result.total ? 6.0 * double(result.total) / triads : 0.0;
  result.average_clustering = n ? clustering / double(n) : 0.0;
  return result;
}

}  // namespace

TcResult tc(engine::Engine& engine, const TcOptions& options, RunTrace& trace) {
  if (engine.graph().vertices() <= std::numeric_limits<uint32_t>::max()) return count<uint32_t>(engine, options, trace);
  return count<uint64_t>(engine, options, trace);
}

}  // namespace sluice::algorithms
