#include "algorithms/spmv.hpp"

#include <stdexcept>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

namespace {

struct WeightedPush {
  const double* x;
  double* y;

  static constexpr bool cond_always_true = true;
  bool cond(uint64_t) const { return true; }
  void prefetch(uint64_t src) const { __builtin_prefetch(x + src); }
  static double combine(double a, double b) { return a + b; }
  bool scatter(uint64_t src, uint64_t, float w, double& out) const {
    out = double(w) * x[src];
    return true;
  }
  bool gather(uint64_t dst, const double& value) {
    y[dst] += value;
    return false;
  }
  bool gather_atomic(uint64_t dst, const double& value) {
    atomic_add(y[dst], value);
    return false;
  }
};

}  // namespace

std::vector<double> spmv(engine::Engine& engine, const std::vector<double>& x, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (x.size() != n) throw std::invalid_argument("x has " + std::to_string(x.size()) + " entries for " + std::to_string(n) + " vertices");
  std::vector<double> y(n, 0.0);
  WeightedPush push{x.data(), y.data()};
  engine.edge_map<double>(engine::VertexSubset::all(n), push, false);
  trace.record(engine, "product", 0);
  return y;
}

}  // namespace sluice::algorithms
