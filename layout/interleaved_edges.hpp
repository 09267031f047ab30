// The edge array on disk: fixed-size edge records cut into pages, page p
// stored on drive p mod N at byte header + (p / N) * page_bytes of that
// drive's file (RAID-0 across drives, as Blaze lays it out). Records never
// straddle a page because record sizes divide the page size. The last page
// is padded with zeros.
//
// A sluice layout's drive files start with a header page (drive_header.hpp)
// and every page has an XXH3 checksum, seeded by the layout and the page
// number, kept in the index file: a damaged, swapped or foreign page is
// found when it is read. Blaze's drive files have neither.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/mapped_file.hpp"
#include "layout/drive_header.hpp"

namespace sluice::layout {

struct PageInterleaving {
  uint64_t page_bytes = 4096;
  unsigned drives = 1;
  uint64_t header_bytes = 0;  // before the first page of every drive file

  unsigned drive_of(uint64_t page) const { return unsigned(page % drives); }
  uint64_t offset_on_drive(uint64_t page) const { return header_bytes + page / drives * page_bytes; }
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

// The checksums of a layout's pages: one XXH3 per logical page, seeded by
// seed + page number.
struct PageChecksums {
  uint64_t seed = 0;
  const uint64_t* sums = nullptr;  // one per page
  uint64_t of(const char* page, uint64_t page_bytes, uint64_t index) const;
  bool matches(const char* page, uint64_t page_bytes, uint64_t index) const { return of(page, page_bytes, index) == sums[index]; }
};

class InterleavedEdgeReader {
 public:
  // Opens the drive files and checks each has exactly the pages it should
  // (and, with `identity`, the header of that layout, edge set and drive).
  // `pages`: the page count when it does not follow from the edge count
  // (compressed pages).
  InterleavedEdgeReader(std::vector<std::string> paths, RecordLayout layout, PageInterleaving interleaving,
                        uint64_t edges, uint64_t vertices, std::optional<DriveHeader> identity = std::nullopt,
                        std::optional<uint64_t> pages = std::nullopt);

  // Checks every page read from now on against these checksums.
  void check_pages(PageChecksums checksums) { checksums_ = checksums; }

  // Reads edge records [first, first + count) (thread-safe; fixed records
  // only); a target that is not below the vertex count is an InputError
  // naming the drive file and byte.
  void read_edges(uint64_t first, uint64_t count, void* targets, float* weights) const;
  // Reads logical pages [first, first + count) into `out` (count * page_bytes).
  void read_pages(uint64_t first, uint64_t count, char* out) const;

  uint64_t pages() const { return pages_; }
  const std::vector<std::string>& paths() const { return paths_; }
  // The open drive files whose headers were checked: whoever reads the
  // drives another way opens these very files again (not their paths,
  // which a conversion may have renamed another file onto since).
  std::vector<int> descriptors() const {
    std::vector<int> fds;
    for (const base::FileDescriptor& f : files_) fds.push_back(f.get());
    return fds;
  }
  const PageInterleaving& interleaving() const { return interleaving_; }
  const RecordLayout& layout() const { return layout_; }
  uint64_t drive_bytes(unsigned drive) const {
    return interleaving_.header_bytes + interleaving_.pages_on_drive(pages_, drive) * interleaving_.page_bytes;
  }
  // "DRIVE_FILE, byte N": where logical page p starts.
  std::string locate_page(uint64_t page) const;

 private:
  std::vector<std::string> paths_;
  std::vector<base::FileDescriptor> files_;
  RecordLayout layout_;
  PageInterleaving interleaving_;
  uint64_t pages_ = 0;
  uint64_t vertices_ = 0;
  PageChecksums checksums_;
};

// Writes records page by page to the drive files (under temporary names).
// With `identity` (a sluice layout) each file starts with its header page
// and every page's checksum is computed.
class InterleavedEdgeWriter {
 public:
  InterleavedEdgeWriter(const std::vector<std::string>& paths, RecordLayout layout, PageInterleaving interleaving,
                        uint64_t edges, std::optional<DriveHeader> identity = std::nullopt);
  // For whole pages built elsewhere (compressed pages), whose count is
  // known only at the end: the headers are written then.
  InterleavedEdgeWriter(const std::vector<std::string>& paths, PageInterleaving interleaving, DriveHeader identity);

  void append(const void* targets, const float* weights, uint64_t count);
  // Appends one whole page (page_bytes); only with the second constructor.
  void append_page(const char* page);
  // Pads the last page; returns the page checksums (none without an
  // identity). The files still need commit.
  std::vector<uint64_t> finish();
  std::vector<base::AtomicFile>& files() { return files_; }
  uint64_t pages_written() const { return page_index_; }

 private:
  void open(const std::vector<std::string>& paths, const std::optional<DriveHeader>& identity);
  void flush_page();
  // Writes one whole page to its drive and takes its checksum.
  void write_page(const char* page);
  std::string header_page(const DriveHeader& identity, unsigned drive, uint64_t pages) const;

  // Writes the drive files' full buffers while the next pages fill
  // (declared first: it outlives the files it writes).
  base::SerialWorker writes_;
  std::vector<base::AtomicFile> files_;
  RecordLayout layout_;
  PageInterleaving interleaving_;
  std::vector<char> page_;
  uint64_t used_ = 0;
  uint64_t page_index_ = 0;
  uint64_t pages_ = 0;  // as announced in the headers
  bool pages_known_ = true;  // else the headers are written by finish()
  std::optional<DriveHeader> identity_;  // a sluice layout's: headers and checksums
  uint64_t seed_ = 0;
  std::vector<uint64_t> sums_;
};

}  // namespace sluice::layout
