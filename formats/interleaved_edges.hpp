// The edge array on disk: fixed-size edge records cut into pages, page p
// stored on drive p mod N at byte (p / N) * page_bytes of that drive's file
// (RAID-0 across drives, as Blaze lays it out). Records never straddle a
// page because record sizes divide the page size. The last page is padded
// with zeros.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/atomic_file.hpp"
#include "formats/mapped_file.hpp"

namespace sluice {

struct PageInterleaving {
  uint64_t page_bytes = 4096;
  unsigned drives = 1;

  unsigned drive_of(uint64_t page) const { return unsigned(page % drives); }
  uint64_t offset_on_drive(uint64_t page) const { return page / drives * page_bytes; }
  uint64_t pages_on_drive(uint64_t total_pages, unsigned drive) const {
    return total_pages > drive ? (total_pages - drive + drives - 1) / drives : 0;
  }
};

// One edge record: the target id, then the weight if any, padded so the
// record size is 4, 8 or 16 bytes.
struct RecordLayout {
  unsigned id_bytes = 4;
  bool weighted = false;
  unsigned record_bytes() const { return id_bytes == 4 ? (weighted ? 8 : 4) : (weighted ? 16 : 8); }
  uint64_t pages_for(uint64_t edges, uint64_t page_bytes) const {
    return (edges * record_bytes() + page_bytes - 1) / page_bytes;
  }
  // Unpacks `count` records into targets (id_bytes wide) and weights (if not null).
  void unpack(const char* records, uint64_t count, void* targets, float* weights) const;
};

class InterleavedEdgeReader {
 public:
  // Opens the drive files and checks each has exactly the pages it should.
  InterleavedEdgeReader(std::vector<std::string> paths, RecordLayout layout, PageInterleaving interleaving,
                        uint64_t edges);

  // Reads edge records [first, first + count) (thread-safe).
  void read_edges(uint64_t first, uint64_t count, void* targets, float* weights) const;
  // Reads logical pages [first, first + count) into `out` (count * page_bytes).
  void read_pages(uint64_t first, uint64_t count, char* out) const;

  uint64_t pages() const { return pages_; }
  const std::vector<std::string>& paths() const { return paths_; }
  const PageInterleaving& interleaving() const { return interleaving_; }
  const RecordLayout& layout() const { return layout_; }
  uint64_t drive_bytes(unsigned drive) const {
    return interleaving_.pages_on_drive(pages_, drive) * interleaving_.page_bytes;
  }

 private:
  std::vector<std::string> paths_;
  std::vector<FileDescriptor> files_;
  RecordLayout layout_;
  PageInterleaving interleaving_;
  uint64_t pages_ = 0;
};

// Writes records page by page to the drive files (under temporary names)
// and computes one XXH64 per group of `checksum_pages` logical pages.
class InterleavedEdgeWriter {
 public:
  InterleavedEdgeWriter(const std::vector<std::string>& paths, RecordLayout layout, PageInterleaving interleaving,
                        uint64_t checksum_pages);
  ~InterleavedEdgeWriter();

  void append(const void* targets, const float* weights, uint64_t count);
  // Pads the last page; returns the checksums. The files still need commit.
  std::vector<uint64_t> finish();
  std::vector<AtomicFile>& files() { return files_; }

 private:
  void flush_page();

  std::vector<AtomicFile> files_;
  RecordLayout layout_;
  PageInterleaving interleaving_;
  uint64_t checksum_pages_;
  std::vector<char> page_;
  uint64_t used_ = 0;
  uint64_t page_index_ = 0;
  struct HashState;
  HashState* hash_;
  std::vector<uint64_t> checksums_;
};

// XXH64 of each group of `checksum_pages` logical pages, read back from disk.
std::vector<uint64_t> checksum_pages(const InterleavedEdgeReader& reader, uint64_t checksum_pages);

}  // namespace sluice
