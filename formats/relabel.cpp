#include "formats/relabel.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "base/thread_count.hpp"

namespace sluice::formats {

namespace {

// Ids up to a few times the edge count: a bitmap of the ids seen and a
// running count per 64-bit word give each id its dense number in O(1).
template <class V>
base::IdMap compact_by_bitmap(EdgeList<V>& edges, uint64_t largest, int threads) {
  const uint64_t m = edges.size();
  const uint64_t words = largest / 64 + 1;
  base::Array<uint64_t> seen = base::Array<uint64_t>::zeros(words, "the ids seen");
  base::Array<uint64_t> before(words + 1, "the ids seen before each word");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    for (uint64_t id : {uint64_t(edges.sources[e]), uint64_t(edges.targets[e])}) {
      std::atomic_ref<uint64_t>(seen[id / 64]).fetch_or(uint64_t(1) << (id % 64), std::memory_order_relaxed);
    }
  }
  before[0] = 0;
  for (uint64_t w = 0; w < words; ++w) before[w + 1] = before[w] + uint64_t(std::popcount(seen[w]));
  auto dense = [&](uint64_t id) {
    const uint64_t below = seen[id / 64] & ((uint64_t(1) << (id % 64)) - 1);
    return before[id / 64] + uint64_t(std::popcount(below));
  };
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    edges.sources[e] = V(dense(edges.sources[e]));
    edges.targets[e] = V(dense(edges.targets[e]));
  }
  base::Array<uint64_t> originals(before[words], "the id map");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t w = 0; w < words; ++w) {
    uint64_t at = before[w];
    for (uint64_t bits = seen[w]; bits; bits &= bits - 1) originals[at++] = w * 64 + uint64_t(std::countr_zero(bits));
  }
  edges.vertices = originals.size();
  return base::IdMap(std::move(originals));
}

// Sparse ids (64-bit hashes): the distinct ids sorted, each edge's ends
// found by binary search.
template <class V>
base::IdMap compact_by_sorting(EdgeList<V>& edges, int threads) {
  const uint64_t m = edges.size();
  base::require_memory(2 * m * 8, "relabelling");
  base::Array<uint64_t> ids(2 * m, "the ids to relabel");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    ids[2 * e] = edges.sources[e];
    ids[2 * e + 1] = edges.targets[e];
  }
  std::sort(ids.begin(), ids.end());
  ids.truncate(uint64_t(std::unique(ids.begin(), ids.end()) - ids.begin()));
  auto dense = [&](uint64_t id) { return uint64_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin()); };
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    edges.sources[e] = V(dense(edges.sources[e]));
    edges.targets[e] = V(dense(edges.targets[e]));
  }
  edges.vertices = ids.size();
  return base::IdMap(std::move(ids));
}

}  // namespace

template <class V>
base::IdMap compact_ids(EdgeList<V>& edges, int threads) {
  threads = base::resolve_threads(threads);
  const uint64_t m = edges.size();
  if (m == 0) {
    edges.vertices = 0;
    return {};
  }
  uint64_t largest = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : largest)
  for (uint64_t e = 0; e < m; ++e) largest = std::max({largest, uint64_t(edges.sources[e]), uint64_t(edges.targets[e])});
  // The bitmap costs largest / 4 bytes (bits and counts); sorting, 16 per edge.
  if (largest / 4 <= 16 * m + (uint64_t(1) << 24)) return compact_by_bitmap(edges, largest, threads);
  return compact_by_sorting(edges, threads);
}

template base::IdMap compact_ids(EdgeList<uint32_t>&, int);
template base::IdMap compact_ids(EdgeList<uint64_t>&, int);

template <class V>
base::IdMap order_by_degree(EdgeList<V>& edges, int threads) {
  threads = base::resolve_threads(threads);
  const uint64_t n = edges.vertices, m = edges.size();
  base::Array<uint64_t> degree = base::Array<uint64_t>::zeros(n, "degrees to order by");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    std::atomic_ref<uint64_t>(degree[edges.sources[e]]).fetch_add(1, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(degree[edges.targets[e]]).fetch_add(1, std::memory_order_relaxed);
  }
  // originals[new] = old: by descending degree, ties by id (a stable sort of the ids).
  base::Array<uint64_t> originals(n, "the id map");
  for (uint64_t v = 0; v < n; ++v) originals[v] = v;
  std::stable_sort(originals.begin(), originals.end(), [&](uint64_t a, uint64_t b) { return degree[a] > degree[b]; });
  base::Array<uint64_t>& renamed = degree;  // reused: renamed[old] = new
  for (uint64_t v = 0; v < n; ++v) renamed[originals[v]] = v;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    edges.sources[e] = V(renamed[edges.sources[e]]);
    edges.targets[e] = V(renamed[edges.targets[e]]);
  }
  return base::IdMap(std::move(originals));
}

template base::IdMap order_by_degree(EdgeList<uint32_t>&, int);
template base::IdMap order_by_degree(EdgeList<uint64_t>&, int);

EdgeList<uint32_t> narrowed(EdgeList<uint64_t>&& edges, int threads) {
  threads = base::resolve_threads(threads);
  EdgeList<uint32_t> narrow;
  narrow.vertices = edges.vertices;
  narrow.weighted = edges.weighted;
  narrow.weights = std::move(edges.weights);
  const uint64_t m = edges.size();
  narrow.sources = base::Array<uint32_t>(m, "edge sources");
  narrow.targets = base::Array<uint32_t>(m, "edge targets");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t e = 0; e < m; ++e) {
    narrow.sources[e] = uint32_t(edges.sources[e]);
    narrow.targets[e] = uint32_t(edges.targets[e]);
  }
  return narrow;
}

base::IdMap compose(const base::IdMap& inner, base::IdMap outer) {
  if (inner.empty()) return outer;
  if (outer.empty()) return inner.copy();
  const uint64_t n = outer.originals().size();
  base::Array<uint64_t> originals(n, "the id map");
  for (uint64_t v = 0; v < n; ++v) originals[v] = inner.original(outer.original(v));
  return base::IdMap(std::move(originals));
}

}  // namespace sluice::formats
