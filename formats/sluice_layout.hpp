// sluice's on-disk graph: a versioned text manifest (NAME.sluice), a compact
// index file per edge set, and the edge records interleaved over N drive
// files. The "out" edge set is the graph; the optional "in" set is its
// transpose. Every drive file's stripe groups carry an XXH64 checksum in the
// manifest, checked by verify(); the index checksum is checked on open.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"
#include "formats/compact_index.hpp"
#include "formats/interleaved_edges.hpp"

namespace sluice {

inline constexpr unsigned sluice_layout_version = 1;

struct EdgeSetFiles {
  std::string index;
  uint64_t index_checksum = 0;
  std::vector<std::string> drives;  // as written in the manifest (relative to it or absolute)
  uint64_t checksum_pages = 0;
  std::vector<uint64_t> checksums;
};

struct Manifest {
  unsigned version = sluice_layout_version;
  GraphInfo info;
  uint64_t page_bytes = 4096;
  EdgeSetFiles out;
  std::optional<EdgeSetFiles> in;

  static Manifest read(const std::string& path);
  std::string text() const;
};

// One opened edge set: index in memory, drive files open.
class EdgeSet {
 public:
  EdgeSet(const std::string& manifest_dir, const EdgeSetFiles& files, const GraphInfo& info, uint64_t page_bytes);
  const CompactIndex& index() const { return index_; }
  const InterleavedEdgeReader& edges() const { return edges_; }
  // Recomputes every stripe group's checksum; throws InputError naming the
  // drive files and byte range of the first mismatch.
  void verify(const EdgeSetFiles& files) const;

 private:
  CompactIndex index_;
  InterleavedEdgeReader edges_;
};

class SluiceLayout {
 public:
  explicit SluiceLayout(const std::string& manifest_path);
  const std::string& path() const { return path_; }
  const Manifest& manifest() const { return manifest_; }
  const GraphInfo& info() const { return manifest_.info; }
  const EdgeSet& out() const { return *out_; }
  const EdgeSet* in() const { return in_ ? &*in_ : nullptr; }
  void verify() const;

 private:
  std::string path_;
  Manifest manifest_;
  std::optional<EdgeSet> out_;
  std::optional<EdgeSet> in_;
};

// Serves one edge set of a layout through the block API.
std::unique_ptr<GraphSource> open_sluice_layout(const std::string& manifest_path, bool transpose = false);

struct SluiceWriteOptions {
  std::vector<std::string> drive_dirs;  // one per drive; empty: one drive beside the manifest
  uint64_t page_bytes = 4096;
  uint64_t checksum_pages = 16384;      // 64 MiB stripe groups with 4 KiB pages
  bool progress = false;
};

// Writes `graph` (and `transpose`, if given) as a sluice layout. Nothing is
// visible at the final names until everything has been written and synced.
void write_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                         const SluiceWriteOptions& options);

}  // namespace sluice
