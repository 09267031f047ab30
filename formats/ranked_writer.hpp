// A ranked layout (`sluice convert IN OUT.sluice --ranks R`): the graph
// split by destination for R MPI ranks, as Gemini and DFOGraph split it.
// Rank r owns a contiguous range of vertices and its part holds every edge
// whose destination is in that range, as a CSR by source (push: an active
// source scatters into the rank's own range, so no update crosses ranks)
// and, with the transpose, as a CSC by destination (pull). With the
// transpose, rank r also gets the transpose graph's part: the edges out of
// its range, reversed, again by source and by destination, for the
// programs that walk edges backwards (bc, spmv's A x). Each part is a
// whole layout (layout/), written onto its own drives: a drive directory
// may name `{rank}`, which becomes the part's rank. The top manifest,
// written last, lists the parts and their ranges.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/output_guard.hpp"
#include "formats/block_graph.hpp"
#include "formats/sluice_format.hpp"

namespace sluice::formats {

// The ranges balance alpha x vertices + edges (destinations' in-edges), as
// Gemini's chunking does. A rank's time per EDGEMAP is its edges' scatter
// and gather plus its vertices' passes (PageRank's update, the frontier's
// bits). Measured (experiments/README.md, "MPI ranks"): PageRank on one
// rank spends 3.4 ns per edge in its EDGEMAPs and 7.4 ns per vertex in its
// vertex passes, so a vertex weighs 2 edges. Gemini's alpha = 8 (p - 1)
// prices its own dense per-vertex messages, which sluice does not send.
inline constexpr double ranked_layout_alpha = 2;

// The most ranks a layout is split for: each part is a layout over every
// vertex id (its index alone about 4 bytes a vertex), written on one
// machine with every part held open until they are put in place together.
inline constexpr unsigned max_ranks = 1024;

struct RankedWriteOptions {
  unsigned ranks = 1;
  std::vector<std::string> drive_patterns;  // one per drive; "{rank}" becomes the rank
  bool transpose = false;                   // each part also stores its edges by destination
  SluiceWriteOptions layout;                // page size, progress, force (drive_dirs unused)
  int threads = 0;
  // Parts (and transposes) that would not fit memory.limit are built on
  // scratch files (formats/external_csr.hpp).
  BuildMemory memory;
};

// The first vertex of each rank's range and, last, the vertex count:
// ranks + 1 boundaries balancing alpha x vertices + in-edges.
std::vector<uint64_t> rank_boundaries(const std::vector<uint64_t>& in_degrees, unsigned ranks, double alpha);

// Part r's manifest beside the top one: NAME.part<r>.sluice, and
// NAME.part<r>.t.sluice for the transpose graph's part.
std::string part_manifest_path(const std::string& manifest_path, unsigned rank, bool transpose_graph = false);
// The drive directories of part r: each pattern with "{rank}" replaced.
std::vector<std::string> part_drive_dirs(const std::vector<std::string>& patterns, unsigned rank);

// Every file write_ranked_sluice_layout writes, the top manifest first.
std::vector<base::NamedFile> ranked_layout_files_to_write(const std::string& manifest_path, const RankedWriteOptions& options);

// The writing of a ranked layout's parts, by one process for every rank
// (write_ranked_sluice_layout) or by each rank of an MPI job for its own
// (programs/convert_on_ranks.hpp): parts are staged (written and synced
// under temporary names, held open and locked), then put in place, then
// the top manifest, last. Destroyed before that, it leaves nothing new.
// The caller holds the manifest directory's lock (base/directory_lock.hpp)
// from the first part put in place to the top manifest.
class RankedPartsWriter {
 public:
  // Before anything is written: refuses unless the parts of `ranks_here`
  // (and, when `writes_top`, the top manifest and, when `relabelled`, the
  // id map) may be replaced; removes dead writers' temporaries; makes the
  // drive directories "{rank}" patterns name.
  RankedPartsWriter(const std::string& manifest_path, const RankedWriteOptions& options, std::vector<unsigned> ranks_here,
                    bool writes_top, bool relabelled);
  ~RankedPartsWriter();
  RankedPartsWriter(const RankedPartsWriter&) = delete;
  RankedPartsWriter& operator=(const RankedPartsWriter&) = delete;

  // Stages part r: `part`, the edges into r's range (or, `transposed`,
  // the transpose graph's edges into it) by source over every vertex.
  void stage(BlockGraph& part, unsigned r, bool transposed, const std::vector<uint64_t>& bounds, const std::string& layout_id);
  // Puts the staged parts in place.
  void publish_parts();
  // Then the top manifest over `bounds` and, for a relabelled graph, the
  // id map beside it; the old layout's files that the new one does not
  // have are removed.
  void publish_top(const base::GraphInfo& info, const base::IdMap& ids, const std::vector<uint64_t>& bounds,
                   const std::string& layout_id);
  // Once the layout is whole: the old parts' files the new ones replaced
  // and do not have.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Writes every part aside, then puts them in place together with the top
// manifest, last; an error, SIGINT or SIGTERM leaves the layout that was
// there before usable and nothing new (a SIGKILL leaves temporaries, which
// the next conversion of the name removes). A file that would be replaced
// and is not the old layout's (a part's manifest it does not list, an
// index, a drive file) is refused before anything is written.
void write_ranked_sluice_layout(BlockGraph& graph, const std::string& manifest_path, const RankedWriteOptions& options);

}  // namespace sluice::formats
