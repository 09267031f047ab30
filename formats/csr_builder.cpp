#include "formats/csr_builder.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace sluice {

int resolve_threads(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

namespace {

// Exclusive prefix sum of `counts` into `out` (n + 1 entries), in parallel.
void parallel_exclusive_scan(const uint64_t* counts, uint64_t* out, uint64_t n, int threads) {
  std::vector<uint64_t> partial(threads + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    int t = omp_get_thread_num();
    int nt = omp_get_num_threads();
    uint64_t begin = n * t / nt, end = n * (t + 1) / nt;
    uint64_t sum = 0;
    for (uint64_t v = begin; v < end; ++v) sum += counts[v];
    partial[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int i = 0; i < nt; ++i) partial[i + 1] += partial[i];
    uint64_t running = partial[t];
    for (uint64_t v = begin; v < end; ++v) {
      uint64_t c = counts[v];
      out[v] = running;
      running += c;
    }
  }
  out[n] = std::accumulate(counts, counts + n, uint64_t{0});
}

}  // namespace

template <class V>
Csr<V> build_csr(const EdgeList<V>& edges, const BuildOptions& options) {
  const int threads = resolve_threads(options.threads);
  const uint64_t n = edges.vertices;
  const uint64_t m = edges.size();
  const bool weighted = edges.weighted;
  const bool forward = !options.transpose || options.symmetrize;
  const bool backward = options.transpose || options.symmetrize;
  const bool drop_loops = options.drop_self_loops;

  Csr<V> csr;
  csr.vertices = n;
  csr.weighted = weighted;
  if (n == 0) {
    csr.offsets = Array<uint64_t>::zeros(1, "CSR offsets");
    return csr;
  }

  // One slice of the edge list per thread; counts[t][v] is slice t's
  // contribution to v's neighbour list, later turned into its write cursor.
  const int slices = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(threads, m)));
  require_memory(uint64_t(slices) * n * sizeof(uint64_t) + 8 * n, "degree counting");
  std::vector<Array<uint64_t>> counts(slices);
  auto slice_begin = [&](int s) { return m * s / slices; };

#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int s = 0; s < slices; ++s) {
    counts[s] = Array<uint64_t>::zeros(n, "degree counts");
    uint64_t* count = counts[s].data();
    for (uint64_t e = slice_begin(s), end = slice_begin(s + 1); e < end; ++e) {
      V u = edges.sources[e], v = edges.targets[e];
      if (u == v) {
        if (!drop_loops) ++count[u];
        continue;
      }
      if (forward) ++count[u];
      if (backward) ++count[v];
    }
  }

  // degree[v] = sum over slices; then each slice's cursor for v.
  Array<uint64_t> degree(n, "degrees");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t d = 0;
    for (int s = 0; s < slices; ++s) d += counts[s][v];
    degree[v] = d;
  }
  csr.offsets = Array<uint64_t>(n + 1, "CSR offsets");
  parallel_exclusive_scan(degree.data(), csr.offsets.data(), n, threads);
  degree = Array<uint64_t>();
  const uint64_t total = csr.offsets[n];

#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t cursor = csr.offsets[v];
    for (int s = 0; s < slices; ++s) {
      uint64_t c = counts[s][v];
      counts[s][v] = cursor;
      cursor += c;
    }
  }

  csr.targets = Array<V>(total, "CSR targets");
  if (weighted) csr.weights = Array<float>(total, "CSR weights");
  V* targets = csr.targets.data();
  float* weights = csr.weights.data();

#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int s = 0; s < slices; ++s) {
    uint64_t* cursor = counts[s].data();
    for (uint64_t e = slice_begin(s), end = slice_begin(s + 1); e < end; ++e) {
      V u = edges.sources[e], v = edges.targets[e];
      float w = weighted ? edges.weights[e] : 0.0f;
      if (u == v) {
        if (drop_loops) continue;
        uint64_t at = cursor[u]++;
        targets[at] = v;
        if (weighted) weights[at] = w;
        continue;
      }
      if (forward) {
        uint64_t at = cursor[u]++;
        targets[at] = v;
        if (weighted) weights[at] = w;
      }
      if (backward) {
        uint64_t at = cursor[v]++;
        targets[at] = u;
        if (weighted) weights[at] = w;
      }
    }
    counts[s] = Array<uint64_t>();
  }

  if (options.sort_neighbors || options.remove_duplicates) {
    sort_and_deduplicate(csr, options.remove_duplicates, threads);
  }
  return csr;
}

template <class V>
void sort_and_deduplicate(Csr<V>& csr, bool remove_duplicates, int threads) {
  threads = resolve_threads(threads);
  const uint64_t n = csr.vertices;
  if (n == 0) return;
  const bool weighted = csr.weighted;
  Array<uint64_t> kept(n, "degrees");

#pragma omp parallel num_threads(threads)
  {
    std::vector<std::pair<V, float>> pairs;
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t v = 0; v < n; ++v) {
      V* begin = csr.targets.data() + csr.offsets[v];
      V* end = csr.targets.data() + csr.offsets[v + 1];
      uint64_t degree = uint64_t(end - begin);
      if (!weighted) {
        std::sort(begin, end);
        kept[v] = remove_duplicates ? uint64_t(std::unique(begin, end) - begin) : degree;
        continue;
      }
      // Stable, so that among duplicates the first weight in input order wins.
      float* w = csr.weights.data() + csr.offsets[v];
      pairs.resize(degree);
      for (uint64_t i = 0; i < degree; ++i) pairs[i] = {begin[i], w[i]};
      std::stable_sort(pairs.begin(), pairs.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      uint64_t out = 0;
      for (uint64_t i = 0; i < degree; ++i) {
        if (remove_duplicates && out > 0 && begin[out - 1] == pairs[i].first) continue;
        begin[out] = pairs[i].first;
        w[out] = pairs[i].second;
        ++out;
      }
      kept[v] = out;
    }
  }
  if (!remove_duplicates) return;

  // Compact the lists towards the front. Sequential: each list only moves
  // left, and the pass is one memmove of the edge array.
  uint64_t write = 0;
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t read = csr.offsets[v];
    csr.offsets[v] = write;
    if (write != read) {
      std::copy(csr.targets.data() + read, csr.targets.data() + read + kept[v], csr.targets.data() + write);
      if (weighted) {
        std::copy(csr.weights.data() + read, csr.weights.data() + read + kept[v], csr.weights.data() + write);
      }
    }
    write += kept[v];
  }
  csr.offsets[n] = write;
  csr.targets.truncate(write);
  if (weighted) csr.weights.truncate(write);
}

template Csr<uint32_t> build_csr(const EdgeList<uint32_t>&, const BuildOptions&);
template Csr<uint64_t> build_csr(const EdgeList<uint64_t>&, const BuildOptions&);
template void sort_and_deduplicate(Csr<uint32_t>&, bool, int);
template void sort_and_deduplicate(Csr<uint64_t>&, bool, int);

}  // namespace sluice
