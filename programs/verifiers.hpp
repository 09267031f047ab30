// Independent checks of a program's result (`-v`/`--verify`, as GAPBS's
// verifiers): each reads the graph again through the block API, one
// simple pass in one thread that shares nothing with the engine, and
// checks a property any correct result has. Each returns what it checked
// on success and throws VerificationFailed naming the first offending
// vertex or edge.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"

namespace sluice::programs {

struct VerificationFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A BFS tree: the source at depth 0 and its own parent; every reached
// vertex's parent one level up with an edge to it; no edge u -> v from a
// reached u leaves v unreached or deeper than depth[u] + 1.
std::string verify_bfs(formats::BlockGraph& graph, uint64_t source, std::span<const int64_t> depth, std::span<const int64_t> parent);
// Components labelled by their smallest vertex: both ends of every edge
// share a label, and every label is the smallest vertex holding it.
std::string verify_components(formats::BlockGraph& graph, std::span<const uint64_t> label);
// PageRank: the residual of one more power iteration (L1), against ten
// times the tolerance (at least 1e-6), plus, for PageRank-delta, what its
// threshold leaves unpushed: up to `held_back` of each vertex's rank
// (damping x delta threshold).
std::string verify_pagerank(formats::BlockGraph& graph, std::span<const double> rank, double damping, bool spread_dangling,
                            double tolerance, double held_back = 0);
// Shortest paths: no edge relaxes a distance; every reached vertex but the
// source has an in-edge that gives its distance.
// source: nullopt for a search from every vertex (each starts at 0).
std::string verify_sssp(formats::BlockGraph& graph, std::optional<uint64_t> source, std::span<const double> distance);
// Coreness: each vertex has at least core[v] neighbours of coreness >=
// core[v], and not core[v] + 1 neighbours of coreness > core[v].
std::string verify_kcore(formats::BlockGraph& graph, std::span<const uint64_t> core);
// Triangles: each vertex's count against a count in memory over the
// sorted, deduplicated lists without self loops (triangles u < v < w by
// id, where the kernel orders by degree).
std::string verify_tc(formats::BlockGraph& graph, std::span<const uint64_t> triangles);
// An independent set (no edge joins two members; self loops aside) that
// is maximal (every other vertex has a member neighbour).
std::string verify_mis(formats::BlockGraph& graph, std::span<const uint64_t> member);
// Radii: each vertex's estimate against BFS in memory from every sampled
// source: its distance from the farthest that reaches it (-1: none does).
std::string verify_radii(formats::BlockGraph& graph, std::span<const uint64_t> sources, std::span<const int64_t> radius);
// y = A x (transposed: A^T x), recomputed in one thread, within 1e-9 of
// each value's magnitude.
std::string verify_spmv(formats::BlockGraph& graph, std::span<const double> x, std::span<const double> y, bool transposed);

}  // namespace sluice::programs
