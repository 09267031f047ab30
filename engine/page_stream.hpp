// One edge set's way from its drives to the compute threads: the drive
// files, the IO service (one IO thread per drive), and the chunk planner.
// start(plan) queues the planned chunks; then every compute thread calls
// next() until it returns false, and gets the pages of one filled buffer
// at a time, in completion order.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "base/interruption.hpp"
#include "engine/chunk_planner.hpp"
#include "engine/disk_graph.hpp"
#include "engine/first_error.hpp"
#include "io/drive_set.hpp"
#include "io/io_service.hpp"

namespace sluice::engine {

// IO buffers for one edge set: the options' count, by default two queue
// depths per drive, but never more than the whole edge set needs.
unsigned io_buffers_for(const DiskGraph& graph, const io::IoOptions& options);

class PageStream {
 public:
  PageStream(const DiskGraph& graph, const io::IoOptions& options);
  ~PageStream();

  const DiskGraph& graph() const { return graph_; }
  ChunkPlanner& planner() { return planner_; }

  // Queues the reads of the plan.
  void start(const ChunkPlan& plan);
  // On a compute thread: calls visit(logical_page, data) for every page of
  // the next filled buffer, adds the time that took to busy_ns, and returns
  // true; or returns false once every queued read has been delivered. An
  // IO error or an exception of visit is captured in `error`; later
  // buffers are then released unread.
  template <class Visit>
  bool next(FirstError& error, uint64_t& busy_ns, Visit&& visit) {
    io::Filled filled;
    for (;;) {
      try {
        if (!io_->next(filled)) return false;
        break;
      } catch (...) {
        error.capture();  // a failed read; keep draining
      }
    }
    if (!error.failed()) {
      const auto start = std::chrono::steady_clock::now();
      try {
        base::throw_if_interrupted();  // the buffers still to come are then released unread
        const uint64_t page = graph_.page_bytes(), drives = graph_.drives();
        const uint64_t first = (filled.offset - graph_.interleaving().header_bytes) / page;  // drive-local page
        for (uint64_t k = 0; k < filled.length / page; ++k) visit((first + k) * drives + filled.drive, filled.data + k * page);
      } catch (...) {
        error.capture();
      }
      busy_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    }
    io_->release(filled);
    return true;
  }

  // Drive busy time so far, summed over the drives (seconds).
  double busy_seconds() const;
  const io::IoService& io() const { return *io_; }

 private:
  const DiskGraph& graph_;
  io::DriveSet drives_;
  std::unique_ptr<io::IoService> io_;
  ChunkPlanner planner_;
};

}  // namespace sluice::engine
