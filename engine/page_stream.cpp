#include "engine/page_stream.hpp"

#include <algorithm>

namespace sluice::engine {

unsigned io_buffers_for(const DiskGraph& graph, const io::IoOptions& options) {
  if (options.buffers) return options.buffers;
  const uint64_t bytes = graph.pages() * graph.page_bytes();
  // Every request in flight at once, plus one per drive for a chunk that
  // straddles a request boundary.
  const uint64_t whole = (bytes + options.max_request_bytes - 1) / options.max_request_bytes + graph.drives();
  return unsigned(std::min<uint64_t>(2ull * options.queue_depth * graph.drives(), std::max<uint64_t>(whole, 2)));
}

PageStream::PageStream(const DiskGraph& graph, const io::IoOptions& options)
    : graph_(graph), drives_(graph.drive_paths(), true, graph.page_bytes(), graph.drive_descriptors()), planner_(graph) {
  io::IoOptions sized = options;
  sized.buffers = io_buffers_for(graph, options);
  io_ = std::make_unique<io::IoService>(drives_, sized);
}

PageStream::~PageStream() = default;

void PageStream::start(const ChunkPlan& plan) {
  const uint64_t page = graph_.page_bytes(), header = graph_.interleaving().header_bytes;
  for (unsigned d = 0; d < graph_.drives(); ++d) {
    std::vector<io::Extent> extents;
    extents.reserve(plan.chunks[d].size());
    for (const Chunk& c : plan.chunks[d]) extents.push_back({header + c.first_page * page, c.pages * page});
    io_->read(d, extents);
  }
}

double PageStream::busy_seconds() const {
  uint64_t ns = 0;
  for (unsigned d = 0; d < graph_.drives(); ++d) ns += io_->stats(d).busy_ns;
  return double(ns) / 1e9;
}

}  // namespace sluice::engine
