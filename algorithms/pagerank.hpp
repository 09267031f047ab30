// PageRank, two ways.
//
// classic (GAPBS's definition): every iteration every vertex pushes
// rank / out-degree along its out-edges and
//   rank'(v) = (1 - d) / n + d * (sum of what v received + spread / n)
// until the L1 change sum |rank' - rank| falls below the tolerance or the
// iteration cap is hit.
//
// delta (Ligra's PageRankDelta, as Blaze runs it): only vertices whose
// change exceeds delta_threshold x their rank stay active and push their
// change; the run ends when the summed |change| falls below the tolerance,
// when no vertex is active, or at the cap. Unlike Ligra, a change too small
// to push is kept and pushed once it has accumulated past the threshold,
// so the ranks stay close to the classic ones (the unpushed remainder is
// below the threshold x rank at every vertex).
//
// Vertices with no out-edges (dangling): with Dangling::drop (GAPBS, Ligra,
// Blaze) their rank flows nowhere, and the ranks sum to less than 1; with
// Dangling::spread (classic only; networkx's definition) their rank is
// spread evenly over all vertices (spread above), and the ranks sum to 1.
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/run_trace.hpp"
#include "base/array.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

// automatic: delta, or classic where delta's arrays leave the engine's
// floor above the memory limit and classic's do not (both stop at the
// same tolerance; classic keeps 4-8 bytes a vertex less). With
// Dangling::spread, classic.
enum class PageRankMethod { automatic, delta, classic };
enum class Dangling { drop, spread };
// How what a vertex sends along each out-edge (rank / out-degree) is
// stored: float32 (GAPBS's choice) halves the array that every edge reads
// at random, the kernel's bound when it outgrows the caches; ranks, sums
// and changes stay double either way, each share rounded to 24 bits: an
// iteration's L1 change then stalls at a few 1e-9 (4e-9 on cnr-2000), and
// 10 iterations on RMAT 22 end 3e-9 in L1 from the double ones. Double
// shares need no array of their own (classic keeps rank / out-degree in
// the ranks' array; delta writes a pusher's share over its pending
// change), float shares take 4 bytes a vertex.
// automatic: classic takes floats while an iteration's change is above
// 100 x 2^-24 / (1 - damping) (4e-5 at 0.85), where their rounding is
// under 1% of it, and doubles after: any tolerance is reached, and a run
// that stops above that change (the default tolerance, 1e-4) is on floats
// throughout. Delta takes doubles: from disk it ran as fast on them (RMAT
// 22, 10 iterations: 1.42 s either way; in memory 0.94-0.98 s on floats,
// 1.00-1.01 s on doubles), in 4 bytes a vertex less.
enum class PageRankShares { automatic, float64, float32 };

struct PageRankOptions {
  PageRankMethod method = PageRankMethod::delta;
  Dangling dangling = Dangling::drop;
  double damping = 0.85;
  double tolerance = 1e-4;          // on the L1 change of one iteration
  unsigned max_iterations = 20;
  double delta_threshold = 0.01;    // delta only: relative change that keeps a vertex active
  PageRankShares shares = PageRankShares::automatic;
};

struct PageRankResult {
  base::Array<double> rank;  // filled on the engine's threads
  unsigned iterations = 0;
  double last_change = 0;  // L1 change of the last iteration
  // Stopped because the change fell below the tolerance (delta: or no
  // vertex had a change left to push), not at the iteration cap.
  bool converged = false;
  unsigned float_share_iterations = 0;  // the first iterations, on float shares
  PageRankMethod method = PageRankMethod::delta;  // the one that ran
};

// The arrays a run holds, by method and shares: classic 8 (ranks) + 8
// (sums, owned) + 4 (float shares, automatic's first rounds), delta 8
// (ranks, owned) + 8 (pending changes) + 8 (sums, owned) + 4 with float
// shares. automatic: delta's, and classic's as the least
// (EngineOptions::algorithm_bytes_least; none for a method given).
engine::VertexBytes pagerank_vertex_bytes(const PageRankOptions& options);
engine::VertexBytes pagerank_least_vertex_bytes(const PageRankOptions& options);

PageRankResult pagerank(engine::Engine& engine, const PageRankOptions& options, RunTrace& trace);

}  // namespace sluice::algorithms
