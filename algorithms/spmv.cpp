#include "algorithms/spmv.hpp"

#include <stdexcept>

#include "algorithms/sum_into_destination.hpp"

namespace sluice::algorithms {

base::Array<double> spmv(engine::Engine& engine, const std::vector<double>& x, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  if (x.size() != n) throw std::invalid_argument("x has " + std::to_string(x.size()) + " entries for " + std::to_string(n) + " vertices");
  base::Array<double> y = engine.filled_owned_array(n, 0.0, "SpMV's y");
  SumIntoDestination<WeightedSourceValue> push{{x.data()}, y.data()};
  engine.edge_map<double>(engine::VertexSubset::all(n), push, false);
  trace.record(engine, "product", 0);
  return y;
}

}  // namespace sluice::algorithms
