// A graph on disk as the engine sees it: one edge set of a sluice layout
// (the out-edges, or the transpose's), with its compact index in DRAM (an
// offset per 16 vertices plus each vertex's degree, most in a byte) and a
// page-to-vertex map (the vertex in which each page starts, 8 bytes per
// page), so that a compute thread handed one page knows which vertices'
// edges it holds. The edges themselves stay on the drives.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layout/sluice_layout.hpp"

namespace sluice::engine {

class DiskGraph {
 public:
  // The out-edges of the layout at manifest_path, or its transpose; of a
  // ranked layout, `rank`'s part: the edges into the destinations it owns.
  explicit DiskGraph(const std::string& manifest_path, bool transpose = false,
                     std::optional<layout::RankChoice> rank = std::nullopt);
  // The other edge set of the same layout (sharing it), or null when the
  // layout has no transpose.
  std::unique_ptr<DiskGraph> reversed() const;
  bool has_reversed() const;

  uint64_t vertices() const { return info().vertices; }
  // The destinations whose in-edges this graph holds: a part's range, else
  // every vertex.
  uint64_t owned_begin() const { return layout_->owned_begin(); }
  uint64_t owned_end() const { return layout_->owned_end(); }
  uint64_t edges() const { return info().edges; }
  const base::GraphInfo& info() const { return layout_->info(); }
  const layout::SluiceLayout& layout() const { return *layout_; }
  const layout::CompactIndex& index() const { return set_->index(); }
  bool is_transpose() const { return transpose_; }

  uint32_t degree(uint64_t v) const { return (*degrees_)[v]; }
  const layout::DegreeArray& degrees() const { return *degrees_; }
  uint64_t offset(uint64_t v) const { return index().offset(v); }

  const layout::PageInterleaving& interleaving() const { return set_->edges().interleaving(); }
  unsigned drives() const { return interleaving().drives; }
  uint64_t page_bytes() const { return interleaving().page_bytes; }
  unsigned record_bytes() const { return set_->edges().layout().record_bytes(); }
  // Gap-coded pages (layout/compressed_pages.hpp), each holding its own
  // number of edges, rather than fixed records.
  bool compressed() const { return compressed_; }
  // The most edges a page holds.
  uint64_t max_edges_per_page() const { return max_edges_per_page_; }
  // The page holding edge e: a shift (pages and records are powers of
  // two), not a division, in the planners' per-vertex loops. Compressed
  // pages: the page of e's bucket of edges, then at most a step or two on
  // (a bucket is no longer than the shortest full page).
  uint64_t page_of_edge(uint64_t e) const {
    if (!compressed_) [[likely]] return e >> page_shift_;
    uint64_t p = page_of_bucket_[e >> page_shift_];
    while (p + 1 < page_starts_size_ && page_starts_[p + 1] <= e) ++p;
    return p;
  }
  uint64_t pages() const { return set_->edges().pages(); }
  const std::vector<std::string>& drive_paths() const { return set_->edges().paths(); }
  // The drive files as opened and checked with the layout (see InterleavedEdgeReader::descriptors).
  std::vector<int> drive_descriptors() const { return set_->edges().descriptors(); }
  // Logical page p lives on drive p mod N at byte (p div N) * page_bytes.
  unsigned drive_of(uint64_t page) const { return interleaving().drive_of(page); }
  uint64_t offset_on_drive(uint64_t page) const { return interleaving().offset_on_drive(page); }
  uint64_t pages_on_drive(unsigned drive) const { return interleaving().pages_on_drive(pages(), drive); }

  // Pages [first, last] holding v's edges (at most its first `cap`); false
  // when v has no edges.
  bool page_range(uint64_t v, uint64_t& first, uint64_t& last, uint64_t cap = UINT64_MAX) const {
    const uint64_t d = std::min<uint64_t>(degree(v), cap);
    if (d == 0) return false;
    uint64_t begin = offset(v);
    first = page_of_edge(begin);
    last = page_of_edge(begin + d - 1);
    return true;
  }
  // The vertex whose edges include the first record of page p (a vertex
  // with no edges never owns a page).
  uint64_t first_vertex_of_page(uint64_t page) const { return page_first_vertex_[page]; }
  uint64_t first_edge_of_page(uint64_t page) const { return compressed_ ? page_starts_[page] : page << page_shift_; }
  // One past the last edge of page p.
  uint64_t end_edge_of_page(uint64_t page) const {
    return compressed_ ? set_->page_end(page) : std::min(edges(), (page + 1) << page_shift_);
  }
  // The edge set as the layout opened it (decodes compressed pages).
  const layout::EdgeSet& edge_set() const { return *set_; }

  // "DRIVE_FILE, byte N": where edge record e lies, for error messages.
  std::string locate_edge(uint64_t e) const;
  // The checksum of every page (layout/index_file.hpp).
  layout::PageChecksums checksums() const { return set_->checksums(); }

  // DRAM held by the index, the page checksums and the page map.
  uint64_t memory_bytes() const { return set_->memory_bytes() + (page_first_vertex_.size() + page_of_bucket_.size()) * 8; }

 private:
  DiskGraph(std::shared_ptr<layout::SluiceLayout> layout, bool transpose, const std::string& path);

  std::shared_ptr<layout::SluiceLayout> layout_;
  bool transpose_;
  const layout::EdgeSet* set_;
  const layout::DegreeArray* degrees_;
  unsigned page_shift_ = 0;  // log2 of the records per page; compressed: of the edges per bucket
  uint64_t max_edges_per_page_ = 0;
  bool compressed_ = false;
  const uint64_t* page_starts_ = nullptr;  // compressed: each page's first edge
  uint64_t page_starts_size_ = 0;
  std::vector<uint64_t> page_of_bucket_;   // compressed: the page holding each bucket's first edge
  std::vector<uint64_t> page_first_vertex_;
};

}  // namespace sluice::engine
