// Sparse matrix-vector product over the graph's adjacency matrix A, with
// A[i][j] the weight of edge i -> j (1 for unweighted graphs; repeated
// edges add up). One full-scan EDGEMAP pushes w * x[src] to each
// destination:
//   over the out-edges:            y = A^T x   (y[j] = sum over i -> j)
//   over the transpose's edges:    y = A x     (y[i] = sum over i -> j)
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/run_trace.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

// x over every vertex (the sources read it), y over the own ones.
constexpr engine::VertexBytes spmv_vertex_bytes{8, 8};

// y = M x where M is the matrix whose row s holds the edges the engine's
// graph lists for s, pushed to their targets: pass the transpose's engine
// for A x, the out-edges' engine for A^T x.
base::Array<double> spmv(engine::Engine& engine, const std::vector<double>& x, RunTrace& trace);

}  // namespace sluice::algorithms
