#include "engine/vertex_subset.hpp"

#include <stdexcept>
#include <string>

namespace sluice::engine {

VertexSubset VertexSubset::all(uint64_t vertices) {
  VertexSubset s(vertices);
  s.dense_.emplace(vertices);
  for (uint64_t v = 0; v < vertices; ++v) s.dense_->set(v);
  s.count_ = vertices;
  return s;
}

VertexSubset VertexSubset::from_ids(uint64_t vertices, std::vector<uint64_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (!ids.empty() && ids.back() >= vertices) {
    throw std::out_of_range("vertex " + std::to_string(ids.back()) + " is not below " + std::to_string(vertices));
  }
  VertexSubset s(vertices);
  s.count_ = ids.size();
  s.sparse_ = std::move(ids);
  s.normalize();
  return s;
}

void VertexSubset::to_dense() {
  if (dense_) return;
  dense_.emplace(vertices_);
  for (uint64_t v : sparse_) dense_->set(v);
  sparse_.clear();
  sparse_.shrink_to_fit();
}

void VertexSubset::to_sparse() {
  if (!dense_) return;
  sparse_.clear();
  sparse_.reserve(count_);
  dense_->for_each([&](uint64_t v) { sparse_.push_back(v); });
  dense_.reset();
}

}  // namespace sluice::engine
