// A pull's reads, queued while it is still planned. The planning pass takes
// the vertices in units, in id order, and the units form up to eight
// segments. Once every unit of the segments up to k is done, the pages
// before segment k + 1's first in-edge can get no more marks, so their
// chunks are planned and queued then: the drives read while the compute
// threads plan the rest. (On RMAT 22 a BFS's dense level planned for 13 ms
// before its 80 ms of reads.)
//
// λ merges gaps within a segment only: a gap at a segment's end is
// skipped, never read, so no plan reads more than a whole one would. Nor
// is such a plan ever a full scan: it reads the marked pages' chunks.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "engine/chunk_planner.hpp"
#include "engine/disk_graph.hpp"
#include "engine/page_stream.hpp"

namespace sluice::engine {

class ReadsWhilePlanning {
 public:
  static constexpr uint64_t max_segments = 8;

  // Units of unit_vertices vertices (the last one shorter) over the graph
  // whose pages `planner` marks; their chunks go to `stream`.
  ReadsWhilePlanning(const DiskGraph& graph, ChunkPlanner& planner, PageStream& stream, const SkipThreshold& threshold,
                     uint64_t unit_vertices);

  uint64_t units() const { return units_; }
  // On any thread, once unit u's pages are marked.
  void unit_done(uint64_t u);
  // Once every unit is done: the plan, all of it queued.
  ChunkPlan take();

 private:
  uint64_t units_in(uint64_t segment) const;
  uint64_t first_page_of(uint64_t segment) const;  // its first in-edge's page (pages(): it has none)
  void queue_ready();

  const DiskGraph& graph_;
  const ChunkPlanner& planner_;
  PageStream& stream_;
  SkipThreshold threshold_;
  uint64_t unit_vertices_, units_, segment_units_, segments_;
  std::unique_ptr<std::atomic<uint64_t>[]> done_;  // per segment: its units done
  std::mutex mutex_;
  uint64_t queued_ = 0;  // segments queued (mutex_)
  ChunkPlan plan_;       // (mutex_)
};

}  // namespace sluice::engine
