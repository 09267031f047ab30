#include "formats/spilled_edges.hpp"

#include <algorithm>
#include <vector>

namespace sluice::formats {

SpilledEdges::SpilledEdges(const std::string& temp_dir, uint64_t buffer_bytes)
    : dir_(temp_dir), buffer_bytes_(std::max<uint64_t>(buffer_bytes, 1 << 16)), pairs_(temp_dir, "the parsed edges") {}

void SpilledEdges::append(const EdgeList<uint64_t>& window) {
  const uint64_t count = window.size();
  // Interleaved through a bounded buffer: the window's arrays are freed by the caller.
  std::vector<uint64_t> pairs(std::min<uint64_t>(count, buffer_bytes_ / 16) * 2);
  const uint64_t step = pairs.size() / 2;
  for (uint64_t first = 0; first < count; first += step) {
    const uint64_t n = std::min(step, count - first);
    for (uint64_t e = 0; e < n; ++e) pairs[2 * e] = window.sources[first + e], pairs[2 * e + 1] = window.targets[first + e];
    append_pairs(pairs.data(), window.weighted ? window.weights.data() + first : nullptr, n);
  }
}

void SpilledEdges::append_pairs(const uint64_t* pairs, const float* weights, uint64_t count) {
  if (count == 0) return;
  if (weights && !weights_) weights_.emplace(dir_, "the parsed weights");
  for (uint64_t i = 0; i < 2 * count; ++i) largest_ = std::max(largest_, pairs[i]);
  pairs_.append(pairs, count * 16);
  if (weights) weights_->append(weights, count * sizeof(float));
  edges_ += count;
}

EdgePasses SpilledEdges::passes(uint64_t chunk_edges) const {
  EdgePasses passes;
  passes.edges = edges_;
  passes.weighted = weights_.has_value();
  chunk_edges = std::max<uint64_t>(chunk_edges, 1);
  passes.pass = [this, chunk_edges](const EdgeConsumer& consume) {
    std::vector<uint64_t> pairs, sources, targets;
    std::vector<float> weights;
    for (uint64_t first = 0; first < edges_; first += chunk_edges) {
      const uint64_t n = std::min(chunk_edges, edges_ - first);
      pairs.resize(2 * n);
      pairs_.read(pairs.data(), n * 16, first * 16);
      sources.resize(n);
      targets.resize(n);
      for (uint64_t e = 0; e < n; ++e) sources[e] = pairs[2 * e], targets[e] = pairs[2 * e + 1];
      if (weights_) {
        weights.resize(n);
        weights_->read(weights.data(), n * sizeof(float), first * sizeof(float));
      }
      consume(EdgeChunk{sources.data(), targets.data(), weights_ ? weights.data() : nullptr, n});
    }
  };
  return passes;
}

}  // namespace sluice::formats
