// What one algorithm run did, EDGEMAP by EDGEMAP: the totals a program
// prints in its summary line and, when asked for, one JSON line per
// EDGEMAP (the --stats file) tagged with the algorithm, phase and iteration.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "engine/engine.hpp"

namespace sluice::algorithms {

class RunTrace {
 public:
  RunTrace(std::string algorithm, std::ostream* stats = nullptr) : algorithm_(std::move(algorithm)), stats_(stats) {}

  // Adds the engine's last EDGEMAP.
  void record(const engine::Engine& engine, const char* phase, uint64_t iteration);

  uint64_t edge_maps() const { return edge_maps_; }
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  std::string algorithm_;
  std::ostream* stats_;
  uint64_t edge_maps_ = 0, bytes_read_ = 0;
};

}  // namespace sluice::algorithms
