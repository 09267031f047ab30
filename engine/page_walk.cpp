#include "engine/page_walk.hpp"

#include <cstring>
#include <vector>

#include "base/sanitizers.hpp"

namespace sluice::engine::detail {

// Compiled for AVX2 and SSE4.1 (unsigned max in one instruction) as well
// as the baseline, chosen at load time: the check runs over every page.
// Not under ThreadSanitizer: the ifunc resolver that picks the clone runs
// during relocation, before TSan's runtime, and its instrumentation crashes.
#if defined(SLUICE_THREAD_SANITIZER)
#define SLUICE_CPU_CLONES(...)
#else
#define SLUICE_CPU_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#endif

SLUICE_CPU_CLONES("avx2", "sse4.1", "default") uint64_t largest_id(const uint32_t* ids, uint64_t count,
                                                                                  unsigned stride) {
  uint32_t largest = 0;
  if (stride == 1) {
    for (uint64_t i = 0; i < count; ++i) largest = ids[i] > largest ? ids[i] : largest;
  } else {
    for (uint64_t i = 0; i < count; ++i) largest = ids[i * stride] > largest ? ids[i * stride] : largest;
  }
  return largest;
}

SLUICE_CPU_CLONES("avx2", "default") uint64_t largest_id(const uint64_t* ids, uint64_t count, unsigned stride) {
  uint64_t largest = 0;
  for (uint64_t i = 0; i < count; ++i) largest = ids[i * stride] > largest ? ids[i * stride] : largest;
  return largest;
}

const char* decode_into_scratch(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check) {
  thread_local std::vector<uint32_t> scratch;  // uint32_t: aligned as the records' ids
  scratch.resize(graph.max_edges_per_page() * graph.record_bytes() / 4);
  decode_compressed_page(graph, page, data, check, reinterpret_cast<char*>(scratch.data()));
  return reinterpret_cast<const char*>(scratch.data());
}

}  // namespace sluice::engine::detail

namespace sluice::engine {

void decode_compressed_page(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check, char* out) {
  if (check == PageCheck::everything && !graph.checksums().matches(data, graph.page_bytes(), page)) [[unlikely]] {
    throw DamagedPageError(graph, page);
  }
  // Decoded targets are always checked: the decode needs the page's
  // structure to hold anyway, and the largest target falls out of it.
  if (!graph.info().weighted) {
    graph.edge_set().decode_page(page, data, out, nullptr);  // targets are the records
    return;
  }
  // Targets decode first, then the weights, each paired with its target
  // as the walks' records: (target, weight) in 8 bytes, or with 64-bit ids
  // in 16 (RecordFormat).
  static_assert(RecordFormat<uint32_t, true>::bytes == 8 && RecordFormat<uint64_t, true>::bytes == 16);
  thread_local std::vector<uint64_t> targets;  // ids of either width
  targets.resize(graph.max_edges_per_page());
  graph.edge_set().decode_page_records(page, data, targets.data(), out);
}

}  // namespace sluice::engine
