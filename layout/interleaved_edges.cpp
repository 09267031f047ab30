#include "layout/interleaved_edges.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "base/errors.hpp"

namespace sluice::layout {

void RecordLayout::unpack(const char* records, uint64_t count, void* targets, float* weights) const {
  const unsigned rb = record_bytes();
  if (!weighted) {
    std::memcpy(targets, records, count * id_bytes);  // records are just the ids
    return;
  }
  char* out = static_cast<char*>(targets);
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(out + i * id_bytes, records + i * rb, id_bytes);
    if (weights) std::memcpy(weights + i, records + i * rb + id_bytes, 4);
  }
}

uint64_t PageChecksums::of(const char* page, uint64_t page_bytes, uint64_t index) const {
  return XXH3_64bits_withSeed(page, page_bytes, seed + index);
}

InterleavedEdgeReader::InterleavedEdgeReader(std::vector<std::string> paths, RecordLayout layout,
                                             PageInterleaving interleaving, uint64_t edges, uint64_t vertices,
                                             std::optional<DriveHeader> identity, std::optional<uint64_t> pages)
    : paths_(std::move(paths)), layout_(layout), interleaving_(interleaving), vertices_(vertices) {
  pages_ = pages ? *pages : layout_.pages_for(edges, interleaving_.page_bytes);
  for (unsigned d = 0; d < paths_.size(); ++d) {
    files_.push_back(base::FileDescriptor::open_for_reading(paths_[d]));
    if (identity) {
      DriveHeader expected = *identity;
      expected.drive = d;
      expected.pages = interleaving_.pages_on_drive(pages_, d);
      std::optional<DriveHeader> found = DriveHeader::read(files_.back(), paths_[d]);
      if (!found) throw base::InputError(paths_[d], base::at_byte(0), "not a sluice drive file (no drive header)");
      found->expect(expected, paths_[d]);
    }
    uint64_t expected = drive_bytes(d);
    uint64_t actual = files_.back().size();
    if (actual != expected) {
      throw base::InputError(paths_[d], "", "drive file " + std::to_string(d) + " holds " + std::to_string(actual) +
                                          " bytes, expected " + std::to_string(expected) + " (" +
                                          std::to_string(interleaving_.pages_on_drive(pages_, d)) + " pages" +
                                          (interleaving_.header_bytes ? " after the header" : "") + ")" +
                                          (actual < expected ? ": the file is short" : ""));
    }
  }
}

std::string InterleavedEdgeReader::locate_page(uint64_t page) const {
  return paths_[interleaving_.drive_of(page)] + ", byte " + std::to_string(interleaving_.offset_on_drive(page));
}

void InterleavedEdgeReader::read_pages(uint64_t first, uint64_t count, char* out) const {
  const uint64_t page = interleaving_.page_bytes;
  const unsigned drives = interleaving_.drives;
  // The pages of one drive within a logical range are contiguous on that
  // drive, so each drive needs one read into a scratch run.
  thread_local std::vector<char> run;
  for (unsigned k = 0; k < std::min<uint64_t>(drives, count); ++k) {
    uint64_t p = first + k;
    unsigned d = interleaving_.drive_of(p);
    uint64_t n = (count - k + drives - 1) / drives;
    if (drives == 1) {
      files_[d].read_exactly(out, n * page, interleaving_.offset_on_drive(p), paths_[d]);
      continue;
    }
    run.resize(n * page);
    files_[d].read_exactly(run.data(), n * page, interleaving_.offset_on_drive(p), paths_[d]);
    for (uint64_t i = 0; i < n; ++i) std::memcpy(out + (k + i * drives) * page, run.data() + i * page, page);
  }
  if (checksums_.sums) {
    for (uint64_t i = 0; i < count; ++i) {
      if (!checksums_.matches(out + i * page, page, first + i)) {
        const uint64_t p = first + i;
        throw base::InputError(paths_[interleaving_.drive_of(p)], base::at_byte(interleaving_.offset_on_drive(p)),
                         "page " + std::to_string(p) + " fails its checksum: the drive file is damaged");
      }
    }
  }
}

void InterleavedEdgeReader::read_edges(uint64_t first, uint64_t count, void* targets, float* weights) const {
  if (count == 0) return;
  const uint64_t page = interleaving_.page_bytes;
  const unsigned rb = layout_.record_bytes();
  uint64_t byte_begin = first * rb, byte_end = (first + count) * rb;
  uint64_t p0 = byte_begin / page, p1 = (byte_end - 1) / page;
  thread_local std::vector<char> pages;
  pages.resize((p1 - p0 + 1) * page);
  read_pages(p0, p1 - p0 + 1, pages.data());
  layout_.unpack(pages.data() + (byte_begin - p0 * page), count, targets, weights);
  // Every target is checked before anyone indexes memory with it.
  auto check = [&](auto* ids) {
    auto largest = ids[0];
    for (uint64_t i = 1; i < count; ++i) largest = std::max(largest, ids[i]);
    if (largest < vertices_) return;
    for (uint64_t i = 0; i < count; ++i) {
      if (ids[i] < vertices_) continue;
      const uint64_t record = first + i, p = record * rb / page;
      throw base::InputError(paths_[interleaving_.drive_of(p)], base::at_byte(interleaving_.offset_on_drive(p) + record * rb % page),
                       "edge target " + std::to_string(ids[i]) + " is not below the " + std::to_string(vertices_) +
                           " vertices (the drive file is damaged or belongs to another graph)");
    }
  };
  if (layout_.id_bytes == 4) check(static_cast<const uint32_t*>(targets));
  else check(static_cast<const uint64_t*>(targets));
}

InterleavedEdgeWriter::InterleavedEdgeWriter(const std::vector<std::string>& paths, RecordLayout layout,
                                             PageInterleaving interleaving, uint64_t edges,
                                             std::optional<DriveHeader> identity)
    : layout_(layout), interleaving_(interleaving), page_(interleaving.page_bytes) {
  pages_ = layout.pages_for(edges, interleaving.page_bytes);
  open(paths, identity);
}

InterleavedEdgeWriter::InterleavedEdgeWriter(const std::vector<std::string>& paths, PageInterleaving interleaving,
                                             DriveHeader identity)
    : interleaving_(interleaving), pages_known_(false) {
  open(paths, identity);
}

std::string InterleavedEdgeWriter::header_page(const DriveHeader& identity, unsigned drive, uint64_t pages) const {
  DriveHeader header = identity;
  header.drive = drive;
  header.drives = interleaving_.drives;
  header.page_bytes = interleaving_.page_bytes;
  header.pages = interleaving_.pages_on_drive(pages, drive);
  std::string page = header.page();
  if (page.size() != interleaving_.header_bytes) throw std::logic_error("drive header size differs from the layout's");
  return page;
}

void InterleavedEdgeWriter::open(const std::vector<std::string>& paths, const std::optional<DriveHeader>& identity) {
  identity_ = identity;
  if (identity) {
    seed_ = page_checksum_seed(identity->layout_id);
    if (pages_known_) sums_.reserve(pages_);
  }
  for (unsigned d = 0; d < paths.size(); ++d) {
    files_.emplace_back(paths[d], 2 << 20);
    files_.back().write_behind(writes_, /*direct=*/true);  // read back with O_DIRECT only
    if (!identity) continue;
    if (pages_known_) files_.back().write(header_page(*identity, d, pages_));
    else files_.back().write_zeros(interleaving_.header_bytes);  // written by finish()
  }
}

void InterleavedEdgeWriter::flush_page() {
  std::memset(page_.data() + used_, 0, page_.size() - used_);
  write_page(page_.data());
  used_ = 0;
}

void InterleavedEdgeWriter::write_page(const char* page) {
  files_[interleaving_.drive_of(page_index_)].write(page, interleaving_.page_bytes);
  if (identity_) sums_.push_back(PageChecksums{seed_, nullptr}.of(page, interleaving_.page_bytes, page_index_));
  ++page_index_;
}

void InterleavedEdgeWriter::append(const void* targets, const float* weights, uint64_t count) {
  const unsigned rb = layout_.record_bytes(), ib = layout_.id_bytes;
  const char* ids = static_cast<const char*>(targets);
  if (!layout_.weighted) {  // records are the ids as they are: a page's worth at a time
    for (uint64_t i = 0; i < count;) {
      const uint64_t take = std::min<uint64_t>(count - i, (page_.size() - used_) / rb);
      std::memcpy(page_.data() + used_, ids + i * ib, take * rb);
      used_ += take * rb;
      i += take;
      if (used_ == page_.size()) flush_page();
    }
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    char* record = page_.data() + used_;
    std::memcpy(record, ids + i * ib, ib);
    if (layout_.weighted) {
      std::memcpy(record + ib, weights + i, 4);
      if (rb > ib + 4) std::memset(record + ib + 4, 0, rb - ib - 4);
    }
    used_ += rb;
    if (used_ == page_.size()) flush_page();
  }
}

void InterleavedEdgeWriter::append_page(const char* page) {
  if (pages_known_) throw std::logic_error("append_page needs the writer for whole pages");
  write_page(page);
}

std::vector<uint64_t> InterleavedEdgeWriter::finish() {
  if (!pages_known_) {
    pages_ = page_index_;
    for (unsigned d = 0; d < files_.size(); ++d) {
      const std::string header = header_page(*identity_, d, pages_);
      files_[d].rewrite(0, header.data(), header.size());
    }
  }
  if (used_ > 0) flush_page();
  if (page_index_ != pages_) {
    throw std::logic_error("the edge writer got " + std::to_string(page_index_) + " pages, " + std::to_string(pages_) + " were announced");
  }
  for (auto& file : files_) file.finish();
  return std::move(sums_);
}

}  // namespace sluice::layout
