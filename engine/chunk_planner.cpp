#include "engine/chunk_planner.hpp"

#include <algorithm>
#include <stdexcept>

namespace sluice::engine {

std::string SkipThreshold::text() const { return infinite ? "inf" : std::to_string(bytes); }

uint64_t ChunkPlan::requests() const {
  uint64_t n = 0;
  for (auto& drive : chunks) n += drive.size();
  return n;
}

ChunkPlanner::ChunkPlanner(const DiskGraph& graph) : graph_(graph) {
  for (unsigned d = 0; d < graph.drives(); ++d) active_.emplace_back(graph.pages_on_drive(d));
}

ChunkPlan ChunkPlanner::full_scan(const SkipThreshold& threshold) const {
  ChunkPlan plan;
  plan.full_scan = true;
  plan.chunks.resize(graph_.drives());
  plan.active_pages = graph_.pages();
  if (cache_ && cache_->held_bytes()) {  // every page, the cached ones taken from the cache
    for (unsigned d = 0; d < graph_.drives(); ++d) {
      for (uint64_t p = 0; p < graph_.pages_on_drive(d); ++p) add_page(threshold, d, p, plan.chunks[d], 0, plan);
      for (const Chunk& c : plan.chunks[d]) plan.read_pages += c.pages;
    }
    return plan;
  }
  for (unsigned d = 0; d < graph_.drives(); ++d) {
    if (graph_.pages_on_drive(d)) plan.chunks[d].push_back({0, graph_.pages_on_drive(d)});
  }
  plan.read_pages = graph_.pages();
  return plan;
}

void ChunkPlanner::add_page(const SkipThreshold& threshold, uint64_t d, uint64_t p, std::vector<Chunk>& chunks, size_t first_new,
                            ChunkPlan& plan) const {
  if (cache_) {
    const uint64_t logical = p * graph_.drives() + d;
    if (cache_->holds(logical)) {
      plan.cached.push_back(logical);
      return;
    }
  }
  if (chunks.size() > first_new) {
    Chunk& c = chunks.back();
    const uint64_t gap = p - (c.first_page + c.pages);  // pages not read in between (inactive, or cached)
    if (threshold.infinite || gap == 0 || gap * graph_.page_bytes() < threshold.bytes) {
      c.pages = p - c.first_page + 1;
      return;
    }
  }
  chunks.push_back({p, 1});
}

ChunkPlan ChunkPlanner::plan(const VertexSubset& frontier, const SkipThreshold& threshold, uint64_t first_edges) {
  return plan_members([&](auto&& f) { frontier.for_each(f); }, threshold, first_edges);
}

void ChunkPlanner::clear_marks() {
  for (auto& drive : active_) drive.clear();
}

void ChunkPlanner::mark(uint64_t first_page, uint64_t last_page) {
  const unsigned drives = graph_.drives();
  for (uint64_t p = first_page; p <= last_page; ++p) active_[p % drives].set_atomic(p / drives);
}

template <class ForEach>
ChunkPlan ChunkPlanner::plan_members(ForEach&& for_each, const SkipThreshold& threshold, uint64_t first_edges) {
  if (threshold.infinite) return full_scan(threshold);
  const uint64_t cap = first_edges ? first_edges : UINT64_MAX;
  uint64_t active_edges = 0;
  const layout::DegreeArray::Reader degrees = graph_.degrees().reader();
  for_each([&](uint64_t v) { active_edges += std::min<uint64_t>(degrees[v], cap); });
  if (scans_fully(threshold, active_edges)) return full_scan(threshold);  // before marking: no page marks needed
  clear_marks();
  const unsigned drives = graph_.drives();
  for_each([&](uint64_t v) {  // one thread: plain stores, not mark's atomic ones
    uint64_t first, last;
    if (!graph_.page_range(v, first, last, cap)) return;
    for (uint64_t p = first; p <= last; ++p) active_[p % drives].set(p / drives);
  });
  return plan_marked(threshold, active_edges);
}

bool ChunkPlanner::scans_fully(const SkipThreshold& threshold, uint64_t active_edges) const {
  return threshold.infinite || (active_edges > 0 && double(active_edges) >= full_scan_share * double(graph_.edges()));
}

ChunkPlan ChunkPlanner::plan_marked(const SkipThreshold& threshold, uint64_t active_edges) {
  if (scans_fully(threshold, active_edges)) return full_scan(threshold);
  ChunkPlan plan;
  append_marked(threshold, 0, graph_.pages(), plan);
  return plan;
}

void ChunkPlanner::append_marked(const SkipThreshold& threshold, uint64_t first_page, uint64_t end_page, ChunkPlan& plan) const {
  const uint64_t drives = graph_.drives();
  plan.chunks.resize(drives);
  for (uint64_t d = 0; d < drives; ++d) {
    // Drive d holds logical pages d, d + drives, ...: its local pages in range.
    auto local_end = [&](uint64_t logical) { return logical <= d ? 0 : (logical - d + drives - 1) / drives; };
    auto& chunks = plan.chunks[d];
    const size_t first_new = chunks.size();
    // Other threads may still mark later pages, in the same words.
    active_[d].for_each_in_while_set(local_end(first_page), local_end(end_page), [&](uint64_t p) {
      ++plan.active_pages;
      add_page(threshold, d, p, chunks, first_new, plan);
    });
    for (size_t c = first_new; c < chunks.size(); ++c) plan.read_pages += chunks[c].pages;
  }
}

}  // namespace sluice::engine
