#include "engine/page_stream.hpp"

#include <algorithm>
#include <cstring>

namespace sluice::engine {

unsigned io_buffers_for(const DiskGraph& graph, const io::IoOptions& options) {
  if (options.buffers) return options.buffers;
  const uint64_t bytes = graph.pages() * graph.page_bytes();
  // Every request in flight at once, plus one per drive for a chunk that
  // straddles a request boundary.
  const uint64_t whole = (bytes + options.max_request_bytes - 1) / options.max_request_bytes + graph.drives();
  return unsigned(std::min<uint64_t>(2ull * options.queue_depth * graph.drives(), std::max<uint64_t>(whole, 2)));
}

namespace {
// Pages a compute thread takes at a time from memory: enough to pay for
// taking them, few enough to share a small plan among the threads.
constexpr uint64_t resident_piece_pages = 64;
}  // namespace

PageStream::PageStream(const DiskGraph& graph, const io::IoOptions& options, int threads, bool verify_reads,
                       const PageStream* same_pages, std::shared_ptr<io::BufferPool> buffers)
    : graph_(graph), planner_(graph), page_check_(verify_reads ? PageCheck::everything : PageCheck::targets) {
  if (options.backend == io::BackendKind::memory) {
    shares_pages_ = same_pages && same_pages->resident_;
    resident_ = shares_pages_ ? same_pages->resident_ : std::make_shared<const ResidentPages>(graph, threads, verify_reads);
    // Every page was checked as it was loaded (and a compressed one decoded).
    page_check_ = graph.compressed() ? PageCheck::decoded : PageCheck::nothing;
    // Compressed pages hold more edges: pieces of as many edges as plain ones.
    if (graph.compressed() && graph.edges()) {
      const uint64_t per_page = std::max<uint64_t>(1, graph.edges() / std::max<uint64_t>(1, graph.pages()));
      piece_pages_ = std::clamp<uint64_t>(resident_piece_pages * (graph.page_bytes() / 4) / per_page, 1, resident_piece_pages);
    }
    return;
  }
  drives_ = std::make_unique<io::DriveSet>(graph.drive_paths(), true, graph.page_bytes(), graph.drive_descriptors());
  io::IoOptions sized = options;
  sized.buffers = io_buffers_for(graph, options);
  io_ = std::make_unique<io::IoService>(*drives_, sized, std::move(buffers));
}

PageStream::~PageStream() = default;

uint64_t whole_page_cache_bytes(const DiskGraph& graph) {
  const uint64_t bytes = graph.compressed() ? graph.edges() * graph.record_bytes() : graph.pages() * graph.page_bytes();
  return PageCache::bytes_to_hold(graph.pages(), bytes);
}

void PageStream::keep_pages(uint64_t budget_bytes) {
  const uint64_t budget = resident_ ? 0 : std::min(budget_bytes, whole_page_cache_bytes(graph_));
  // The same budget again before any page was kept (the engine's opening,
  // then the sides its algorithm reads): the table is not built twice.
  if (cache_ && budget == cache_budget_ && cache_->held_bytes() == 0) return;
  planner_.use_cache(nullptr);
  cache_.reset();
  cache_budget_ = budget;
  if (budget == 0) return;
  cache_ = std::make_unique<PageCache>(graph_.pages(), graph_.pages() * graph_.page_bytes(), budget);
  if (!cache_->usable()) {
    cache_.reset();
    return;
  }
  planner_.use_cache(cache_.get());
}

const char* PageStream::keep_decoded(uint64_t page, const char* data) {
  if (!graph_.compressed()) return nullptr;
  const uint64_t records = (graph_.end_edge_of_page(page) - graph_.first_edge_of_page(page)) * graph_.record_bytes();
  if (!cache_->may_decode(records, graph_.page_bytes())) return nullptr;
  char* at = cache_->room(records);
  if (!at) return nullptr;  // full: as read it would not fit either
  decode_compressed_page(graph_, page, data, page_check_, at);
  cache_->hold(page, at, true);
  return at;
}

void PageStream::keep_as_read(uint64_t page, const char* data) {
  if (char* at = cache_->room(graph_.page_bytes())) {
    std::memcpy(at, data, graph_.page_bytes());
    cache_->hold(page, at, false);
  }
}

void PageStream::start(const ChunkPlan& plan) {
  cached_ = plan.cached;
  next_cached_.store(0, std::memory_order_relaxed);
  held_mark_ = cache_ ? cache_->held_mark() : 0;
  if (resident_) {
    pieces_.clear();
    for (unsigned d = 0; d < graph_.drives(); ++d) {
      for (const Chunk& c : plan.chunks[d]) {
        for (uint64_t p = 0; p < c.pages; p += piece_pages_) {
          pieces_.push_back({d, c.first_page + p, std::min(piece_pages_, c.pages - p)});
        }
      }
    }
    next_piece_.store(0, std::memory_order_relaxed);
    return;
  }
  if (plan.queued) return;
  for (unsigned d = 0; d < graph_.drives(); ++d) queue(d, plan.chunks[d]);
}

void PageStream::queue(unsigned drive, std::span<const Chunk> chunks) {
  const uint64_t page = graph_.page_bytes(), header = graph_.interleaving().header_bytes;
  std::vector<io::Extent> extents;
  extents.reserve(chunks.size());
  for (const Chunk& c : chunks) extents.push_back({header + c.first_page * page, c.pages * page});
  io_->read(drive, extents);
}

void PageStream::discard() {
  if (resident_) return;
  io::Filled filled;
  for (;;) {
    try {
      if (!io_->next(filled)) return;
    } catch (...) {
      continue;  // a failed read: nobody wants its pages
    }
    io_->release(filled);
  }
}

double PageStream::busy_seconds() const {
  if (resident_) return 0.0;
  uint64_t ns = 0;
  for (unsigned d = 0; d < graph_.drives(); ++d) ns += io_->stats(d).busy_ns;
  return double(ns) / 1e9;
}

}  // namespace sluice::engine
