#include "programs/verifiers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sluice::programs {

namespace {

// Calls f(u, v, w) for every edge, in order.
template <class F>
void for_each_edge(formats::BlockGraph& graph, F&& f) {
  formats::for_each_block_in_order(graph, 0, graph.info().vertices, [&](const formats::EdgeBlock& block) {
    for (uint64_t u = block.begin; u < block.end; ++u) {
      for (uint64_t e = block.offsets[u - block.begin]; e < block.offsets[u - block.begin + 1]; ++e) {
        const uint64_t i = e - block.first_edge();
        f(u, block.target(i), block.weights ? block.weights[i] : 1.0f);
      }
    }
  });
}

[[noreturn]] void fail(const std::string& what) { throw VerificationFailed(what); }

// Vertices named as the input names them: the checks run on the layout's
// dense ids, a relabelled layout's messages give the input's.
class Names {
 public:
  explicit Names(const formats::BlockGraph& graph) : ids_(graph.source().ids()) {}
  std::string operator()(uint64_t v) const { return std::to_string(ids_.original(v)); }
  std::string edge(uint64_t u, uint64_t v) const { return "edge " + (*this)(u) + " -> " + (*this)(v); }

 private:
  const base::IdMap& ids_;
};

}  // namespace

std::string verify_bfs(formats::BlockGraph& graph, uint64_t source, std::span<const int64_t> depth, std::span<const int64_t> parent) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  if (depth[source] != 0 || parent[source] != int64_t(source)) fail("the source is not at depth 0 as its own parent");
  std::vector<bool> tree_edge_seen(n, false);
  tree_edge_seen[source] = true;
  uint64_t reached = 0;
  for (uint64_t v = 0; v < n; ++v) {
    if ((depth[v] < 0) != (parent[v] < 0)) fail("vertex " + name(v) + " has a depth but no parent, or a parent but no depth");
    if (depth[v] < 0) continue;
    ++reached;
    if (v != source && (uint64_t(parent[v]) >= n || depth[uint64_t(parent[v])] != depth[v] - 1)) {
      fail("vertex " + name(v) + " at depth " + std::to_string(depth[v]) + " has parent " +
           (uint64_t(parent[v]) < n ? name(uint64_t(parent[v])) : std::to_string(parent[v])) +
           ", which is not one level up");
    }
  }
  uint64_t edges = 0;
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) {
    ++edges;
    if (depth[u] < 0) return;
    if (depth[v] < 0 || depth[v] > depth[u] + 1) {
      fail(name.edge(u, v) + " leaves " + name(v) + (depth[v] < 0 ? " unreached" : " at depth " + std::to_string(depth[v])) +
           " from depth " + std::to_string(depth[u]));
    }
    if (parent[v] == int64_t(u)) tree_edge_seen[v] = true;
  });
  for (uint64_t v = 0; v < n; ++v) {
    if (depth[v] >= 0 && !tree_edge_seen[v]) fail("vertex " + name(v) + "'s parent has no edge to it");
  }
  return "a BFS tree of " + std::to_string(reached) + " vertices, checked against " + std::to_string(edges) + " edges";
}

std::string verify_components(formats::BlockGraph& graph, std::span<const uint64_t> label) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  for (uint64_t v = 0; v < n; ++v) {
    if (label[v] > v || label[label[v]] != label[v]) {
      fail("vertex " + name(v) + " has label " + name(label[v]) + ", which is not its component's smallest vertex");
    }
  }
  uint64_t edges = 0;
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) {
    ++edges;
    if (label[u] != label[v]) fail(name.edge(u, v) + " joins components " + name(label[u]) + " and " + name(label[v]));
  });
  return "both ends of all " + std::to_string(edges) + " edges in one component, every label its smallest vertex";
}

std::string verify_pagerank(formats::BlockGraph& graph, std::span<const double> rank, double damping, bool spread_dangling,
                            double tolerance, double held_back) {
  const uint64_t n = graph.info().vertices;
  if (n == 0) return "no vertex";
  std::vector<uint64_t> degree(n, 0);
  graph.for_each_vertex([&](uint64_t v, uint64_t, uint64_t d) { degree[v] = d; });
  std::vector<double> received(n, 0.0);
  double dangling = 0;
  for (uint64_t v = 0; v < n; ++v) dangling += degree[v] ? 0.0 : rank[v];
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) { received[v] += rank[u] / double(degree[u]); });
  const double spread = spread_dangling ? dangling / double(n) : 0.0;
  double residual = 0;
  for (uint64_t v = 0; v < n; ++v) residual += std::fabs((1 - damping) / double(n) + damping * (received[v] + spread) - rank[v]);
  double total = 0;
  for (uint64_t v = 0; v < n; ++v) total += rank[v];
  const double target = std::max(10 * tolerance, 1e-6) + held_back * total;
  char text[160];
  const bool passed = residual <= target;
  std::snprintf(text, sizeof(text), "the residual of one more power iteration is %.3g (L1), %s %.3g", residual,
                passed ? "at most" : "above", target);
  if (!passed) fail(text);
  return text;
}

std::string verify_sssp(formats::BlockGraph& graph, std::optional<uint64_t> source, std::span<const double> distance) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<bool> tight(n, false);
  if (source) {
    if (distance[*source] != 0) fail("the source is not at distance 0");
    tight[*source] = true;
  } else {
    // From every vertex: each starts at 0, so none is above it, and a
    // vertex at 0 is given its distance by the virtual source's edge.
    for (uint64_t v = 0; v < n; ++v) {
      if (!(distance[v] <= 0)) fail("vertex " + name(v) + " is at " + std::to_string(distance[v]) + ", above its start at 0");
      tight[v] = distance[v] == 0;
    }
  }
  uint64_t edges = 0;
  // Distances are float sums: compare with the rounding of a float.
  auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-5 * std::max(1.0, std::fabs(b)); };
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float w) {
    ++edges;
    if (distance[u] == inf) return;
    const double through = double(float(distance[u]) + w);
    if (through < distance[v] && !close(through, distance[v])) {
      fail(name.edge(u, v) + " of weight " + std::to_string(w) + " gives " + std::to_string(through) + ", below " + name(v) +
           "'s distance " + std::to_string(distance[v]));
    }
    if (close(through, distance[v])) tight[v] = true;
  });
  uint64_t reached = 0;
  for (uint64_t v = 0; v < n; ++v) {
    if (distance[v] == inf) continue;
    ++reached;
    if (!tight[v]) fail("no in-edge of vertex " + name(v) + " gives its distance " + std::to_string(distance[v]));
  }
  return "no edge of " + std::to_string(edges) + " shortens a distance, and each of the " + std::to_string(reached) +
         " reached vertices has an in-edge that gives its distance";
}

std::string verify_kcore(formats::BlockGraph& graph, std::span<const uint64_t> core) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  std::vector<uint64_t> at_least(n, 0), above(n, 0);
  uint64_t edges = 0;
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) {
    ++edges;
    if (core[v] >= core[u]) ++at_least[u];
    if (core[v] > core[u]) ++above[u];
  });
  for (uint64_t v = 0; v < n; ++v) {
    if (at_least[v] < core[v]) {
      fail("vertex " + name(v) + " of coreness " + std::to_string(core[v]) + " has only " + std::to_string(at_least[v]) +
           " neighbours of coreness at least that");
    }
    if (above[v] > core[v]) {
      fail("vertex " + name(v) + " of coreness " + std::to_string(core[v]) + " has " + std::to_string(above[v]) +
           " neighbours of higher coreness: it belongs to a higher core");
    }
  }
  return "every vertex's coreness agrees with its " + std::to_string(edges) + " edges' ends";
}

std::string verify_tc(formats::BlockGraph& graph, std::span<const uint64_t> triangles) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  std::vector<std::vector<uint64_t>> neighbours(n);
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) {
    if (u != v) neighbours[u].push_back(v);
  });
  for (std::vector<uint64_t>& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<uint64_t> expected(n, 0);
  uint64_t total = 0;
  for (uint64_t u = 0; u < n; ++u) {
    const std::vector<uint64_t>& a = neighbours[u];
    for (uint64_t v : a) {
      if (v <= u) continue;
      const std::vector<uint64_t>& b = neighbours[v];
      // w > v in both lists
      auto i = std::upper_bound(a.begin(), a.end(), v), j = std::upper_bound(b.begin(), b.end(), v);
      while (i != a.end() && j != b.end()) {
        if (*i < *j) {
          ++i;
        } else if (*j < *i) {
          ++j;
        } else {
          ++expected[u], ++expected[v], ++expected[*i], ++total;
          ++i, ++j;
        }
      }
    }
  }
  for (uint64_t v = 0; v < n; ++v) {
    if (triangles[v] != expected[v]) {
      fail("vertex " + name(v) + " belongs to " + std::to_string(expected[v]) + " triangles; the run counted " + std::to_string(triangles[v]));
    }
  }
  return "every vertex's triangles (" + std::to_string(total) + " in all) agree with a count over its sorted lists";
}

std::string verify_mis(formats::BlockGraph& graph, std::span<const uint64_t> member) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  std::vector<bool> covered(n, false);
  uint64_t members = 0;
  for (uint64_t v = 0; v < n; ++v) {
    if (member[v] > 1) fail("vertex " + name(v) + " is marked " + std::to_string(member[v]) + ", not 0 or 1");
    members += member[v];
    covered[v] = member[v] == 1;
  }
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) {
    if (u == v) return;
    if (member[u] && member[v]) fail("the edge " + name(u) + " -> " + name(v) + " joins two members");
    if (member[u]) covered[v] = true;
    if (member[v]) covered[u] = true;
  });
  for (uint64_t v = 0; v < n; ++v) {
    if (!covered[v]) fail("vertex " + name(v) + " is neither a member nor next to one: the set is not maximal");
  }
  return std::to_string(members) + " members, no two adjacent, every other vertex next to one";
}

std::string verify_radii(formats::BlockGraph& graph, std::span<const uint64_t> sources, std::span<const int64_t> radius) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  std::vector<uint64_t> offsets(n + 1, 0), targets;
  for_each_edge(graph, [&](uint64_t u, uint64_t, float) { ++offsets[u + 1]; });
  for (uint64_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  targets.resize(offsets[n]);
  std::vector<uint64_t> at(offsets.begin(), offsets.end() - 1);
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float) { targets[at[u]++] = v; });
  std::vector<int64_t> expected(n, -1), depth(n);
  std::vector<uint64_t> queue;
  for (uint64_t s : sources) {
    std::fill(depth.begin(), depth.end(), -1);
    depth[s] = 0;
    queue.assign(1, s);
    for (size_t head = 0; head < queue.size(); ++head) {
      const uint64_t u = queue[head];
      expected[u] = std::max(expected[u], depth[u]);
      for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
        if (depth[targets[e]] < 0) depth[targets[e]] = depth[u] + 1, queue.push_back(targets[e]);
      }
    }
  }
  for (uint64_t v = 0; v < n; ++v) {
    if (radius[v] != expected[v]) {
      fail("vertex " + name(v) + " has estimate " + std::to_string(radius[v]) + "; BFS from the " + std::to_string(sources.size()) +
           " sources gives " + std::to_string(expected[v]));
    }
  }
  return "every vertex's estimate equals its distance from the farthest of the " + std::to_string(sources.size()) + " sources (BFS in memory)";
}

std::string verify_spmv(formats::BlockGraph& graph, std::span<const double> x, std::span<const double> y, bool transposed) {
  const uint64_t n = graph.info().vertices;
  const Names name(graph);
  std::vector<double> expected(n, 0.0), magnitude(n, 0.0);
  for_each_edge(graph, [&](uint64_t u, uint64_t v, float w) {
    const uint64_t into = transposed ? v : u, from = transposed ? u : v;
    expected[into] += double(w) * x[from];
    magnitude[into] += std::fabs(double(w) * x[from]);
  });
  for (uint64_t v = 0; v < n; ++v) {
    if (std::fabs(expected[v] - y[v]) > 1e-9 * std::max(1.0, magnitude[v])) {
      fail("y at vertex " + name(v) + " is " + std::to_string(y[v]) + ", a plain sum gives " + std::to_string(expected[v]));
    }
  }
  return "all " + std::to_string(n) + " values of y against a plain sum in one thread";
}

}  // namespace sluice::programs
