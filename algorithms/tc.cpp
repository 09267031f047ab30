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

// v -> w is kept when w ranks above v: by degree, then by id.
struct Order {
  const uint32_t* degree;
  bool above(uint64_t w, uint64_t v) const { return degree[w] > degree[v] || (degree[w] == degree[v] && w > v); }
};

void add(uint64_t& at, uint64_t count) { std::atomic_ref<uint64_t>(at).fetch_add(count, std::memory_order_relaxed); }

// The neighbours of `list` that rank above its vertex, sorted, each once.
template <class Id>
void orient(const engine::NeighbourList& list, Order order, std::vector<Id>& out) {
  out.clear();
  for (uint64_t w : list.targets) {
    if (order.above(w, list.vertex)) out.push_back(Id(w));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// The ids both sorted lists hold: each is the top of a triangle, credited
// to it; returns how many.
template <class Id>
uint64_t close_triangles(std::span<const Id> a, std::span<const Id> b, uint64_t* triangles) {
  uint64_t found = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      add(triangles[a[i]], 1);
      ++found, ++i, ++j;
    }
  }
  return found;
}

// Triangles u < v < w (in rank) for u's oriented list, v among those of its
// members held: credited to u, v and w.
template <class Id>
uint64_t count_from(uint64_t u, std::span<const Id> above_u, const engine::ResidentLists<Id>& held, uint64_t* triangles) {
  uint64_t at_u = 0;
  for (Id v : above_u) {
    if (!held.holds(v)) continue;
    const uint64_t found = close_triangles<Id>(above_u, held.of(v), triangles);
    if (found) add(triangles[v], found), at_u += found;
  }
  if (at_u) add(triangles[u], at_u);
  return at_u;
}

// Each vertex's oriented degree at most: its degree, and the vertices of
// at least its degree other than itself. (Hubs rank high: few rank above.)
std::vector<uint64_t> oriented_bounds(const uint32_t* degree, uint64_t n) {
  std::vector<uint32_t> sorted(degree, degree + n);
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint64_t> bound(n);
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t at_least = uint64_t(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), degree[v]));
    bound[v] = std::min<uint64_t>(degree[v], at_least - 1);
  }
  return bound;
}

template <class Id>
TcResult count(engine::Engine& engine, const TcOptions& options, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  const Order order{engine.out_degrees()};
  TcResult result;
  result.triangles.assign(n, 0);
  std::vector<uint32_t> out(n, 0), in(n, 0);  // oriented degrees: their sum is the simple degree
  result.list_memory = options.list_memory;
  if (!result.list_memory) {
    const uint64_t limit = engine.fitted().limit, used = engine.budget().total();
    result.list_memory = !limit ? std::numeric_limits<uint64_t>::max() : limit > used ? limit - used : 0;
    if (result.list_memory < tc_least_list_memory) {
      throw std::runtime_error("tc: the memory limit leaves " + std::to_string(result.list_memory >> 10) +
                               " KiB for the neighbour lists, under the 1024 KiB they need at least (raise --memory-limit, or give --list-memory)");
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  {
    const std::vector<uint64_t> bound = oriented_bounds(order.degree, n);
    ranges = engine::list_ranges(n, result.list_memory, [&](uint64_t v) {
      return engine::ResidentLists<Id>::bytes_per_vertex + sizeof(Id) * bound[v];
    });
  }
  result.ranges = ranges.size();
  result.passes = ranges.size() == 1 ? 1 : ranges.size() + 1;
  std::atomic<uint64_t> total{0};
  std::vector<std::vector<Id>> scratch(size_t(engine.threads()));
  for (size_t r = 0; r < ranges.size(); ++r) {
    const engine::ResidentLists<Id> held = engine.hold_lists<Id>(ranges[r].first, ranges[r].second,
                                                                 [&](const engine::NeighbourList& list, std::vector<Id>& kept) {
      orient(list, order, kept);
      out[list.vertex] = uint32_t(kept.size());
      for (Id w : kept) std::atomic_ref<uint32_t>(in[w]).fetch_add(1, std::memory_order_relaxed);
    });
    trace.record(engine, "hold", r);
    result.held_bytes = std::max(result.held_bytes, held.bytes());
    result.oriented_edges += held.ids();
    if (ranges.size() == 1) {  // every list is held: count from them
      std::atomic<uint64_t> cursor{0};
      constexpr uint64_t step = 1024;
      engine.on_every_thread([&](int) {
        uint64_t found = 0;
        for (uint64_t first; (first = cursor.fetch_add(step, std::memory_order_relaxed)) < n && !base::interruption_requested();) {
          for (uint64_t u = first; u < std::min(n, first + step); ++u) found += count_from<Id>(u, held.of(u), held, result.triangles.data());
        }
        total += found;
      });
      continue;
    }
    // Several ranges: every list streams past this one's.
    engine.for_each_list(engine::VertexSubset::all(n), [&](const engine::NeighbourList& list) {
      std::vector<Id>& above = scratch[size_t(list.thread)];
      above.clear();
      bool reaches = false;  // a list with no member in the range needs no sort
      for (uint64_t w : list.targets) {
        if (!order.above(w, list.vertex)) continue;
        above.push_back(Id(w));
        reaches |= held.holds(w);
      }
      if (!reaches) return;
      std::sort(above.begin(), above.end());
      above.erase(std::unique(above.begin(), above.end()), above.end());
      total += count_from<Id>(list.vertex, std::span<const Id>(above), held, result.triangles.data());
    });
    trace.record(engine, "scan", r);
  }
  result.total = total.load();
  result.clustering.assign(n, 0.0);
  double triads = 0, clustering = 0;  // sum of d(d - 1), and of the coefficients, in vertex order
  for (uint64_t v = 0; v < n; ++v) {
    const double d = double(out[v]) + double(in[v]);
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
