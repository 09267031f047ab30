#include "algorithms/wcc.hpp"

#include <stdexcept>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

struct MinLabel {
  uint64_t* label;

  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) const {
    out = relaxed_load(label[src]);
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& value) {
    if (value >= label[dst]) return false;
    relaxed_store(label[dst], value);
    return true;
  }
  bool gather_atomic(uint64_t dst, const uint64_t& value) {
    uint64_t current = relaxed_load(label[dst]);
    while (value < current) {
      if (std::atomic_ref<uint64_t>(label[dst]).compare_exchange_weak(current, value, std::memory_order_relaxed)) return true;
    }
    return false;
  }
};

}  // namespace

ComponentsResult wcc(engine::Engine& out, engine::Engine* in, RunTrace& trace) {
  const uint64_t n = out.graph().vertices();
  if (in && in->graph().vertices() != n) throw std::invalid_argument("the transpose has another vertex count");
  ComponentsResult result;
  result.label.resize(n);
  for (uint64_t v = 0; v < n; ++v) result.label[v] = v;
  uint64_t* label = result.label.data();
  engine::VertexSubset frontier = engine::VertexSubset::all(n);
  while (!frontier.empty()) {
    MinLabel f{label};
    engine::VertexSubset changed = out.edge_map<uint64_t>(frontier, f);
    trace.record(out, "out-edges", result.rounds);
    if (in) {
      engine::VertexSubset changed_in = in->edge_map<uint64_t>(frontier, f);
      trace.record(*in, "in-edges", result.rounds);
      changed = engine::VertexSubset::unite(changed, changed_in);
    }
    // Shortcut: a label is a vertex of the same component whose own label
    // is no larger, so following labels only lowers them. Concurrent jumps
    // read labels that other threads lower, which is still a valid label.
    out.vertex_map(changed, [&](uint64_t v) {
      uint64_t l = relaxed_load(label[v]);
      for (uint64_t next = relaxed_load(label[l]); next < l; next = relaxed_load(label[l])) l = next;
      relaxed_store(label[v], l);
      return false;
    });
    frontier = std::move(changed);
    ++result.rounds;
  }
  summarize_components(result);
  return result;
}

void summarize_components(ComponentsResult& result) {
  std::vector<uint64_t> size(result.label.size(), 0);
  for (uint64_t l : result.label) ++size[l];
  result.components = 0;
  result.largest = 0;
  for (uint64_t v = 0; v < size.size(); ++v) {
    if (result.label[v] == v) ++result.components;
    result.largest = std::max(result.largest, size[v]);
  }
}

}  // namespace sluice::algorithms
