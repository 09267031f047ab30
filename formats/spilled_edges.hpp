// Edges kept on scratch files: an edge list parsed window by window
// (conversion in bounded memory), or the edges a rank receives in a
// conversion by the ranks. 16 bytes an edge (two 64-bit ids), 4 more with
// weights, read back as the passes of build_external_csr.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/temp_file.hpp"
#include "formats/csr.hpp"
#include "formats/external_csr.hpp"

namespace sluice::formats {

class SpilledEdges {
 public:
  SpilledEdges(const std::string& temp_dir, uint64_t buffer_bytes);
  void append(const EdgeList<uint64_t>& window);
  // `count` edges as (source, target) pairs, and their weights (or null).
  void append_pairs(const uint64_t* pairs, const float* weights, uint64_t count);
  uint64_t edges() const { return edges_; }
  uint64_t largest_id() const { return largest_; }

  // Passes over the edges (this must outlive them), `chunk_edges` at a time.
  EdgePasses passes(uint64_t chunk_edges) const;

 private:
  std::string dir_;
  uint64_t buffer_bytes_;
  base::TempFile pairs_;
  std::optional<base::TempFile> weights_;
  uint64_t edges_ = 0, largest_ = 0;
};

}  // namespace sluice::formats
