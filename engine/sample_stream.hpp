// edge_map_first's edges from the layout's sample file (layout/
// sampled_targets.hpp) rather than from the pages, when the edge set
// sampled at least the k edges asked for: Afforest's sampling then reads
// k ids a vertex instead of every page. Each compute thread takes a piece
// of the file at a time (16384 vertices), reads and checks it, and walks
// its active vertices; pieces without one are not read. With the file held
// in memory (resident_sample.hpp) a piece is walked in place.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <vector>

#include "base/interruption.hpp"
#include "engine/disk_graph.hpp"
#include "base/first_error.hpp"
#include "engine/indexed_bitmap.hpp"
#include "engine/resident_sample.hpp"

namespace sluice::engine {

class SampleStream {
 public:
  // Whether an EDGEMAP over the first k edges of each list can be served
  // from `graph`'s sample (unweighted: the file holds no weights).
  static bool serves(const DiskGraph& graph, uint64_t k) {
    return k > 0 && k <= graph.edge_set().sample_edges() && !graph.info().weighted;
  }

  // resident: the file held in memory, checked (null: read it).
  SampleStream(const DiskGraph& graph, const IndexedBitmap& active, bool all_active, uint64_t k,
               const ResidentSample* resident = nullptr)
      : graph_(graph), file_(*graph.edge_set().sample()), resident_(resident), active_(active), all_active_(all_active), k_(k) {}

  // The bytes read so far (with the header and table, read at open; in
  // memory, the bytes walked) and the seconds the reads took, summed over
  // the threads.
  uint64_t bytes_read() const { return (resident_ ? 0 : file_.opening_bytes()) + bytes_.load(); }
  double read_seconds() const { return double(read_ns_.load()) / 1e9; }
  uint64_t pieces_read() const { return pieces_.load(); }

  // Hands the calling thread the next piece with an active vertex:
  // on_edge(src, dst, 1.0f) for the first k targets of each active one,
  // and ahead(dst) for the targets of the vertex `prefetch_vertices`
  // further on; adds the time to busy_ns. Returns false once every piece
  // was taken. A failed read or an exception of on_edge is captured in
  // `error` (later pieces are then skipped).
  template <class OnEdge, class Ahead>
  bool next(base::FirstError& error, uint64_t& busy_ns, OnEdge&& on_edge, Ahead&& ahead) {
    uint64_t piece;
    do {
      piece = next_piece_.fetch_add(1, std::memory_order_relaxed);
      if (piece >= file_.pieces()) return false;
    } while (!all_active_ && !has_active(piece));
    if (error.failed()) return true;
    const auto start = std::chrono::steady_clock::now();
    try {
      base::throw_if_interrupted();
      const uint8_t* ids;
      if (resident_) {
        ids = resident_->piece(piece);
      } else {
        thread_local std::vector<uint8_t> buffer;
        buffer.resize(file_.piece_bytes(0));
        file_.read_piece(piece, buffer.data());
        ids = buffer.data();
        const auto read = std::chrono::steady_clock::now();
        read_ns_ += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(read - start).count());
      }
      bytes_ += file_.piece_bytes(piece);
      ++pieces_;
      if (file_.shape().id_bytes == 4) walk<uint32_t>(piece, ids, on_edge, ahead);
      else walk<uint64_t>(piece, ids, on_edge, ahead);
    } catch (...) {
      error.capture();
    }
    busy_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    return true;
  }

 private:
  static constexpr uint64_t piece_vertices = layout::SampleFile::piece_vertices;
  static_assert(piece_vertices % IndexedBitmap::block_bits == 0, "a piece is whole blocks of the bitmap");

  bool has_active(uint64_t piece) const {
    return active_.any_in(piece * piece_vertices, std::min(graph_.vertices(), (piece + 1) * piece_vertices));
  }

  static constexpr uint64_t prefetch_vertices = 16;

  template <class Id, class OnEdge, class Ahead>
  void walk(uint64_t piece, const uint8_t* ids, OnEdge& on_edge, Ahead& ahead) const {
    const uint64_t per_vertex = file_.shape().per_vertex, first = piece * piece_vertices;
    const uint64_t end = std::min(graph_.vertices(), first + piece_vertices);
    auto target = [&](uint64_t v, uint64_t j) {
      Id id;
      std::memcpy(&id, ids + ((v - first) * per_vertex + j) * sizeof(Id), sizeof(Id));
      return uint64_t(id);
    };
    const layout::DegreeArray::Reader degrees = graph_.degrees().reader();
    auto visit = [&](uint64_t v) {
      if (v + prefetch_vertices < end) {
        const uint64_t later = v + prefetch_vertices, count = std::min<uint64_t>(degrees[later], k_);
        for (uint64_t j = 0; j < count; ++j) ahead(target(later, j));
      }
      const uint64_t count = std::min<uint64_t>(degrees[v], k_);
      for (uint64_t j = 0; j < count; ++j) on_edge(v, target(v, j), 1.0f);
    };
    if (all_active_) {
      for (uint64_t v = first; v < end; ++v) visit(v);
    } else {
      active_.for_each_in(first, end, visit);
    }
  }

  const DiskGraph& graph_;
  const layout::SampleFile& file_;
  const ResidentSample* resident_;
  const IndexedBitmap& active_;
  bool all_active_;
  uint64_t k_;
  std::atomic<uint64_t> next_piece_{0}, bytes_{0}, read_ns_{0}, pieces_{0};
};

}  // namespace sluice::engine
