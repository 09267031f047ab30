// `--io memory` for an algorithm that reads the sample files (WCC's
// Afforest, through edge_map_first): an edge set's sample file read once
// into DRAM when the engine opens, each piece checked then (its checksum,
// its targets), and walked in place: no read, no check, inside a kernel.
#pragma once

#include <cstdint>

#include "base/array.hpp"
#include "engine/worker_pool.hpp"
#include "layout/sampled_targets.hpp"

namespace sluice::engine {

class ResidentSample {
 public:
  // Reads and checks every piece of `file` on the pool's threads; throws
  // the InputError of the first damaged piece.
  ResidentSample(const layout::SampleFile& file, WorkerPool& pool);

  // The body bytes of piece `piece`, as SampleFile::read_piece gives them.
  const uint8_t* piece(uint64_t piece) const { return body_.data() + piece * piece_stride_; }
  uint64_t bytes() const { return body_.size(); }
  double load_seconds() const { return load_seconds_; }

 private:
  base::Array<uint8_t> body_;
  uint64_t piece_stride_;
  double load_seconds_ = 0;
};

}  // namespace sluice::engine
