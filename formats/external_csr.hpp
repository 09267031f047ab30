// CSR building in bounded memory (sluice convert under --memory-limit):
// the edges are passed over a few times, never held. One pass counts
// each vertex's records (O(V) memory); the vertices are cut into ranges
// whose records fit the budget; a second pass appends every record to
// its range's scratch file, in input order; then each range is placed by
// a stable counting sort (sorted and deduplicated if asked, as in
// csr_builder.hpp). The result is the CSR build_csr gives, edge for edge.
// Ranges are placed when first needed: handed straight to a writer that
// passes over the graph once in vertex order (GraphSource::stream_once),
// or else appended to the CSR's scratch files and served from them.
// With BuildOptions::transpose_alongside, the transpose's records are
// counted in the first pass and spilled as the placed ranges go by (in
// vertex order: each in-list in source order, as transpose_of builds it
// in memory); GraphSource::built_transpose serves them, placed alike.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/id_map.hpp"
#include "formats/csr.hpp"
#include "formats/graph_source.hpp"

namespace sluice::formats {

// Some edges in input order, with 64-bit ids.
struct EdgeChunk {
  const uint64_t* sources = nullptr;
  const uint64_t* targets = nullptr;
  const float* weights = nullptr;  // null when unweighted
  uint64_t size = 0;
};
using EdgeConsumer = std::function<void(const EdgeChunk&)>;

// A graph's edges as passes: each call feeds every edge, in input order,
// to `consume`, chunk by chunk.
struct EdgePasses {
  std::function<void(const EdgeConsumer& consume)> pass;
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  unsigned id_bytes = 4;   // the width of the built graph's ids
  bool keep_wide = false;  // --id-bytes 8: relabelled 64-bit ids stay 64-bit
  bool symmetric = false;  // the edges are already symmetric (see GraphInfo)
  base::IdMap ids;         // the input's ids, when the edges were relabelled before
  std::string format;
};

// The edges of `source` in CSR order as passes (it must outlive them).
EdgePasses passes_of(const GraphSource& source, uint64_t chunk_edges);

// Of those, the edges whose targets are in [first, last): a part of a
// ranked layout (formats/ranked_writer.hpp).
EdgePasses passes_into(const GraphSource& source, uint64_t first, uint64_t last, uint64_t chunk_edges);

// The budget's share for a window of input bytes and for a chunk of a pass.
uint64_t window_bytes(const BuildMemory& memory);
uint64_t chunk_edges(const BuildMemory& memory);
// The edges of a block handed to a writer: the block API's buffers (4
// blocks of ~16 bytes an edge in flight, for each of the up to 5 graphs a
// ranked conversion holds open) take at most a sixteenth of the limit.
uint64_t block_edges(const BuildMemory& memory);

// Builds with `build` (relabel and reorder included) within
// build.memory.limit bytes, scratch files under build.memory.temp_dir.
std::unique_ptr<GraphSource> build_external_csr(EdgePasses edges, const BuildOptions& build);

// The bytes build_external_csr holds beyond what it is given to spend on
// records: the per-vertex arrays (offsets, counts, maps) of `vertices`.
uint64_t external_build_floor(uint64_t vertices, const BuildOptions& build);

}  // namespace sluice::formats
