// Redio's dynamic selective scheduling: before each EDGEMAP, the active
// vertices become active pages (per drive), and two active page ranges of a
// drive are merged into one read when the inactive gap between them is
// smaller than the skipping threshold λ, since reading the gap then costs
// less than one more request (io/device_profile.hpp derives λ per device).
// λ = 0 reads exactly the needed pages (Blaze's behaviour); λ = infinity
// reads every page. When most edges are active anyway, the planner skips
// building page lists and plans a full scan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/disk_graph.hpp"
#include "engine/indexed_bitmap.hpp"
#include "engine/page_cache.hpp"
#include "engine/vertex_subset.hpp"

namespace sluice::engine {

struct SkipThreshold {
  uint64_t bytes = 0;
  bool infinite = false;
  static SkipThreshold of(uint64_t bytes) { return {bytes, false}; }
  static SkipThreshold infinity() { return {0, true}; }  // never split a drive's reads
  std::string text() const;  // "inf" or the bytes
};

// One read: `pages` consecutive pages of one drive from `first_page`
// (drive-local page numbers).
struct Chunk {
  uint64_t first_page = 0;
  uint64_t pages = 0;
};

struct ChunkPlan {
  std::vector<std::vector<Chunk>> chunks;  // per drive, ascending
  std::vector<uint64_t> cached;  // logical pages the walk takes from the page cache, not from a read
  bool full_scan = false;
  bool queued = false;         // the chunks were queued while they were planned (reads_while_planning.hpp)
  uint64_t active_pages = 0;   // pages holding an active vertex's edges (cached ones included)
  uint64_t read_pages = 0;     // pages the chunks cover (active + merged gaps)
  uint64_t requests() const;
};

class ChunkPlanner {
 public:
  // Full scan once the active vertices hold at least this share of the edges.
  static constexpr double full_scan_share = 0.5;

  explicit ChunkPlanner(const DiskGraph& graph);
  // Pages `cache` holds are planned into ChunkPlan::cached, not read
  // (null: none; it must outlive the planner's plans).
  void use_cache(const PageCache* cache) { cache_ = cache; }
  // The pages of the frontier's edges, or of at most the first
  // `first_edges` edges of each member (0: all).
  ChunkPlan plan(const VertexSubset& frontier, const SkipThreshold& threshold, uint64_t first_edges = 0);

  // A plan built from pages that several threads mark at once (the pull
  // side marks its destinations' pages while it finds them): clear_marks(),
  // then mark(first, last) for each member's pages, on any thread, then
  // plan_marked with the members' edge count.
  void clear_marks();
  void mark(uint64_t first_page, uint64_t last_page);
  ChunkPlan plan_marked(const SkipThreshold& threshold, uint64_t active_edges);
  // Appends to `plan` the chunks of the marked pages among logical pages
  // [first_page, end_page), merged among themselves only (the chunks plan
  // holds already may have been queued), and counts their pages.
  void append_marked(const SkipThreshold& threshold, uint64_t first_page, uint64_t end_page, ChunkPlan& plan) const;
  // Whether members holding active_edges are read by a full scan (λ is
  // infinite, or they hold full_scan_share of all edges): no marks needed.
  bool scans_fully(const SkipThreshold& threshold, uint64_t active_edges) const;

 private:
  template <class ForEach>
  ChunkPlan plan_members(ForEach&& for_each, const SkipThreshold& threshold, uint64_t first_edges);
  ChunkPlan full_scan(const SkipThreshold& threshold) const;
  // Adds local page p of drive d to `chunks` (or to plan.cached, where the
  // cache holds it), merging gaps below λ.
  void add_page(const SkipThreshold& threshold, uint64_t d, uint64_t p, std::vector<Chunk>& chunks, size_t first_new,
                ChunkPlan& plan) const;

  const DiskGraph& graph_;
  const PageCache* cache_ = nullptr;
  std::vector<IndexedBitmap> active_;  // per drive: drive-local active pages (the PageSubset)
};

}  // namespace sluice::engine
