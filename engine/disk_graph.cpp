#include "engine/disk_graph.hpp"

#include "formats/errors.hpp"

namespace sluice::engine {

DiskGraph::DiskGraph(const std::string& manifest_path, bool transpose)
    : layout_(std::make_shared<SluiceLayout>(manifest_path)), set_(transpose ? layout_->in() : &layout_->out()) {
  if (!set_) throw InputError(manifest_path, "", "the layout was written without a transpose (convert with --transpose)");
  // One walk over the vertices: a page's first vertex is the one whose edge
  // range contains the page's first record.
  page_first_vertex_.assign(pages(), 0);
  const uint64_t per_page = page_bytes() / record_bytes();
  uint64_t page = 0, edge = 0;
  for (uint64_t v = 0; v < vertices() && page < pages(); ++v) {
    uint64_t end = edge + degree(v);
    while (page < pages() && page * per_page < end) page_first_vertex_[page++] = v;
    edge = end;
  }
}

}  // namespace sluice::engine
