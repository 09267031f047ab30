// A layout's manifest (NAME.sluice): a versioned "key value" text naming
// the layout id, the graph's sizes and flags, and each edge set's index
// (with its checksum) and drive files, relative to the manifest or
// absolute.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "base/graph_info.hpp"
#include "base/output_guard.hpp"

namespace sluice::layout {

inline constexpr unsigned sluice_layout_version = 2;
// The most targets per vertex a sample file may hold (convert --sample-edges).
inline constexpr uint32_t max_sample_edges = 64;

// The least and the largest edge weight of a weighted layout, recorded
// when it is written (SSSP's bucket width follows the largest); an empty
// edge set's is empty (least > most).
struct WeightRange {
  float least = std::numeric_limits<float>::infinity();
  float most = -std::numeric_limits<float>::infinity();
  bool empty() const { return !(least <= most); }
  void add(const float* weights, uint64_t count);
  void add(const WeightRange& other);
};

struct EdgeSetFiles {
  std::string index;
  uint64_t index_checksum = 0;
  std::vector<std::string> drives;  // as written in the manifest (relative to it or absolute)
  uint64_t pages = 0;  // of compressed pages (recorded: it does not follow from the edge count)
  // Each vertex's first targets (layout/sampled_targets.hpp), as written;
  // "" when the layout has no sample.
  std::string sample;
  uint64_t sample_checksum = 0;
};

// Which file a manifest was read from, and as of when (to tell a layout
// replaced while it was being opened from a damaged one).
struct FileIdentity {
  uint64_t device = 0, inode = 0, modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
  // The file at `path` now; all zero when there is none.
  static FileIdentity of(const std::string& path);
};

// A ranked layout (`sluice convert --ranks R`) is a top manifest listing R
// parts, one per MPI rank. Part r is a whole layout of its own, over every
// vertex id, holding the edges whose destination lies in r's range.
struct RankPart {
  std::string manifest;  // as written in the top manifest
  std::string transpose;  // the transpose graph's part over the same range ("" when converted without --transpose)
  uint64_t begin = 0, end = 0;  // the destinations the part's rank owns
};
// What a part's manifest says of the layout it belongs to.
struct PartOf {
  unsigned rank = 0, ranks = 1;
  uint64_t begin = 0, end = 0;
  std::string whole;         // the top manifest, as written (relative to the part's)
  std::string whole_layout;  // its layout id
  bool transpose_graph = false;  // a part of the transpose graph (the edges out of the range, reversed)
};

struct Manifest {
  unsigned version = sluice_layout_version;
  FileIdentity read_from;  // not part of the text
  std::string layout_id;  // 32 hex digits, also in every drive header
  base::GraphInfo info;
  uint64_t page_bytes = 4096;
  // Edge pages gap-coded (layout/compressed_pages.hpp) rather than fixed records.
  bool compressed = false;
  // Targets per vertex in each edge set's sample file (0: no sample).
  uint32_t sample_edges = 0;
  EdgeSetFiles out;
  std::optional<EdgeSetFiles> in;
  std::vector<RankPart> parts;  // a top manifest: one per rank (it has no edge sets of its own)
  std::optional<PartOf> part;   // a part's manifest: whose part it is
  // A weighted layout's weights, where it was written by a sluice that
  // records them; a part's: its own edges'.
  std::optional<WeightRange> weights;
  double alpha = 0;             // a top manifest: the vertex weight its ranges balance (see formats/ranked_writer.hpp)
  // A relabelled graph's id map (layout/id_map_file.hpp), as written; ""
  // when the ids are the input's. A ranked layout's is in its top manifest.
  std::string ids;
  uint64_t ids_checksum = 0;

  bool is_ranked() const { return !parts.empty(); }

  static Manifest read(const std::string& path);
  std::string text() const;
  // Every file of the layout whose manifest is at `manifest_path`: the
  // manifest, each edge set's index and drive files (paths resolved); of a
  // ranked layout, every part's, or with `rank` that part's alone (what
  // the machine running that rank needs).
  std::vector<base::NamedFile> files(const std::string& manifest_path, std::optional<unsigned> rank = std::nullopt) const;
};

// A path as written in the manifest at `manifest_path`, resolved.
std::string path_in_layout(const std::string& manifest_path, const std::string& path);

// The files of the layout at `manifest_path`, or just the manifest when it
// cannot be read as one (for guarding outputs: the read reports the error).
std::vector<base::NamedFile> sluice_layout_files(const std::string& manifest_path);

}  // namespace sluice::layout
