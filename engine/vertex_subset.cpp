#include "engine/vertex_subset.hpp"

#include <iterator>
#include <stdexcept>
#include <string>

namespace sluice::engine {

VertexSubset VertexSubset::all(uint64_t vertices) {
  VertexSubset s(vertices);
  s.dense_.emplace(vertices);
  s.dense_->set_all();
  s.count_ = vertices;
  return s;
}

VertexSubset VertexSubset::from_ids(uint64_t vertices, std::vector<uint64_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return from_sorted_ids(vertices, std::move(ids));
}

VertexSubset VertexSubset::from_sorted_pieces(uint64_t vertices, std::vector<std::vector<uint64_t>> pieces) {
  if (pieces.empty()) return VertexSubset(vertices);
  std::vector<uint64_t> ids = std::move(pieces[0]);
  for (size_t t = 1; t < pieces.size(); ++t) ids.insert(ids.end(), pieces[t].begin(), pieces[t].end());
  return from_sorted_ids(vertices, std::move(ids));
}

VertexSubset VertexSubset::from_sorted_ids(uint64_t vertices, std::vector<uint64_t> ids) {
  if (!ids.empty() && ids.back() >= vertices) {
    throw std::out_of_range("vertex " + std::to_string(ids.back()) + " is not below " + std::to_string(vertices));
  }
  VertexSubset s(vertices);
  s.count_ = ids.size();
  s.sparse_ = std::move(ids);
  s.normalize();
  return s;
}

VertexSubset VertexSubset::from_bitmap(IndexedBitmap bitmap, uint64_t count) {
  VertexSubset s(bitmap.size());
  s.count_ = count;
  s.dense_.emplace(std::move(bitmap));
  s.normalize();
  return s;
}

VertexSubset VertexSubset::unite(const VertexSubset& a, const VertexSubset& b) {
  if (a.vertices_ != b.vertices_) throw std::invalid_argument("uniting frontiers of different graphs");
  VertexSubset s(a.vertices_);
  if (!a.dense_ && !b.dense_) {
    std::set_union(a.sparse_.begin(), a.sparse_.end(), b.sparse_.begin(), b.sparse_.end(), std::back_inserter(s.sparse_));
    s.count_ = s.sparse_.size();
  } else {
    s.dense_.emplace(a.vertices_);
    a.for_each([&](uint64_t v) { s.dense_->set(v); });
    b.for_each([&](uint64_t v) { s.dense_->set(v); });
    s.count_ = s.dense_->count();
  }
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
