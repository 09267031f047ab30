// `--io memory`: an edge set's drive files read once into DRAM (huge pages
// where the kernel gives them), every page's checksum checked then, and
// the EDGEMAPs walking the pages in place: no IO thread, no request, no
// copy into buffers. It is the in-memory mode every comparison with an
// in-memory system uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/disk_graph.hpp"

namespace sluice::engine {

class ResidentPages {
 public:
  // Reads every drive file of `graph` with `threads` threads; checks each
  // page against its checksum when `verify` (DamagedPageError names one).
  ResidentPages(const DiskGraph& graph, int threads, bool verify);
  ~ResidentPages();
  ResidentPages(const ResidentPages&) = delete;
  ResidentPages& operator=(const ResidentPages&) = delete;

  // Drive-local page `page` of drive `drive`: its bytes, or for compressed
  // pages its decoded records.
  const char* page(unsigned drive, uint64_t page) const {
    if (decoded_) return decoded_->data + graph_.first_edge_of_page(page * graph_.drives() + drive) * graph_.record_bytes();
    return regions_[drive].data + page * page_bytes_;
  }
  uint64_t bytes() const;
  double load_seconds() const { return load_seconds_; }

 private:
  // One drive's pages, in an anonymous mapping of their size.
  class Region {
   public:
    Region(uint64_t bytes, const std::string& path);
    Region(Region&& o) noexcept : data(o.data), bytes(o.bytes) { o.data = nullptr; }
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;
    Region& operator=(Region&&) = delete;
    ~Region();
    char* data;
    uint64_t bytes;
  };
  const DiskGraph& graph_;
  std::vector<Region> regions_;
  std::optional<Region> decoded_;  // compressed pages: every edge's record, by edge number
  uint64_t page_bytes_;
  double load_seconds_ = 0;
};

}  // namespace sluice::engine
