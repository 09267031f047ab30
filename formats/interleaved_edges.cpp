#include "formats/interleaved_edges.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "formats/errors.hpp"

namespace sluice {

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

InterleavedEdgeReader::InterleavedEdgeReader(std::vector<std::string> paths, RecordLayout layout,
                                             PageInterleaving interleaving, uint64_t edges)
    : paths_(std::move(paths)), layout_(layout), interleaving_(interleaving) {
  pages_ = layout_.pages_for(edges, interleaving_.page_bytes);
  for (unsigned d = 0; d < paths_.size(); ++d) {
    files_.push_back(FileDescriptor::open_for_reading(paths_[d]));
    uint64_t expected = drive_bytes(d);
    uint64_t actual = files_.back().size();
    if (actual != expected) {
      throw InputError(paths_[d], "", "drive file " + std::to_string(d) + " holds " + std::to_string(actual) +
                                          " bytes, expected " + std::to_string(expected) + " (" +
                                          std::to_string(expected / interleaving_.page_bytes) + " pages)" +
                                          (actual < expected ? ": the file is short" : ""));
    }
  }
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
}

struct InterleavedEdgeWriter::HashState {
  XXH64_state_t* state = XXH64_createState();
  ~HashState() { XXH64_freeState(state); }
};

InterleavedEdgeWriter::InterleavedEdgeWriter(const std::vector<std::string>& paths, RecordLayout layout,
                                             PageInterleaving interleaving, uint64_t checksum_pages)
    : layout_(layout),
      interleaving_(interleaving),
      checksum_pages_(checksum_pages),
      page_(interleaving.page_bytes),
      hash_(new HashState) {
  for (auto& path : paths) files_.emplace_back(path, 4 << 20);
  XXH64_reset(hash_->state, 0);
}

InterleavedEdgeWriter::~InterleavedEdgeWriter() { delete hash_; }

void InterleavedEdgeWriter::flush_page() {
  std::memset(page_.data() + used_, 0, page_.size() - used_);
  files_[interleaving_.drive_of(page_index_)].write(page_.data(), page_.size());
  XXH64_update(hash_->state, page_.data(), page_.size());
  ++page_index_;
  if (page_index_ % checksum_pages_ == 0) {
    checksums_.push_back(XXH64_digest(hash_->state));
    XXH64_reset(hash_->state, 0);
  }
  used_ = 0;
}

void InterleavedEdgeWriter::append(const void* targets, const float* weights, uint64_t count) {
  const unsigned rb = layout_.record_bytes(), ib = layout_.id_bytes;
  const char* ids = static_cast<const char*>(targets);
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

std::vector<uint64_t> InterleavedEdgeWriter::finish() {
  if (used_ > 0) flush_page();
  if (page_index_ % checksum_pages_ != 0) checksums_.push_back(XXH64_digest(hash_->state));
  for (auto& file : files_) file.finish();
  return checksums_;
}

std::vector<uint64_t> checksum_pages(const InterleavedEdgeReader& reader, uint64_t group) {
  std::vector<uint64_t> sums;
  std::vector<char> buffer(group * reader.interleaving().page_bytes);
  for (uint64_t first = 0; first < reader.pages(); first += group) {
    uint64_t n = std::min(group, reader.pages() - first);
    reader.read_pages(first, n, buffer.data());
    sums.push_back(XXH64(buffer.data(), n * reader.interleaving().page_bytes, 0));
  }
  return sums;
}

}  // namespace sluice
