#include "engine/disk_graph.hpp"

#include <bit>

#include "base/errors.hpp"

namespace sluice::engine {

DiskGraph::DiskGraph(const std::string& manifest_path, bool transpose, std::optional<layout::RankChoice> rank)
    : DiskGraph(std::make_shared<layout::SluiceLayout>(manifest_path, rank), transpose, manifest_path) {}

DiskGraph::DiskGraph(std::shared_ptr<layout::SluiceLayout> layout, bool transpose, const std::string& path)
    : layout_(std::move(layout)), transpose_(transpose), set_(transpose ? layout_->in() : &layout_->out()) {
  if (!set_) throw base::InputError(path, "", "the layout was written without a transpose (convert with --transpose)");
  degrees_ = set_->index().degrees().data();
  const uint64_t per_page = page_bytes() / record_bytes();
  if (!std::has_single_bit(per_page)) throw base::InputError(path, "", "the records per page must be a power of two");
  page_shift_ = unsigned(std::countr_zero(per_page));
  // One walk over the vertices: a page's first vertex is the one whose edge
  // range contains the page's first record.
  page_first_vertex_.assign(pages(), 0);
  uint64_t page = 0, edge = 0;
  for (uint64_t v = 0; v < vertices() && page < pages(); ++v) {
    uint64_t end = edge + degree(v);
    while (page < pages() && page * per_page < end) page_first_vertex_[page++] = v;
    edge = end;
  }
}

std::unique_ptr<DiskGraph> DiskGraph::reversed() const {
  if (!layout_->in()) return nullptr;
  return std::unique_ptr<DiskGraph>(new DiskGraph(layout_, !transpose_, layout_->path()));
}

std::string DiskGraph::locate_edge(uint64_t e) const {
  const uint64_t page = page_of_edge(e);
  const uint64_t byte = offset_on_drive(page) + (e % records_per_page()) * record_bytes();
  return drive_paths()[drive_of(page)] + ":byte " + std::to_string(byte);
}

}  // namespace sluice::engine
