// An edge set's index file (NAME.SET.index): a 64-byte header (magic,
// version, vertices, edges, pages), the compact index's group offsets and
// degrees, the checksum of every edge page and, for compressed pages, the
// first edge of every page, each part 64-byte aligned.
// The whole file's checksum is in the manifest.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/array.hpp"
#include "base/atomic_file.hpp"
#include "base/graph_info.hpp"
#include "layout/compact_index.hpp"

namespace sluice::layout {

// Writes the index of these degrees and the page checksums (and, when not
// empty, the first edge of every page); returns the file's checksum.
uint64_t write_index_file(base::AtomicFile& file, std::span<const uint32_t> degrees, const std::vector<uint64_t>& page_sums,
                          const std::vector<uint64_t>& page_starts = {});

struct IndexFile {
  CompactIndex index;
  base::Array<uint64_t> page_sums;
  base::Array<uint64_t> page_starts;  // compressed pages only
};

// Reads and checks an index file against what the manifest says of it;
// throws InputError naming what disagrees. `compressed`: it holds the
// pages' first edges, each page at most `page_capacity` edges.
IndexFile read_index_file(const std::string& path, const base::GraphInfo& info, uint64_t pages, uint64_t checksum,
                          bool compressed = false, uint64_t page_capacity = 0);

}  // namespace sluice::layout
