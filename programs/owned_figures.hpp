// The figures a summary line gives of a result (sums, extremes, counts,
// the top vertex), each taken over the vertices this rank owns and then
// folded over the ranks in rank order: no rank gathers the result, and
// every rank gets the figures one process would print. One process owns
// every vertex. `values`: any array indexed by vertex.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "engine/rank_exchange.hpp"

namespace sluice::programs {

// The sum of f(values[v]) over the vertices.
template <class Values, class F = std::identity>
double owned_sum(engine::RankExchange& ranks, const Values& values, F f = {}) {
  double sum = 0;
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) sum += double(f(values[v]));
  return ranks.communicator().fold(sum, std::plus<>());
}

// How many vertices' values satisfy `keep`.
template <class Values, class Keep>
uint64_t owned_count(engine::RankExchange& ranks, const Values& values, Keep keep) {
  uint64_t count = 0;
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) count += keep(values[v]) ? 1 : 0;
  return ranks.communicator().fold(count, std::plus<>());
}

// The largest of `floor` and f(values[v]) over the vertices.
template <class R, class Values, class F = std::identity>
R owned_max(engine::RankExchange& ranks, const Values& values, R floor, F f = {}) {
  R largest = floor;
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) largest = std::max(largest, R(f(values[v])));
  return ranks.communicator().fold(largest, [](R a, R b) { return std::max(a, b); });
}

// The smallest of `ceiling` and f(values[v]) over the vertices.
template <class R, class Values, class F = std::identity>
R owned_min(engine::RankExchange& ranks, const Values& values, R ceiling, F f = {}) {
  R least = ceiling;
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) least = std::min(least, R(f(values[v])));
  return ranks.communicator().fold(least, [](R a, R b) { return std::min(a, b); });
}

// The vertex of the largest value above `floor`, the lowest such vertex
// on ties; {floor, 0} when no value is above it.
struct TopVertex {
  double value = 0;
  uint64_t vertex = 0;
};
template <class Values>
TopVertex owned_top(engine::RankExchange& ranks, const Values& values, double floor = 0) {
  TopVertex top{floor, 0};
  for (uint64_t v = ranks.owned_begin(); v < ranks.owned_end(); ++v) {
    if (double(values[v]) > top.value) top = {double(values[v]), v};
  }
  // Ranges ascend with the ranks: a later rank's equal value has a higher vertex.
  return ranks.communicator().fold(top, [](const TopVertex& a, const TopVertex& b) { return b.value > a.value ? b : a; });
}

}  // namespace sluice::programs
