#include "engine/reads_while_planning.hpp"

#include <algorithm>

namespace sluice::engine {

ReadsWhilePlanning::ReadsWhilePlanning(const DiskGraph& graph, ChunkPlanner& planner, PageStream& stream,
                                       const SkipThreshold& threshold, uint64_t unit_vertices)
    : graph_(graph),
      planner_(planner),
      stream_(stream),
      threshold_(threshold),
      unit_vertices_(std::max<uint64_t>(1, unit_vertices)),
      units_((graph.vertices() + unit_vertices_ - 1) / unit_vertices_),
      segment_units_(std::max<uint64_t>(1, (units_ + max_segments - 1) / max_segments)),
      segments_((units_ + segment_units_ - 1) / segment_units_),
      done_(std::make_unique<std::atomic<uint64_t>[]>(segments_)) {
  plan_.chunks.resize(graph.drives());
}

uint64_t ReadsWhilePlanning::units_in(uint64_t segment) const {
  return std::min(units_, (segment + 1) * segment_units_) - segment * segment_units_;
}

uint64_t ReadsWhilePlanning::first_page_of(uint64_t segment) const {
  const uint64_t v = segment * segment_units_ * unit_vertices_;
  if (v >= graph_.vertices()) return graph_.pages();
  const uint64_t e = graph_.offset(v);
  return e < graph_.edges() ? graph_.page_of_edge(e) : graph_.pages();
}

void ReadsWhilePlanning::unit_done(uint64_t u) {
  const uint64_t segment = u / segment_units_;
  // acq_rel: the last unit's thread sees the other units' marks.
  if (done_[segment].fetch_add(1, std::memory_order_acq_rel) + 1 == units_in(segment)) queue_ready();
}

void ReadsWhilePlanning::queue_ready() {
  std::lock_guard lock(mutex_);
  // In order: a segment's last page may hold the next one's first in-edges.
  while (queued_ < segments_ && done_[queued_].load(std::memory_order_acquire) == units_in(queued_)) {
    std::vector<size_t> before;
    for (auto& chunks : plan_.chunks) before.push_back(chunks.size());
    const uint64_t end = queued_ + 1 == segments_ ? graph_.pages() : first_page_of(queued_ + 1);
    planner_.append_marked(threshold_, first_page_of(queued_), end, plan_);
    for (unsigned d = 0; d < plan_.chunks.size(); ++d) {
      if (plan_.chunks[d].size() > before[d]) stream_.queue(d, std::span(plan_.chunks[d]).subspan(before[d]));
    }
    ++queued_;
  }
}

ChunkPlan ReadsWhilePlanning::take() {
  std::lock_guard lock(mutex_);
  plan_.queued = true;
  return std::move(plan_);
}

}  // namespace sluice::engine
