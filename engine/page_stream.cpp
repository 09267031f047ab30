#include "engine/page_stream.hpp"

namespace sluice::engine {

PageStream::PageStream(const DiskGraph& graph, const io::IoOptions& options)
    : graph_(graph), drives_(graph.drive_paths(), true, graph.page_bytes()), planner_(graph) {
  io_ = std::make_unique<io::IoService>(drives_, options);
}

PageStream::~PageStream() = default;

void PageStream::start(const ChunkPlan& plan) {
  const uint64_t page = graph_.page_bytes();
  for (unsigned d = 0; d < graph_.drives(); ++d) {
    std::vector<io::Extent> extents;
    extents.reserve(plan.chunks[d].size());
    for (const Chunk& c : plan.chunks[d]) extents.push_back({c.first_page * page, c.pages * page});
    io_->read(d, extents);
  }
}

double PageStream::busy_seconds() const {
  uint64_t ns = 0;
  for (unsigned d = 0; d < graph_.drives(); ++d) ns += io_->stats(d).busy_ns;
  return double(ns) / 1e9;
}

}  // namespace sluice::engine
