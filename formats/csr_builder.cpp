#include "formats/csr_builder.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "base/progress.hpp"
#include "formats/list_sort.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

template <class V>
Csr<V> build_csr(const EdgeList<V>& edges, const BuildOptions& options) {
  const int threads = base::resolve_threads(options.threads);
  const uint64_t n = edges.vertices;
  const uint64_t m = edges.size();
  const bool weighted = edges.weighted;
  const bool forward = !options.transpose || options.symmetrize;
  const bool backward = options.transpose || options.symmetrize;
  const bool drop_loops = options.drop_self_loops;

  Csr<V> csr;
  csr.vertices = n;
  csr.weighted = weighted;
  csr.symmetric = options.symmetrize;
  csr.offsets = base::Array<uint64_t>::zeros(n + 1, "CSR offsets");
  if (n == 0) return csr;

  // Buckets of 2^16 consecutive vertices: a bucket's degree counts stay in
  // cache, and a record's owner within its bucket fits in 16 bits.
  constexpr unsigned shift = 16;
  const uint64_t buckets = ((n - 1) >> shift) + 1;
  const int slices = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(threads, m / 4096 + 1)));
  auto slice_begin = [&](int s) { return m * uint64_t(s) / uint64_t(slices); };

  // Every record (owner vertex, other end) goes to its owner's bucket.
  auto for_each_record = [&](uint64_t e, auto&& emit) {
    V u = edges.sources[e], v = edges.targets[e];
    if (u == v) {
      if (!drop_loops) emit(u, v);
      return;
    }
    if (forward) emit(u, v);
    if (backward) emit(v, u);
  };

  // Pass 1: records per (slice, bucket); every id checked against the
  // vertex count before it indexes anything (readers check too: this is
  // the builder's own guard against a source that does not).
  std::vector<uint64_t> counts(uint64_t(slices) * buckets, 0);
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  constexpr uint64_t step = uint64_t(1) << 20;  // edges between progress updates
  base::Progress counting("building CSR: counting", m, options.progress);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int s = 0; s < slices; ++s) {
    uint64_t* count = counts.data() + uint64_t(s) * buckets;
    for (uint64_t e = slice_begin(s), end = slice_begin(s + 1); e < end; ++e) {
      if ((e - slice_begin(s)) % step == step - 1) counting.advance(step);
      if (uint64_t(edges.sources[e]) >= n || uint64_t(edges.targets[e]) >= n) [[unlikely]] {
        for (uint64_t seen = first_bad.load(); e < seen && !first_bad.compare_exchange_weak(seen, e);) {
        }
        break;
      }
      for_each_record(e, [&](V owner, V) { ++count[owner >> shift]; });
    }
    counting.advance((slice_begin(s + 1) - slice_begin(s)) % step);
  }
  counting.done();
  if (first_bad.load() != UINT64_MAX) {
    const uint64_t e = first_bad.load();
    throw std::runtime_error("edge " + std::to_string(e) + " (" + std::to_string(uint64_t(edges.sources[e])) + " -> " +
                             std::to_string(uint64_t(edges.targets[e])) + ") leaves the " + std::to_string(n) + " vertices");
  }
  // Bucket-major, slice-minor positions keep every vertex's records in
  // input order; a bucket's records land exactly on its final CSR region.
  std::vector<uint64_t> bucket_start(buckets + 1, 0);
  uint64_t total = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    bucket_start[b] = total;
    for (int s = 0; s < slices; ++s) {
      uint64_t c = counts[uint64_t(s) * buckets + b];
      counts[uint64_t(s) * buckets + b] = total;
      total += c;
    }
  }
  bucket_start[buckets] = total;

  base::require_memory(total * (2 + sizeof(V) + (weighted ? 4 : 0)), "CSR building");
  base::Array<uint16_t> owner_in_bucket(total, "CSR building records");
  csr.targets = base::Array<V>(total, "CSR targets");
  if (weighted) csr.weights = base::Array<float>(total, "CSR weights");

  // Pass 2: each slice scatters its records into their buckets' regions
  // (targets in bucket order, not yet in vertex order).
  base::Progress scattering("building CSR: scattering", m, options.progress);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int s = 0; s < slices; ++s) {
    uint64_t* cursor = counts.data() + uint64_t(s) * buckets;
    for (uint64_t e = slice_begin(s), end = slice_begin(s + 1); e < end; ++e) {
      if ((e - slice_begin(s)) % step == step - 1) scattering.advance(step);
      float w = weighted ? edges.weights[e] : 0.0f;
      for_each_record(e, [&](V owner, V to) {
        uint64_t at = cursor[owner >> shift]++;
        owner_in_bucket[at] = uint16_t(owner);
        csr.targets[at] = to;
        if (weighted) csr.weights[at] = w;
      });
    }
    scattering.advance((slice_begin(s + 1) - slice_begin(s)) % step);
  }
  scattering.done();

  // Pass 3: each bucket counts its degrees, writes its offsets, and orders
  // its region by vertex through a per-thread scratch copy (stable).
  base::Progress ordering("building CSR: ordering", total, options.progress);
#pragma omp parallel num_threads(threads)
  {
    std::vector<uint64_t> cursor;
    std::vector<V> scratch;
    std::vector<float> scratch_weights;
#pragma omp for schedule(dynamic, 1)
    for (uint64_t b = 0; b < buckets; ++b) {
      const uint64_t first_vertex = b << shift, begin = bucket_start[b], end = bucket_start[b + 1];
      const uint64_t width = std::min<uint64_t>(uint64_t(1) << shift, n - first_vertex);
      cursor.assign(width, 0);
      for (uint64_t r = begin; r < end; ++r) ++cursor[owner_in_bucket[r]];
      uint64_t offset = begin;
      for (uint64_t i = 0; i < width; ++i) {
        csr.offsets[first_vertex + i] = offset;
        uint64_t c = cursor[i];
        cursor[i] = offset;
        offset += c;
      }
      scratch.assign(csr.targets.data() + begin, csr.targets.data() + end);
      if (weighted) scratch_weights.assign(csr.weights.data() + begin, csr.weights.data() + end);
      for (uint64_t r = begin; r < end; ++r) {
        uint64_t at = cursor[owner_in_bucket[r]]++;
        csr.targets[at] = scratch[r - begin];
        if (weighted) csr.weights[at] = scratch_weights[r - begin];
      }
      ordering.advance(end - begin);
    }
  }
  ordering.done();
  csr.offsets[n] = total;

  if (options.sort_neighbors || options.remove_duplicates) {
    sort_and_deduplicate(csr, csr.vertices, options.remove_duplicates, threads);
  }
  return csr;
}

template <class V>
void sort_and_deduplicate(Csr<V>& csr, uint64_t id_bound, bool remove_duplicates, int threads) {
  threads = base::resolve_threads(threads);
  const uint64_t n = csr.vertices;
  if (n == 0) return;
  const bool weighted = csr.weighted;
  base::Array<uint64_t> kept(n, "degrees");

  const unsigned id_bits = unsigned(std::bit_width(std::max<uint64_t>(id_bound, 2) - 1));
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::pair<V, float>> pairs;
    ListSort<V> sort(id_bits);
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t v = 0; v < n; ++v) {
      V* begin = csr.targets.data() + csr.offsets[v];
      V* end = csr.targets.data() + csr.offsets[v + 1];
      uint64_t degree = uint64_t(end - begin);
      // Lists often come sorted (a rank's transpose part's are runs of them).
      const bool sorted = std::is_sorted(begin, end);
      if (sorted && !remove_duplicates) {
        kept[v] = degree;
        continue;
      }
      if (!weighted) {
        if (!sorted) sort.ids_only(begin, degree);
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
template void sort_and_deduplicate(Csr<uint32_t>&, uint64_t, bool, int);
template void sort_and_deduplicate(Csr<uint64_t>&, uint64_t, bool, int);

AnyCsr build_any_csr(const AnyEdgeList& edges, const BuildOptions& options) {
  return std::visit([&](const auto& list) -> AnyCsr { return build_csr(list, options); }, edges);
}

}  // namespace sluice::formats
