// How a compute thread reads one page of edge records on its own: the
// record format fixed at compile time (id width, weight: no per-edge
// branch), and the walk over the vertices whose edges lie in the page,
// starting from the page-to-vertex map.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "engine/disk_graph.hpp"

namespace sluice::engine {

// One edge record: the target (Id), then the weight if Weighted, padded to
// 4, 8 or 16 bytes (layout/interleaved_edges.hpp).
template <class Id, bool Weighted>
struct RecordFormat {
  using id_type = Id;
  static constexpr unsigned bytes = Weighted ? 2 * sizeof(Id) : sizeof(Id);
  static uint64_t target(const char* records, uint64_t i) {
    Id id;
    std::memcpy(&id, records + i * bytes, sizeof(Id));
    return id;
  }
  static float weight([[maybe_unused]] const char* records, [[maybe_unused]] uint64_t i) {
    if constexpr (Weighted) {
      float w;
      std::memcpy(&w, records + i * bytes + sizeof(Id), sizeof(float));
      return w;
    } else {
      return 1.0f;
    }
  }
};

// Calls f(RecordFormat<...>{}) for the graph's record format.
template <class F>
void with_record_format(const DiskGraph& graph, F&& f) {
  const bool weighted = graph.info().weighted;
  if (graph.info().id_bytes == 4) {
    if (weighted) f(RecordFormat<uint32_t, true>{});
    else f(RecordFormat<uint32_t, false>{});
  } else {
    if (weighted) f(RecordFormat<uint64_t, true>{});
    else f(RecordFormat<uint64_t, false>{});
  }
}

// An id read from a drive that is not a vertex: a damaged or foreign drive
// file. Thrown before the id indexes any memory.
class BadTargetError : public std::runtime_error {
 public:
  BadTargetError(const DiskGraph& graph, uint64_t edge, uint64_t target)
      : std::runtime_error(graph.locate_edge(edge) + ": edge target " + std::to_string(target) + " is not below the " +
                           std::to_string(graph.vertices()) +
                           " vertices (the drive file is damaged or belongs to another graph)") {}
};

// A page whose checksum does not match: damaged on the drive or in transit.
class DamagedPageError : public std::runtime_error {
 public:
  DamagedPageError(const DiskGraph& graph, uint64_t page)
      : std::runtime_error(graph.drive_paths()[graph.drive_of(page)] + ":byte " + std::to_string(graph.offset_on_drive(page)) +
                           ": page " + std::to_string(page) + " fails its checksum (the drive file is damaged; "
                           "`sluice info --verify` checks them all)") {}
};

namespace detail {
// The largest of `count` ids `stride` apart (page_walk.cpp: vectorized).
uint64_t largest_id(const uint32_t* ids, uint64_t count, unsigned stride);
uint64_t largest_id(const uint64_t* ids, uint64_t count, unsigned stride);
}  // namespace detail

// What check_page checks of a page just read: everything (its checksum,
// --verify-reads, and its targets), its targets only, or nothing (pages
// held in memory, checked whole when they were loaded: resident_pages.hpp).
// `decoded`: a compressed page's records, decoded (and checked) when it
// was loaded.
enum class PageCheck { everything, targets, nothing, decoded };

// Checks a page before any of its targets indexes memory: its checksum
// (PageCheck::everything), then every target against the vertex count, in
// one vectorizable pass (the maximum) instead of a branch per edge in the
// walks. Throws DamagedPageError or BadTargetError.
template <class Format>
void check_page(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check) {
  if (check == PageCheck::nothing) return;
  if (check == PageCheck::everything && !graph.checksums().matches(data, graph.page_bytes(), page)) [[unlikely]] {
    throw DamagedPageError(graph, page);
  }
  const uint64_t first = graph.first_edge_of_page(page);
  const uint64_t count = graph.end_edge_of_page(page) - first;
  using Id = typename Format::id_type;
  // Pages sit in page-aligned IO buffers, so the ids are aligned too.
  const uint64_t largest = detail::largest_id(reinterpret_cast<const Id*>(data), count, Format::bytes / sizeof(Id));
  if (largest < graph.vertices()) [[likely]] return;
  for (uint64_t i = 0; i < count; ++i) {
    if (Format::target(data, i) >= graph.vertices()) throw BadTargetError(graph, first + i, Format::target(data, i));
  }
}

// A compressed page's edges decoded into `out` as the graph's records
// (room for max_edges_per_page of them: 4-byte targets, or target and
// weight) and checked, its checksum too with PageCheck::everything.
// Throws DamagedPageError or InputError.
void decode_compressed_page(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check, char* out);

namespace detail {
// The same into the calling thread's scratch, valid until its next call.
const char* decode_into_scratch(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check);
}  // namespace detail

// The records the walks read for `page`, whose bytes are at `data`: the
// page itself, checked as check_page does; or, for compressed pages, its
// edges decoded (as the graph's records: targets, or targets and weights)
// and checked.
template <class Format>
const char* page_records(const DiskGraph& graph, uint64_t page, const char* data, PageCheck check) {
  if (!graph.compressed()) [[likely]] {
    check_page<Format>(graph, page, data, check);
    return data;
  }
  if (check == PageCheck::decoded) return data;
  return detail::decode_into_scratch(graph, page, data, check);
}

// The edges of `page` (logical), grouped by source: visit(v, lo, hi,
// begin, end) for every vertex v with edges in the page: [lo, hi) its edge
// numbers inside the page, [begin, end) its whole list (which reaches into
// other pages when begin < lo or end > hi).
template <class Visit>
void for_each_vertex_in_page(const DiskGraph& graph, uint64_t page, Visit&& visit) {
  const uint64_t first = graph.first_edge_of_page(page);
  const uint64_t last = graph.end_edge_of_page(page);
  const layout::DegreeArray::Reader degrees = graph.degrees().reader();
  uint64_t v = graph.first_vertex_of_page(page);
  uint64_t begin = graph.offset(v);
  while (begin < last) {
    const uint64_t end = begin + degrees[v];
    if (end > first) visit(v, std::max(begin, first), std::min(end, last), begin, end);
    begin = end;
    ++v;
  }
}

}  // namespace sluice::engine
