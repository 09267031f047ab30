// Writers of every format, each reading its input only through the block
// API, each producing its output atomically (temporary name, fsync, rename).
#pragma once

#include <string>
#include <vector>

#include "base/output_guard.hpp"
#include "formats/block_graph.hpp"

namespace sluice::formats {

struct WriteOptions {
  std::vector<std::string> drive_dirs;  // sluice and Blaze layouts
  BlockGraph* transpose = nullptr;      // sluice layout: also store the transpose
  bool with_transpose = false;          // files_to_write: whether a transpose will be given
  bool progress = false;
  bool force = false;                   // sluice layout: overwrite another layout's drive files
  bool with_ids = false;                // files_to_write: a sluice layout's id map too
  // sluice layout: gap-coded edge pages (what convert and Python write
  // unless asked for plain ones; they sort each list). Where they cannot
  // hold the graph (32-bit ids, more than 2^31 vertices) plain pages,
  // unless `compress_required` (convert --compress), which refuses instead.
  bool compress = false;
  bool compress_required = false;
  uint32_t sample_edges = 2;            // sluice layout: each vertex's first targets beside the index (0: none)
};

// Formats: el (a weight column when weighted), wel, mtx, adj, bel (u32
// pairs), bel64, sluice, blaze.
void write_graph(BlockGraph& graph, const std::string& path, const std::string& format, const WriteOptions& options);

// Every file write_graph would write (a layout's manifest, indexes and
// drive files; the file itself otherwise), to check before any work.
std::vector<base::NamedFile> files_to_write(const std::string& path, const std::string& format, const WriteOptions& options);

}  // namespace sluice::formats
