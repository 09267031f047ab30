// One edge set's way from its drives to the compute threads: the drive
// files, the IO service (one IO thread per drive), and the chunk planner.
// start(plan) queues the planned chunks; then every compute thread calls
// next() until it returns false, and gets the pages of one filled buffer
// at a time, in completion order. With `--io memory` the pages are held
// in DRAM (resident_pages.hpp) and next() hands out pieces of the planned
// chunks in place, with no IO thread and no buffer.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include "base/interruption.hpp"
#include "engine/chunk_planner.hpp"
#include "engine/disk_graph.hpp"
#include "engine/page_cache.hpp"
#include "base/first_error.hpp"
#include "engine/page_walk.hpp"
#include "engine/resident_pages.hpp"
#include "io/drive_set.hpp"
#include "io/io_service.hpp"

namespace sluice::engine {

// IO buffers for one edge set: the options' count, by default two queue
// depths per drive, but never more than the whole edge set needs.
unsigned io_buffers_for(const DiskGraph& graph, const io::IoOptions& options);

// What a page cache holding every page of graph's edge set takes, its
// table included: the pages decoded where they are compressed.
uint64_t whole_page_cache_bytes(const DiskGraph& graph);

class PageStream {
 public:
  // threads: the compute threads, which load the pages with --io memory.
  // verify_reads: check every page's checksum (once, at the load, with
  // --io memory; its targets are always checked before use).
  // same_pages: a stream over the same edge set whose pages in memory this
  // one shares (null: none). buffers: the IO buffers, shared with streams
  // that never read while this one does (null: its own; none in memory).
  PageStream(const DiskGraph& graph, const io::IoOptions& options, int threads, bool verify_reads,
             const PageStream* same_pages = nullptr, std::shared_ptr<io::BufferPool> buffers = nullptr);
  ~PageStream();

  const DiskGraph& graph() const { return graph_; }
  ChunkPlanner& planner() { return planner_; }

  // The IO buffers read into (null with --io memory).
  std::shared_ptr<io::BufferPool> io_buffers() const { return io_ ? io_->buffers() : nullptr; }
  // Queues the reads of the plan (none if the plan's chunks were queued
  // as they were planned).
  void start(const ChunkPlan& plan);
  // Readies the first read (io::IoService::ready); nothing in memory.
  void ready_reads() {
    if (io_) io_->ready();
  }
  // Whether the pages come from the drives (not --io memory): only then
  // can reads be queued before the plan is whole.
  bool reads_drives() const { return !resident_; }
  // Keeps up to budget_bytes of the pages read, for later plans to take
  // from DRAM (page_cache.hpp); 0: none. Between walks only; what was
  // kept before is dropped. Nothing with --io memory. Compressed pages
  // are kept decoded, so that no use decodes them again, as far as the
  // budget still holds the rest of the set as read
  // (PageCache::may_decode): every page decoded where it holds the whole
  // set so (whole_page_cache_bytes).
  void keep_pages(uint64_t budget_bytes);
  // Queues reads of drive's chunks now (thread-safe), ahead of start().
  void queue(unsigned drive, std::span<const Chunk> chunks);
  // Takes and releases, unread, every buffer queued and not yet taken:
  // after a plan whose reads were queued fails before its walk.
  void discard();
  // On a compute thread: calls visit(logical_page, data, check) for every
  // page of the next filled buffer, `check` being what the walk checks of
  // it (page_records), adds the time that took to busy_ns, and returns
  // true; or returns false once every queued read has been delivered. An
  // IO error or an exception of visit is captured in `error`; later
  // buffers are then released unread.
  //
  // The plan's cached pages come first, a piece at a time; a page read
  // that the cache held when the walk started (in a merged gap) is not
  // visited, and every other page read is offered to the cache.
  template <class Visit>
  bool next(base::FirstError& error, uint64_t& busy_ns, Visit&& visit) {
    if (resident_) return next_resident(error, busy_ns, visit);
    if (next_cached(error, busy_ns, visit)) return true;
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
        for (uint64_t k = 0; k < filled.length / page; ++k) {
          const uint64_t logical = (first + k) * drives + filled.drive;
          const char* data = filled.data + k * page;
          if (!cache_) {
            visit(logical, data, page_check_);
          } else if (!cache_->held_before(logical, held_mark_)) {
            // Decoded into the cache, the walk takes the records there.
            if (const char* records = keep_decoded(logical, data)) {
              visit(logical, records, PageCheck::decoded);
            } else {
              visit(logical, data, page_check_);
              keep_as_read(logical, data);
            }
          }
        }
      } catch (...) {
        error.capture();
      }
      busy_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    }
    io_->release(filled);
    return true;
  }

  // Drive busy time so far, summed over the drives (seconds); 0 in memory.
  double busy_seconds() const;
  const char* backend_name() const { return resident_ ? "memory" : io_->backend_name(); }
  // Seconds the pages took to load into memory (0: read from the drives).
  double load_seconds() const { return resident_ && !shares_pages_ ? resident_->load_seconds() : 0.0; }

 private:
  // A piece of a planned chunk, walked in place by one compute thread.
  struct Piece {
    unsigned drive;
    uint64_t first_page, pages;
  };
  template <class Visit>
  bool next_resident(base::FirstError& error, uint64_t& busy_ns, Visit& visit) {
    const size_t i = next_piece_.fetch_add(1, std::memory_order_relaxed);
    if (i >= pieces_.size()) return false;
    if (error.failed()) return true;
    const auto start = std::chrono::steady_clock::now();
    try {
      base::throw_if_interrupted();
      const Piece& piece = pieces_[i];
      const uint64_t drives = graph_.drives();
      for (uint64_t k = 0; k < piece.pages; ++k) {
        const uint64_t local = piece.first_page + k;
        visit(local * drives + piece.drive, resident_->page(piece.drive, local), page_check_);
      }
    } catch (...) {
      error.capture();
    }
    busy_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    return true;
  }

  // The next piece of the plan's cached pages, if any is left.
  template <class Visit>
  bool next_cached(base::FirstError& error, uint64_t& busy_ns, Visit& visit) {
    if (cached_.empty()) return false;
    const size_t i = next_cached_.fetch_add(cached_piece_pages, std::memory_order_relaxed);
    if (i >= cached_.size()) return false;
    if (error.failed()) return true;
    const auto start = std::chrono::steady_clock::now();
    try {
      base::throw_if_interrupted();
      // Checked when they were read: one kept as read has its targets
      // checked again where the walk decodes it, as any decode does.
      const PageCheck as_read = graph_.compressed() ? PageCheck::targets : PageCheck::nothing;
      for (size_t k = i; k < std::min(cached_.size(), i + cached_piece_pages); ++k) {
        const uint64_t page = cached_[k];
        visit(page, cache_->bytes(page), cache_->decoded(page) ? PageCheck::decoded : as_read);
      }
    } catch (...) {
      error.capture();
    }
    busy_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    return true;
  }

  // A page read and not held, offered to the cache (page_stream.cpp):
  // decoded, checked as a walk checks it (its records, or null where it
  // is not kept so); or, once walked, as read.
  const char* keep_decoded(uint64_t page, const char* data);
  void keep_as_read(uint64_t page, const char* data);

  static constexpr size_t cached_piece_pages = 16;
  const DiskGraph& graph_;
  std::shared_ptr<const ResidentPages> resident_;  // --io memory
  std::unique_ptr<io::DriveSet> drives_;     // otherwise, with the IO service
  std::unique_ptr<io::IoService> io_;
  ChunkPlanner planner_;
  PageCheck page_check_;
  bool shares_pages_ = false;
  uint64_t piece_pages_ = 64;  // pages a compute thread takes at a time in memory
  std::vector<Piece> pieces_;
  std::atomic<size_t> next_piece_{0};
  std::unique_ptr<PageCache> cache_;  // with keep_pages
  uint64_t cache_budget_ = 0;         // what keep_pages gave it
  std::vector<uint64_t> cached_;      // the walk's pages from the cache
  std::atomic<size_t> next_cached_{0};
  uint64_t held_mark_ = 0;            // the cache's held_before() at the walk's start
};

}  // namespace sluice::engine
