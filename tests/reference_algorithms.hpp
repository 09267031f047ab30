// Deliberately simple in-memory versions of every algorithm, written from
// the textbook definitions and sharing nothing with algorithms/: a queue
// BFS, sequential union-find, power iteration, a dense loop for SpMV,
// Brandes's stack-and-queue betweenness, Dijkstra with a binary heap and
// k-core peeling one least-degree vertex at a time, triangles from every
// pair of a vertex's neighbours, a greedy independent set in priority
// order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <stack>
#include <vector>

#include "tests/test_support.hpp"

namespace sluice::test {

inline std::vector<std::vector<uint64_t>> adjacency_of(const RefGraph& g) {
  std::vector<std::vector<uint64_t>> adjacency(g.n);
  for (const Edge& e : g.edges) adjacency[e.u].push_back(e.v);
  return adjacency;
}

inline std::vector<int64_t> reference_bfs(const RefGraph& g, uint64_t source) {
  auto adjacency = adjacency_of(g);
  std::vector<int64_t> depth(g.n, -1);
  std::queue<uint64_t> queue;
  depth[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    uint64_t u = queue.front();
    queue.pop();
    for (uint64_t v : adjacency[u]) {
      if (depth[v] < 0) depth[v] = depth[u] + 1, queue.push(v);
    }
  }
  return depth;
}

// Component of each vertex, named by its smallest member.
inline std::vector<uint64_t> reference_components(const RefGraph& g) {
  std::vector<uint64_t> parent(g.n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const Edge& e : g.edges) {
    uint64_t a = find(e.u), b = find(e.v);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smaller id stays root
  }
  std::vector<uint64_t> label(g.n);
  for (uint64_t v = 0; v < g.n; ++v) label[v] = find(v);
  return label;
}

// Power iteration to a fixed point (or `iterations`), dangling rank dropped
// or spread evenly.
inline std::vector<double> reference_pagerank(const RefGraph& g, double damping, bool spread, int iterations = 500) {
  std::vector<uint64_t> degree(g.n, 0);
  for (const Edge& e : g.edges) ++degree[e.u];
  std::vector<double> rank(g.n, 1.0 / double(g.n)), next(g.n);
  for (int it = 0; it < iterations; ++it) {
    double dangling = 0;
    for (uint64_t v = 0; v < g.n; ++v) {
      if (degree[v] == 0) dangling += rank[v];
    }
    std::fill(next.begin(), next.end(), (1 - damping) / double(g.n) + (spread ? damping * dangling / double(g.n) : 0.0));
    for (const Edge& e : g.edges) next[e.v] += damping * rank[e.u] / double(degree[e.u]);
    double change = 0;
    for (uint64_t v = 0; v < g.n; ++v) change += std::fabs(next[v] - rank[v]);
    rank.swap(next);
    if (change < 1e-15) break;
  }
  return rank;
}

// y = A x (A[i][j] = weight of i -> j), or A^T x.
inline std::vector<double> reference_spmv(const RefGraph& g, const std::vector<double>& x, bool transposed) {
  std::vector<double> y(g.n, 0.0);
  for (const Edge& e : g.edges) {
    if (transposed) y[e.v] += double(e.w) * x[e.u];
    else y[e.u] += double(e.w) * x[e.v];
  }
  return y;
}

// Brandes (2001), unweighted, summed over `sources`.
inline std::vector<double> reference_bc(const RefGraph& g, const std::vector<uint64_t>& sources) {
  auto adjacency = adjacency_of(g);
  std::vector<double> score(g.n, 0.0);
  for (uint64_t s : sources) {
    std::vector<std::vector<uint64_t>> predecessors(g.n);
    std::vector<double> sigma(g.n, 0.0), delta(g.n, 0.0);
    std::vector<int64_t> distance(g.n, -1);
    std::stack<uint64_t> order;
    std::queue<uint64_t> queue;
    sigma[s] = 1;
    distance[s] = 0;
    queue.push(s);
    while (!queue.empty()) {
      uint64_t v = queue.front();
      queue.pop();
      order.push(v);
      for (uint64_t w : adjacency[v]) {
        if (distance[w] < 0) distance[w] = distance[v] + 1, queue.push(w);
        if (distance[w] == distance[v] + 1) sigma[w] += sigma[v], predecessors[w].push_back(v);
      }
    }
    while (!order.empty()) {
      uint64_t w = order.top();
      order.pop();
      for (uint64_t v : predecessors[w]) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (w != s) score[w] += delta[w];
    }
  }
  return score;
}

// Dijkstra over the stored edges (weights non-negative); infinity where
// not reached.
inline std::vector<double> reference_sssp(const RefGraph& g, uint64_t source) {
  std::vector<std::vector<std::pair<uint64_t, double>>> adjacency(g.n);
  for (const Edge& e : g.edges) adjacency[e.u].push_back({e.v, g.weighted ? double(e.w) : 1.0});
  std::vector<double> distance(g.n, INFINITY);
  using Entry = std::pair<double, uint64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  distance[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d > distance[u]) continue;
    for (auto [v, w] : adjacency[u]) {
      if (d + w < distance[v]) distance[v] = d + w, heap.push({distance[v], v});
    }
  }
  return distance;
}

// Bellman-Ford from a virtual source joined to every vertex by weight 0:
// each vertex's least distance from any vertex (Johnson's potentials), or
// nothing if a negative cycle keeps them falling after n passes.
inline std::optional<std::vector<double>> reference_potentials(const RefGraph& g) {
  std::vector<double> distance(g.n, 0.0);
  for (uint64_t pass = 0; pass <= g.n; ++pass) {
    bool fell = false;
    for (const Edge& e : g.edges) {
      const double through = distance[e.u] + (g.weighted ? double(e.w) : 1.0);
      if (through < distance[e.v]) distance[e.v] = through, fell = true;
    }
    if (!fell) return distance;
  }
  return std::nullopt;
}

// Coreness by peeling: repeatedly remove a vertex of least remaining
// degree (stored edges counted, a self loop once); its coreness is the
// largest least degree seen so far. g must hold every edge both ways.
inline std::vector<uint64_t> reference_kcore(const RefGraph& g) {
  auto adjacency = adjacency_of(g);
  std::vector<uint64_t> degree(g.n), core(g.n, 0);
  std::vector<bool> removed(g.n, false);
  for (uint64_t v = 0; v < g.n; ++v) degree[v] = adjacency[v].size();
  uint64_t k = 0;
  for (uint64_t step = 0; step < g.n; ++step) {
    uint64_t best = g.n;
    for (uint64_t v = 0; v < g.n; ++v) {
      if (!removed[v] && (best == g.n || degree[v] < degree[best])) best = v;
    }
    k = std::max(k, degree[best]);
    core[best] = k;
    removed[best] = true;
    for (uint64_t v : adjacency[best]) {
      if (!removed[v]) --degree[v];
    }
  }
  return core;
}

// Each vertex's triangles in the simple graph (no self loops, repeated
// edges once): every pair of its neighbours that are adjacent.
inline std::vector<uint64_t> reference_triangles(const RefGraph& g) {
  std::vector<std::set<uint64_t>> neighbours(g.n);
  for (const Edge& e : g.edges) {
    if (e.u != e.v) neighbours[e.u].insert(e.v), neighbours[e.v].insert(e.u);
  }
  std::vector<uint64_t> triangles(g.n, 0);
  for (uint64_t v = 0; v < g.n; ++v) {
    const std::vector<uint64_t> list(neighbours[v].begin(), neighbours[v].end());
    for (size_t i = 0; i < list.size(); ++i) {
      for (size_t j = i + 1; j < list.size(); ++j) triangles[v] += neighbours[list[i]].count(list[j]);
    }
  }
  return triangles;
}

// Each vertex's simple degree (distinct neighbours other than itself).
inline std::vector<uint64_t> reference_simple_degree(const RefGraph& g) {
  std::vector<std::set<uint64_t>> neighbours(g.n);
  for (const Edge& e : g.edges) {
    if (e.u != e.v) neighbours[e.u].insert(e.v), neighbours[e.v].insert(e.u);
  }
  std::vector<uint64_t> degree(g.n);
  for (uint64_t v = 0; v < g.n; ++v) degree[v] = neighbours[v].size();
  return degree;
}

// The independent set a sequential pass takes in the order of `before`:
// each vertex joins unless a neighbour already has.
template <class Before>
std::vector<uint64_t> reference_greedy_mis(const RefGraph& g, Before&& before) {
  auto adjacency = adjacency_of(g);
  std::vector<uint64_t> order(g.n), member(g.n, 0);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), before);
  for (uint64_t v : order) {
    bool free = true;
    for (uint64_t u : adjacency[v]) free &= u == v || !member[u];
    member[v] = free;
  }
  return member;
}

// Each vertex's distance from the farthest of `sources` that reaches it.
inline std::vector<int64_t> reference_radii(const RefGraph& g, const std::vector<uint64_t>& sources) {
  std::vector<int64_t> radius(g.n, -1);
  for (uint64_t s : sources) {
    const std::vector<int64_t> depth = reference_bfs(g, s);
    for (uint64_t v = 0; v < g.n; ++v) radius[v] = std::max(radius[v], depth[v]);
  }
  return radius;
}

}  // namespace sluice::test
