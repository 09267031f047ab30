#include "algorithms/run_trace.hpp"

namespace sluice::algorithms {

void RunTrace::record(const engine::Engine& engine, const char* phase, uint64_t iteration) {
  const engine::EdgeMapStats& s = engine.last_stats();
  ++edge_maps_;
  bytes_read_ += s.bytes_read;
  if (stats_) {
    std::string json = s.json();  // "{...}": prefix our fields
    *stats_ << "{\"algorithm\":\"" << algorithm_ << "\",\"phase\":\"" << phase << "\",\"iteration\":" << iteration << ","
            << json.substr(1) << "\n";
  }
}

}  // namespace sluice::algorithms
