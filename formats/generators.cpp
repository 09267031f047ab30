#include "formats/generators.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/progress.hpp"

namespace sluice::formats {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman and Vigna), seeded through splitmix64.
class Random {
 public:
  Random(uint64_t seed, uint64_t stream) {
    uint64_t s = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (auto& word : state_) word = splitmix64(s);
  }
  uint64_t next() {
    uint64_t result = rotl(state_[1] * 5, 7) * 9;
    uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  uint64_t below(uint64_t bound) { return uint64_t((__uint128_t(next()) * bound) >> 64); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

// A bijection on [0, 2^scale): multiplications by odd numbers and
// xor-shifts are each invertible modulo 2^scale.
class Permutation {
 public:
  Permutation(unsigned scale, uint64_t seed) : mask_(scale >= 64 ? ~0ULL : (uint64_t(1) << scale) - 1), shift_(std::max(1u, scale / 2)) {
    uint64_t s = seed ^ 0x5bd1e995ULL;
    m1_ = splitmix64(s) | 1;
    m2_ = splitmix64(s) | 1;
    x_ = splitmix64(s) & mask_;
  }
  uint64_t operator()(uint64_t v) const {
    v = ((v ^ x_) * m1_) & mask_;
    v ^= v >> shift_;
    v = (v * m2_) & mask_;
    v ^= v >> shift_;
    return v;
  }

 private:
  uint64_t mask_;
  unsigned shift_;
  uint64_t m1_, m2_, x_;
};

}  // namespace

void GeneratorOptions::validate() const {
  if (kind != "rmat" && kind != "uniform") throw std::invalid_argument("generator kind must be rmat or uniform, not '" + kind + "'");
  if (scale > 40) throw std::invalid_argument("scale must be at most 40");
  if (!(edge_factor >= 0)) throw std::invalid_argument("the edge factor must not be negative");
  if (a < 0 || b < 0 || c < 0 || a + b + c > 1) throw std::invalid_argument("RMAT needs a, b, c >= 0 with a + b + c <= 1");
}

template <class V>
void generate_edges(const GeneratorOptions& options, uint64_t first, uint64_t count, V* sources, V* targets,
                    float* weights) {
  if (first % generator_chunk_edges) throw std::invalid_argument("generate_edges: first edge must start a chunk");
  const uint64_t chunks = (count + generator_chunk_edges - 1) / generator_chunk_edges;
  const Permutation permute(options.scale, options.seed);
  const uint64_t n = options.vertices();
  // Quadrant thresholds on 32-bit uniform numbers.
  const uint64_t ta = uint64_t(options.a * 4294967296.0);
  const uint64_t tab = uint64_t((options.a + options.b) * 4294967296.0);
  const uint64_t tabc = uint64_t((options.a + options.b + options.c) * 4294967296.0);
  const bool rmat = options.kind == "rmat";

#pragma omp parallel for num_threads(base::resolve_threads(options.threads)) schedule(dynamic, 1)
  for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
    Random random(options.seed, first / generator_chunk_edges + chunk);
    uint64_t begin = chunk * generator_chunk_edges;
    uint64_t end = std::min(count, begin + generator_chunk_edges);
    for (uint64_t e = begin; e < end; ++e) {
      uint64_t u = 0, v = 0;
      if (rmat) {
        uint64_t bits = 0;
        for (unsigned level = 0; level < options.scale; ++level) {
          if ((level & 1) == 0) bits = random.next();
          uint64_t r = (level & 1) ? (bits >> 32) : (bits & 0xffffffffULL);
          u = (u << 1) | (r >= tab);
          v = (v << 1) | ((r >= ta && r < tab) || r >= tabc);
        }
      } else {
        u = random.below(n);
        v = random.below(n);
      }
      if (options.permute) {
        u = permute(u);
        v = permute(v);
      }
      sources[e] = V(u);
      targets[e] = V(v);
      if (weights) weights[e] = float(1 + random.below(255));
    }
  }
}

template <class V>
EdgeList<V> generate_edge_list(const GeneratorOptions& options) {
  options.validate();
  if (options.vertices() - 1 > uint64_t(std::numeric_limits<V>::max())) throw std::invalid_argument("vertex ids do not fit the id type");
  EdgeList<V> edges;
  edges.vertices = options.vertices();
  edges.weighted = options.weighted;
  const uint64_t m = options.edges();
  base::require_memory(m * (2 * sizeof(V) + (options.weighted ? 4 : 0)), "the generated edge list");
  edges.sources = base::Array<V>(m, "edge sources");
  edges.targets = base::Array<V>(m, "edge targets");
  if (options.weighted) edges.weights = base::Array<float>(m, "edge weights");
  generate_edges(options, 0, m, edges.sources.data(), edges.targets.data(), options.weighted ? edges.weights.data() : nullptr);
  return edges;
}

void generate_to_file(const GeneratorOptions& options, const std::string& path, const std::string& format,
                      bool progress_enabled) {
  options.validate();
  if (format != "el" && format != "wel" && format != "bel" && format != "bel64") {
    throw std::invalid_argument("streaming generation writes el, wel, bel or bel64, not '" + format + "'");
  }
  if (format == "bel" && options.vertices() > (uint64_t(1) << 32)) throw std::invalid_argument(".bel holds 32-bit ids; use .bel64");
  const uint64_t m = options.edges();
  const uint64_t batch = std::min<uint64_t>(generator_chunk_edges * 256, std::max<uint64_t>(m, 1));  // up to 16M edges a batch
  const bool weighted = options.weighted || format == "wel";
  const int threads = base::resolve_threads(options.threads);
  std::vector<uint64_t> sources(batch), targets(batch);
  std::vector<float> weights(weighted ? batch : 0);
  std::vector<std::string> texts(threads);
  base::AtomicFile file(path, 8 << 20);
  if (format == "el" || format == "wel") {
    file.write("# Nodes: " + std::to_string(options.vertices()) + " Edges: " + std::to_string(m) + "\n");
  }
  base::Progress progress("generating " + path, m, progress_enabled);
  GeneratorOptions gen = options;
  gen.weighted = weighted;
  for (uint64_t first = 0; first < m; first += batch) {
    uint64_t count = std::min(batch, m - first);
    generate_edges(gen, first, count, sources.data(), targets.data(), weighted ? weights.data() : nullptr);
    if (format == "bel" || format == "bel64") {
      std::vector<char> out(count * (format == "bel" ? 8 : 16));
      if (format == "bel") {
        auto* p = reinterpret_cast<uint32_t*>(out.data());
        for (uint64_t e = 0; e < count; ++e) p[2 * e] = uint32_t(sources[e]), p[2 * e + 1] = uint32_t(targets[e]);
      } else {
        auto* p = reinterpret_cast<uint64_t*>(out.data());
        for (uint64_t e = 0; e < count; ++e) p[2 * e] = sources[e], p[2 * e + 1] = targets[e];
      }
      file.write(out.data(), out.size());
    } else {
      // Format slices in parallel, write them in order.
#pragma omp parallel num_threads(threads)
      {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        std::string& text = texts[t];
        text.clear();
        char number[32];
        for (uint64_t e = count * t / nt; e < count * (t + 1) / nt; ++e) {
          text.append(number, std::to_chars(number, number + 32, sources[e]).ptr);
          text.push_back(' ');
          text.append(number, std::to_chars(number, number + 32, targets[e]).ptr);
          if (weighted) {
            text.push_back(' ');
            text.append(number, std::to_chars(number, number + 32, weights[e]).ptr);
          }
          text.push_back('\n');
        }
      }
      for (auto& text : texts) file.write(text);
    }
    progress.advance(count);
  }
  progress.done();
  file.commit();
}

template void generate_edges(const GeneratorOptions&, uint64_t, uint64_t, uint32_t*, uint32_t*, float*);
template void generate_edges(const GeneratorOptions&, uint64_t, uint64_t, uint64_t*, uint64_t*, float*);
template EdgeList<uint32_t> generate_edge_list(const GeneratorOptions&);
template EdgeList<uint64_t> generate_edge_list(const GeneratorOptions&);

}  // namespace sluice::formats
