// Blaze's dataset files (NVSL/blaze, apps/convert.cpp and include/Graph.h),
// byte for byte: NAME.gr.index holds Galois's 32-byte graph header
// (unused, edge size, nodes, edges: four u64; Blaze writes 0, 0, n, m), one
// u64 offset per 16 vertices, zero padding to a 64-byte line and a u32
// degree per vertex, padded to a multiple of 16; NAME.gr.adj.N.i
// (i < N) hold the u32 targets in 4 KiB pages interleaved round-robin.
// Only unweighted graphs with 32-bit ids: Blaze's weighted files copy
// Galois's separate target and weight arrays as one stream, which is not a
// record layout anything else reads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/output_guard.hpp"
#include "formats/block_graph.hpp"

namespace sluice::formats {

// `index_path` ends in ".index"; the drive files are found beside it
// (NAME.gr.adj.N.i, or the artifact's NAME.gr.adj.i).
// The adjacency files are looked for beside the index, or in
// `adjacency_dirs` (one per drive, in order) when given.
std::unique_ptr<GraphSource> open_blaze_layout(const std::string& index_path,
                                               const std::vector<std::string>& adjacency_dirs = {});

// The files of the dataset at `index_path` (the index, then the adjacency
// files found as open_blaze_layout finds them), or just the index when
// they cannot be found.
std::vector<base::NamedFile> blaze_layout_files(const std::string& index_path, const std::vector<std::string>& adjacency_dirs = {});
// The files write_blaze_layout writes.
std::vector<base::NamedFile> blaze_layout_files_to_write(const std::string& index_path, const std::vector<std::string>& drive_dirs);

// Writes NAME.gr.index and NAME.gr.adj.N.i (in drive_dirs[i], or beside the
// index when none are given).
void write_blaze_layout(BlockGraph& graph, const std::string& index_path, const std::vector<std::string>& drive_dirs);

}  // namespace sluice::formats
