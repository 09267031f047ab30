// sluice's on-disk graph, opened: the manifest (layout/manifest.hpp), an
// index file per edge set (layout/index_file.hpp), and the edge records
// interleaved over N drive files (layout/interleaved_edges.hpp). The "out"
// edge set is the graph; the optional "in" set is its transpose. Every
// drive file starts with a header page naming the layout, its edge set and
// drive (checked on open), and every page has a checksum in the index file
// (checked on every read, and by verify() for all pages).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/array.hpp"
#include "base/graph_info.hpp"
#include "base/id_map.hpp"
#include "layout/compact_index.hpp"
#include "layout/drive_header.hpp"
#include "layout/interleaved_edges.hpp"
#include "layout/manifest.hpp"
#include "layout/ranked_layout.hpp"
#include "layout/sampled_targets.hpp"

namespace sluice::layout {

// The header every drive file of one edge set carries (the drive index and
// page count are filled in per drive by the reader and writer).
DriveHeader drive_identity(const Manifest& manifest, const std::string& manifest_path, const std::string& set);

// One opened edge set: index and page checksums in memory, drive files
// open and their headers checked.
class EdgeSet {
 public:
  EdgeSet(const std::string& manifest_path, const Manifest& manifest, const std::string& name, const EdgeSetFiles& files);
  const CompactIndex& index() const { return index_; }
  const InterleavedEdgeReader& edges() const { return edges_; }
  PageChecksums checksums() const { return {seed_, sums_.data()}; }
  // Reads edges [first, first + count), decoding compressed pages
  // (thread-safe; the targets are checked against the vertex count).
  void read_edges(uint64_t first, uint64_t count, void* targets, float* weights) const;
  // Reads every page and checks its checksum (and that a compressed page
  // decodes); throws InputError naming the drive file and byte of the
  // first damaged page.
  void verify() const;
  uint64_t memory_bytes() const { return index_.memory_bytes() + sums_.size() * 8 + page_starts_.size() * 8; }

  // Compressed pages (layout/compressed_pages.hpp): each page's first edge.
  bool compressed() const { return compressed_; }
  const base::Array<uint64_t>& page_starts() const { return page_starts_; }
  uint64_t page_end(uint64_t page) const { return page + 1 < page_starts_.size() ? page_starts_[page + 1] : index_.edges(); }
  // Decodes compressed page `page` (its bytes at `data`) into `out` (room
  // for compressed_page_capacity ids, of the layout's width) and, in a
  // weighted layout, its weights into `weights` (as much room), and
  // returns its edge count; a page that disagrees with the index, or a
  // target that is not a vertex, is an InputError naming the drive file
  // and byte.
  uint64_t decode_page(uint64_t page, const char* data, void* out, float* weights) const;
  // The same for a weighted set, its targets into `targets` (as `out`
  // above) and then each with its weight into `records`, the walks'
  // records, with no pass of their own to pair them: the target, the
  // weight, and with 64-bit ids 4 bytes of padding (8 or 16 bytes).
  uint64_t decode_page_records(uint64_t page, const char* data, void* targets, char* records) const;
  // The most edges a compressed page of this set holds.
  uint64_t page_capacity() const;
  bool weighted() const { return weighted_; }

  // Targets per vertex in the edge set's sample file (layout/
  // sampled_targets.hpp); 0 when it has none.
  uint32_t sample_edges() const { return sample_ ? sample_->shape().per_vertex : 0; }
  // The sample file, opened with the layout (its header and table
  // checked); null when the edge set has none.
  const SampleFile* sample() const { return sample_ ? &*sample_ : nullptr; }

 private:
  // Runs decode(page_bytes) on a page that agrees with the index; throws
  // where it does not, or where decode says malformed (UINT64_MAX) or
  // returns a target that is no vertex.
  template <class Decode>
  uint64_t checked_decode(uint64_t page, const char* data, Decode&& decode) const;

  CompactIndex index_;
  base::Array<uint64_t> sums_;
  base::Array<uint64_t> page_starts_;
  bool compressed_ = false;
  bool weighted_ = false;
  bool wide_ = false;  // 64-bit ids
  std::optional<SampleFile> sample_;
  uint64_t seed_ = 0;
  InterleavedEdgeReader edges_;
};

class SluiceLayout {
 public:
  // The layout at manifest_path; of a ranked layout, `rank`'s part (see
  // layout/ranked_layout.hpp for what is refused).
  explicit SluiceLayout(const std::string& manifest_path, std::optional<RankChoice> rank = std::nullopt);
  // The manifest opened: the part's, for a ranked layout.
  const std::string& path() const { return path_; }
  // The path the layout was opened by: the top manifest, for a ranked one.
  const std::string& whole_path() const { return whole_path_; }
  // The destinations this process owns: its part's range, else every vertex.
  uint64_t owned_begin() const { return manifest_.part ? manifest_.part->begin : 0; }
  uint64_t owned_end() const { return manifest_.part ? manifest_.part->end : manifest_.info.vertices; }
  const Manifest& manifest() const { return manifest_; }
  const base::GraphInfo& info() const { return manifest_.info; }
  const EdgeSet& out() const { return *out_; }
  const EdgeSet* in() const { return in_ ? &*in_ : nullptr; }
  // The input's ids of a relabelled layout (empty: the ids are the input's).
  const base::IdMap& ids() const { return ids_; }
  void verify() const;

 private:
  std::string path_, whole_path_;
  Manifest manifest_;
  std::optional<EdgeSet> out_;
  std::optional<EdgeSet> in_;
  base::IdMap ids_;
};

}  // namespace sluice::layout
