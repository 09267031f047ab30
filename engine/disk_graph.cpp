#include "engine/disk_graph.hpp"

#include <bit>

#include "base/errors.hpp"
#include "layout/compressed_pages.hpp"

namespace sluice::engine {

DiskGraph::DiskGraph(const std::string& manifest_path, bool transpose, std::optional<layout::RankChoice> rank)
    : DiskGraph(std::make_shared<layout::SluiceLayout>(manifest_path, rank), transpose, manifest_path) {}

DiskGraph::DiskGraph(std::shared_ptr<layout::SluiceLayout> layout, bool transpose, const std::string& path)
    : layout_(std::move(layout)), transpose_(transpose), set_(transpose ? layout_->in() : &layout_->out()) {
  if (!set_) throw base::InputError(path, "", "the layout was written without a transpose (convert with --transpose)");
  degrees_ = &set_->index().degrees();
  compressed_ = set_->compressed();
  if (compressed_) {
    page_starts_ = set_->page_starts().data();
    page_starts_size_ = set_->page_starts().size();
    max_edges_per_page_ = set_->page_capacity();
    // Buckets no longer than the fewest edges a full page can hold, so
    // that a bucket's edges span at most two pages.
    const uint64_t fewest = layout::compressed_page_fewest(page_bytes(), info().weighted, info().id_bytes == 8);
    page_shift_ = unsigned(std::bit_width(fewest) - 1);
    page_of_bucket_.resize((edges() >> page_shift_) + 1);
    uint64_t p = 0;
    for (uint64_t b = 0; b < page_of_bucket_.size(); ++b) {
      while (p + 1 < page_starts_size_ && page_starts_[p + 1] <= (b << page_shift_)) ++p;
      page_of_bucket_[b] = p;
    }
  } else {
    const uint64_t per_page = page_bytes() / record_bytes();
    if (!std::has_single_bit(per_page)) throw base::InputError(path, "", "the records per page must be a power of two");
    page_shift_ = unsigned(std::countr_zero(per_page));
    max_edges_per_page_ = per_page;
  }
  // One walk over the vertices: a page's first vertex is the one whose edge
  // range contains the page's first edge.
  page_first_vertex_.assign(pages(), 0);
  uint64_t page = 0, edge = 0;
  for (uint64_t v = 0; v < vertices() && page < pages(); ++v) {
    uint64_t end = edge + degree(v);
    while (page < pages() && first_edge_of_page(page) < end) page_first_vertex_[page++] = v;
    edge = end;
  }
}

bool DiskGraph::has_reversed() const { return layout_->in() != nullptr; }

std::unique_ptr<DiskGraph> DiskGraph::reversed() const {
  if (!layout_->in()) return nullptr;
  return std::unique_ptr<DiskGraph>(new DiskGraph(layout_, !transpose_, layout_->path()));
}

std::string DiskGraph::locate_edge(uint64_t e) const {
  const uint64_t page = page_of_edge(e);
  const std::string at = drive_paths()[drive_of(page)] + ":byte ";
  if (compressed_) return at + std::to_string(offset_on_drive(page)) + " (the compressed page holding edge " + std::to_string(e) + ")";
  return at + std::to_string(offset_on_drive(page) + (e % max_edges_per_page()) * record_bytes());
}

}  // namespace sluice::engine
