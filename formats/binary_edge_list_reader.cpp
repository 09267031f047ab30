#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

namespace {

// Pairs [first, first + pairs) of the file.
template <class Stored, class V>
EdgeList<V> split_pairs(const base::MappedFile& file, uint64_t first, uint64_t pairs, uint64_t declared, int threads, bool any_ids) {
  EdgeList<V> edges;
  edges.sources = base::Array<V>(pairs, "edge sources");
  edges.targets = base::Array<V>(pairs, "edge targets");
  const char* data = file.data() + first * 2 * sizeof(Stored);
  uint64_t max_id = 0;
  uint64_t first_bad = UINT64_MAX;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : max_id) reduction(min : first_bad)
  for (uint64_t e = 0; e < pairs; ++e) {
    Stored pair[2];
    std::memcpy(pair, data + e * sizeof(pair), sizeof(pair));
    uint64_t larger = std::max<uint64_t>(pair[0], pair[1]);
    if (declared && larger >= declared) first_bad = std::min(first_bad, e);
    max_id = std::max(max_id, larger);
    edges.sources[e] = V(pair[0]);
    edges.targets[e] = V(pair[1]);
  }
  if (first_bad != UINT64_MAX) {
    throw base::InputError(file.path(), base::at_byte((first + first_bad) * 2 * sizeof(Stored)),
                     "vertex id beyond the declared vertex count " + std::to_string(declared));
  }
  if (declared) {
    edges.vertices = declared;
  } else if (any_ids) {
    edges.vertices = pairs ? std::max(max_id, max_id + 1) : 0;  // not read by relabelling
  } else {
    edges.vertices = pairs ? base::vertex_count_for_id(max_id, file.path()) : 0;
  }
  return edges;
}

// `count` pairs of stored ids at `data` into the list's sources and
// targets; returns the bitwise or of every id, which is at least the
// largest. No branch and no compare a pair, so that it vectorizes
// without SSE4: checked a pair at a time, it took 2.9 ns a pair, 11% of
// the CPU time of RMAT 25's conversion under a 2 GiB cgroup (two passes).
template <class Stored>
uint64_t widen_pairs(const char* data, uint64_t count, EdgeList<uint64_t>& list) {
  Stored bits = 0;
  uint64_t* sources = list.sources.data();
  uint64_t* targets = list.targets.data();
  for (uint64_t e = 0; e < count; ++e) {
    Stored source, target;  // loaded one by one: a pair's load as one wide value does not vectorize
    std::memcpy(&source, data + 2 * e * sizeof(Stored), sizeof(Stored));
    std::memcpy(&target, data + (2 * e + 1) * sizeof(Stored), sizeof(Stored));
    sources[e] = source;
    targets[e] = target;
    bits |= source | target;
  }
  return bits;
}

// The largest id of the list's first `count` pairs.
uint64_t largest_id(const EdgeList<uint64_t>& list, uint64_t count) {
  uint64_t largest = 0;
  for (uint64_t e = 0; e < count; ++e) largest = std::max({largest, list.sources[e], list.targets[e]});
  return largest;
}

void check_whole_pairs(const base::MappedFile& file, unsigned id_bytes) {
  const uint64_t pair_bytes = 2 * id_bytes;
  if (file.size() % pair_bytes != 0) {
    throw base::InputError(file.path(), base::at_byte(file.size() - file.size() % pair_bytes),
                     "truncated: the file size " + std::to_string(file.size()) + " is not a multiple of " +
                         std::to_string(pair_bytes) + " bytes (one pair of " + std::to_string(id_bytes * 8) +
                         "-bit ids)");
  }
}

}  // namespace

std::pair<uint64_t, uint64_t> share_of_pairs(uint64_t pairs, const LoadOptions& options) {
  const unsigned shares = std::max(options.shares, 1u);
  return {uint64_t((unsigned __int128)pairs * options.share / shares), uint64_t((unsigned __int128)pairs * (options.share + 1) / shares)};
}

AnyEdgeList read_binary_edge_list(const base::MappedFile& file, unsigned id_bytes, const LoadOptions& options) {
  const std::string& path = file.path();
  check_whole_pairs(file, id_bytes);
  const auto [first, last] = share_of_pairs(file.size() / (2 * id_bytes), options);
  const uint64_t pairs = last - first;
  const int threads = base::resolve_threads(options.threads);
  base::checked_vertex_count(options.vertices, path, "--vertices");
  if (id_bytes == 4 && options.id_bytes == 8) return split_pairs<uint32_t, uint64_t>(file, first, pairs, options.vertices, threads, options.relabel);
  if (id_bytes == 4) return split_pairs<uint32_t, uint32_t>(file, first, pairs, options.vertices, threads, options.relabel);

  // 64-bit ids on disk: keep 32 bits in memory when every id fits.
  const auto* ids = reinterpret_cast<const char*>(file.data()) + first * 16;
  uint64_t max_id = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : max_id)
  for (uint64_t i = 0; i < 2 * pairs; ++i) {
    uint64_t id;
    std::memcpy(&id, ids + i * 8, 8);
    max_id = std::max(max_id, id);
  }
  if (options.id_bytes != 8 && max_id <= std::numeric_limits<uint32_t>::max() && options.vertices <= (uint64_t(1) << 32)) {
    return split_pairs<uint64_t, uint32_t>(file, first, pairs, options.vertices, threads, options.relabel);
  }
  return split_pairs<uint64_t, uint64_t>(file, first, pairs, options.vertices, threads, options.relabel);
}

WindowedRead read_binary_edge_list(const base::MappedFile& file, unsigned id_bytes, const LoadOptions& options,
                                   const EdgeWindows& windows) {
  check_whole_pairs(file, id_bytes);
  const uint64_t pair_bytes = 2 * id_bytes;
  const auto [share_first, pairs] = share_of_pairs(file.size() / pair_bytes, options);  // pairs: the share's end
  const uint64_t declared = base::checked_vertex_count(options.vertices, file.path(), "--vertices");
  // A window's arrays, 16 bytes a pair, take window_bytes.
  const uint64_t per_window = std::max<uint64_t>(1, windows.window_bytes / 16);
  uint64_t max_id = 0;
  // One window's arrays for every window (the last may be shorter): fresh
  // ones each time cost a page fault and a cleared page every 512 ids.
  EdgeList<uint64_t> list;
  for (uint64_t first = share_first; first < pairs; first += per_window) {
    const uint64_t count = std::min(per_window, pairs - first);
    if (list.size() != count) {
      list.sources = base::Array<uint64_t>(count, "edge sources");
      list.targets = base::Array<uint64_t>(count, "edge targets");
    }
    const char* data = file.data() + first * pair_bytes;
    const uint64_t bits = id_bytes == 4 ? widen_pairs<uint32_t>(data, count, list) : widen_pairs<uint64_t>(data, count, list);
    // The or bounds the largest id: exact only where it must be.
    const uint64_t largest = declared && bits < declared ? bits : largest_id(list, count);
    if (declared && largest >= declared) {
      uint64_t e = 0;
      while (std::max(list.sources[e], list.targets[e]) < declared) ++e;
      throw base::InputError(file.path(), base::at_byte((first + e) * pair_bytes),
                             "vertex id beyond the declared vertex count " + std::to_string(declared));
    }
    max_id = std::max(max_id, largest);
    windows.consume(list);
    file.release(first * pair_bytes, (first + count) * pair_bytes);
  }
  uint64_t vertices = declared;
  if (!declared && pairs > share_first) vertices = options.relabel ? std::max(max_id, max_id + 1) : base::vertex_count_for_id(max_id, file.path());
  return {vertices, false, false};
}

}  // namespace sluice::formats
