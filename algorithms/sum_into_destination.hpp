// The EDGEMAP functions of PageRank's push, SpMV and BC's backward pass,
// and the pattern to copy for any "sum over in-edges": every edge
// src -> dst adds value(src, w) into sum[dst]. Sums combine, so a pull
// adds one destination's values in a register and gathers once per page;
// gather adds without an atomic (binning gives a destination one thread
// at a time); gather_atomic is the atomic variant's.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "algorithms/relaxed.hpp"

namespace sluice::algorithms {

// Every destination takes sums (the engine then skips finding them).
struct EveryDestination {
  bool operator()(uint64_t) const { return true; }
};

// value(src, w) = of[src]: a per-source share (PageRank), stored as Share.
template <class Share = double>
struct SourceValue {
  const Share* of;
  double operator()(uint64_t src, float) const { return double(of[src]); }
  void prefetch(uint64_t src) const { __builtin_prefetch(of + src); }
};

// value(src, w) = w * of[src]: the weight times a per-source value (SpMV).
struct WeightedSourceValue {
  const double* of;
  double operator()(uint64_t src, float w) const { return double(w) * of[src]; }
  void prefetch(uint64_t src) const { __builtin_prefetch(of + src); }
};

template <class Value, class Wanted = EveryDestination>
  requires std::invocable<const Value&, uint64_t, float> && std::predicate<const Wanted&, uint64_t>
struct SumIntoDestination {
  Value value;     // double(src, w): what the edge adds
  double* sum;     // one per vertex
  Wanted wanted{};  // which destinations take sums

  static constexpr bool cond_always_true = std::is_same_v<Wanted, EveryDestination>;
  bool cond(uint64_t dst) const { return wanted(dst); }
  static double combine(double a, double b) { return a + b; }
  void prefetch(uint64_t src) const {
    if constexpr (requires { value.prefetch(src); }) value.prefetch(src);
  }
  bool scatter(uint64_t src, uint64_t, float w, double& out) const {
    out = value(src, w);
    return true;
  }
  bool gather(uint64_t dst, const double& add) {
    sum[dst] += add;
    return false;
  }
  bool gather_atomic(uint64_t dst, const double& add) {
    atomic_add(sum[dst], add);
    return false;
  }
};

}  // namespace sluice::algorithms
