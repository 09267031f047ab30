// Synthetic graphs: RMAT/Kronecker with Graph500's parameters and uniform
// random. Edges are made in fixed chunks, each from its own random stream
// seeded by (seed, chunk), so the same seed gives the same graph whatever
// the thread count, and any range of edges can be made on its own, which
// is how graphs larger than memory stream to disk.
#pragma once

#include <cstdint>
#include <string>

#include "formats/csr.hpp"

namespace sluice::formats {

struct GeneratorOptions {
  std::string kind = "rmat";  // "rmat" or "uniform"
  unsigned scale = 16;        // 2^scale vertices
  double edge_factor = 16;    // edges = edge_factor * 2^scale
  uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;  // RMAT quadrant probabilities (d = 1 - a - b - c)
  bool permute = true;        // scramble vertex ids, as Graph500 does
  bool weighted = false;      // integer weights in [1, 255], as GAPBS makes them
  int threads = 0;

  uint64_t vertices() const { return uint64_t(1) << scale; }
  uint64_t edges() const { return uint64_t(edge_factor * double(vertices())); }
  void validate() const;
};

// Edges [first, first + count) of the graph; `first` must be a multiple of
// generator_chunk_edges. `weights` may be null.
inline constexpr uint64_t generator_chunk_edges = 1 << 16;
template <class V>
void generate_edges(const GeneratorOptions& options, uint64_t first, uint64_t count, V* sources, V* targets,
                    float* weights);

template <class V>
EdgeList<V> generate_edge_list(const GeneratorOptions& options);

// Streams the edge list to `path` as "el" (text), "bel" or "bel64", a batch
// at a time, so the graph never has to fit in memory.
void generate_to_file(const GeneratorOptions& options, const std::string& path, const std::string& format,
                      bool progress);

}  // namespace sluice::formats
