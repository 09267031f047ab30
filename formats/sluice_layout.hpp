// sluice's on-disk graph: a versioned text manifest (NAME.sluice), a compact
// index file per edge set, and the edge records interleaved over N drive
// files. The "out" edge set is the graph; the optional "in" set is its
// transpose. The manifest names a random layout id; every drive file
// starts with a header page naming the layout, its edge set and drive
// (checked on open), and every page has a checksum in the index file
// (checked on every read through the block API and by the engine, and by
// verify() for all pages). The index's own checksum is in the manifest.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"
#include "formats/compact_index.hpp"
#include "formats/interleaved_edges.hpp"
#include "formats/output_guard.hpp"

namespace sluice {

inline constexpr unsigned sluice_layout_version = 2;

struct EdgeSetFiles {
  std::string index;
  uint64_t index_checksum = 0;
  std::vector<std::string> drives;  // as written in the manifest (relative to it or absolute)
};

// Which file a manifest was read from, and as of when (to tell a layout
// replaced while it was being opened from a damaged one).
struct FileIdentity {
  uint64_t device = 0, inode = 0, modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

struct Manifest {
  unsigned version = sluice_layout_version;
  FileIdentity read_from;  // not part of the text
  std::string layout_id;  // 32 hex digits, also in every drive header
  GraphInfo info;
  uint64_t page_bytes = 4096;
  EdgeSetFiles out;
  std::optional<EdgeSetFiles> in;

  static Manifest read(const std::string& path);
  std::string text() const;
  // Every file of the layout whose manifest is at `manifest_path`: the
  // manifest, each edge set's index and drive files (paths resolved).
  std::vector<NamedFile> files(const std::string& manifest_path) const;
};

// The files of the layout at `manifest_path`, or just the manifest when it
// cannot be read as one (for guarding outputs: the read reports the error).
std::vector<NamedFile> sluice_layout_files(const std::string& manifest_path);

// One opened edge set: index and page checksums in memory, drive files
// open and their headers checked.
class EdgeSet {
 public:
  EdgeSet(const std::string& manifest_path, const Manifest& manifest, const std::string& name, const EdgeSetFiles& files);
  const CompactIndex& index() const { return index_; }
  const InterleavedEdgeReader& edges() const { return edges_; }
  PageChecksums checksums() const { return {seed_, sums_.data()}; }
  // Reads every page and checks its checksum; throws InputError naming the
  // drive file and byte of the first damaged page.
  void verify() const;
  uint64_t memory_bytes() const { return index_.memory_bytes() + sums_.size() * 8; }

 private:
  CompactIndex index_;
  Array<uint64_t> sums_;
  uint64_t seed_ = 0;
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
  bool progress = false;
  // Overwrite drive files that belong to another layout (by default that
  // is refused, naming the other layout).
  bool force = false;
};

// The files write_sluice_layout writes, manifest first.
std::vector<NamedFile> sluice_layout_files_to_write(const std::string& manifest_path, bool transpose,
                                                    const SluiceWriteOptions& options);

// Writes `graph` (and `transpose`, if given) as a sluice layout. Nothing is
// visible at the final names until everything has been written and synced.
void write_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                         const SluiceWriteOptions& options);

}  // namespace sluice
