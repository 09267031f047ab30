// The sluice layout as a format: read through the block API like any other
// (one edge set, checked page by page), and written from any BlockGraph.
// The layout itself (manifest, index, drive files) is in layout/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/output_guard.hpp"
#include "formats/block_graph.hpp"
#include "base/atomic_file.hpp"
#include "layout/layout_replacement.hpp"
#include "layout/manifest.hpp"
#include "layout/ranked_layout.hpp"

namespace sluice::formats {

// Serves one edge set of a layout through the block API.
// Of a ranked layout, `rank`'s part (layout/ranked_layout.hpp).
std::unique_ptr<GraphSource> open_sluice_layout(const std::string& manifest_path, bool transpose = false,
                                                std::optional<layout::RankChoice> rank = std::nullopt);

struct SluiceWriteOptions {
  std::vector<std::string> drive_dirs;  // one per drive; empty: one drive beside the manifest
  uint64_t page_bytes = 4096;
  bool progress = false;
  // Overwrite drive files that belong to another layout (by default that
  // is refused, naming the other layout).
  bool force = false;
  // A part of a ranked layout (formats/ranked_writer.hpp): recorded in its manifest.
  std::optional<layout::PartOf> part;
  // files_to_write: whether the graph has an id map (convert --relabel),
  // written as NAME.ids (write_sluice_layout asks the graph itself).
  bool with_ids = false;
  // Gap-coded edge pages (layout/compressed_pages.hpp), weights beside the
  // gaps, each list sorted. With 32-bit ids they hold at most 2^31
  // vertices: a larger graph gets plain pages, or with `compress_required`
  // is refused.
  bool compress = false;
  bool compress_required = false;
  // Each vertex's first targets in a side file per edge set (layout/
  // sampled_targets.hpp), for Afforest's sampling; 0: none. Unweighted
  // graphs only (a weighted one gets none).
  uint32_t sample_edges = 2;
};

// Where a layout's id map goes: NAME.ids beside the manifest.
std::string id_map_path(const std::string& manifest_path);
// Writes `ids` to the layout's id map (added to `outputs`, to commit with
// the rest) and names it in `manifest`.
void manifest_ids(layout::Manifest& manifest, const std::string& manifest_path, const base::IdMap& ids,
                  std::vector<base::AtomicFile>& outputs);

// The files write_sluice_layout writes, manifest first.
std::vector<base::NamedFile> sluice_layout_files_to_write(const std::string& manifest_path, bool transpose,
                                                          const SluiceWriteOptions& options);

// Throws, before anything is written, unless every file of the layout at
// `manifest_path` may be replaced (layout/layout_replacement.hpp).
void check_replaceable(const layout::LayoutReplacement& replacement, const std::string& manifest_path, bool transpose,
                       const SluiceWriteOptions& options);
// Removes the temporaries that dead writers left of any name the layout
// at `manifest_path` could have had (its transpose, other drive counts,
// its parts), beside the manifest and in the drive directories.
void sweep_dead_temporaries(const std::string& manifest_path, const std::vector<std::string>& drive_dirs);

// A layout written and synced under temporary names, not yet in place:
// destroyed unpublished, it leaves nothing behind.
struct StagedLayout {
  std::vector<base::AtomicFile> files;  // the manifest last
  layout::LayoutReplacement replacement;
  std::vector<base::NamedFile> written;  // every file it puts in place
};
StagedLayout stage_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                                 const SluiceWriteOptions& options);
// Renames the staged files into place, the manifest last, then removes
// what the old layout at that path had and the new one does not.
void publish_sluice_layout(StagedLayout& staged);

// Writes `graph` (and `transpose`, if given) as a sluice layout. Nothing is
// visible at the final names until everything has been written and synced.
void write_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                         const SluiceWriteOptions& options);

}  // namespace sluice::formats
