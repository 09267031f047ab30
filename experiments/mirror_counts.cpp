// The mirrors of every rank of a ranked layout of an RMAT graph, counted
// without building it: the edges are made twice with sluice's own
// generator (as `sluice generate rmat` makes them), once for the
// in-degrees that cut the ranges (formats::rank_boundaries, as `sluice
// convert --ranks R` cuts them), once to mark, per rank, the sources of
// its edges that another rank owns. A rank's mirrors are what it receives
// a value for in an exchange; its read pairs (own vertices times the other
// ranks reading each) what it sends. And the bytes each rank sends and
// receives when the ranks first learn who reads what (RankExchange's
// find_mirrors: per pair of ranks a count, then the set as a bitmap of the
// owner's range or as 4-byte offsets, whichever is fewer bytes), a part
// that does not grow with the mirrors alone. Prints one JSON line:
//   {"scale":S,"ranks":R,"edge_factor":E,"seed":N,"mirrors":[...],"read_pairs":[...],
//    "set_sent_bytes":[...],"set_received_bytes":[...]}
// It needs 8 bytes a vertex for the degrees and R bits a vertex for the
// marks: 3 GiB at scale 27 and 128 ranks.
//   experiments/mirror_counts SCALE RANKS [EDGE_FACTOR] [SEED]
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "formats/generators.hpp"
#include "formats/ranked_writer.hpp"

using namespace sluice;

namespace {

// Calls f(sources, targets, count) for every batch of the graph's edges.
template <class F>
void for_each_batch(const formats::GeneratorOptions& options, F&& f) {
  constexpr uint64_t batch = formats::generator_chunk_edges * 256;
  std::vector<uint64_t> sources(batch), targets(batch);
  for (uint64_t first = 0; first < options.edges(); first += batch) {
    const uint64_t count = std::min(batch, options.edges() - first);
    formats::generate_edges<uint64_t>(options, first, count, sources.data(), targets.data(), nullptr);
    f(sources.data(), targets.data(), count);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: mirror_counts SCALE RANKS [EDGE_FACTOR] [SEED]\n");
    return 2;
  }
  formats::GeneratorOptions options;
  options.scale = unsigned(std::atoi(argv[1]));
  const unsigned ranks = unsigned(std::atoi(argv[2]));
  options.edge_factor = argc > 3 ? std::atof(argv[3]) : 16;
  options.seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  options.validate();
  const uint64_t n = options.vertices();

  std::vector<uint64_t> in_degrees(n, 0);
  for_each_batch(options, [&](const uint64_t*, const uint64_t* targets, uint64_t count) {
    for (uint64_t e = 0; e < count; ++e) ++in_degrees[targets[e]];
  });
  const std::vector<uint64_t> bounds = formats::rank_boundaries(in_degrees, ranks, formats::ranked_layout_alpha);
  in_degrees = {};

  std::vector<uint16_t> owner(n);
  for (unsigned r = 0; r < ranks; ++r) std::fill(owner.begin() + long(bounds[r]), owner.begin() + long(bounds[r + 1]), uint16_t(r));
  // marks[r]: the vertices rank r's part reads that it does not own.
  const uint64_t words = (n + 63) / 64;
  std::vector<uint64_t> marks(uint64_t(ranks) * words, 0);
  for_each_batch(options, [&](const uint64_t* sources, const uint64_t* targets, uint64_t count) {
    for (uint64_t e = 0; e < count; ++e) {
      const uint64_t u = sources[e], r = owner[targets[e]];
      if (owner[u] != r) marks[r * words + u / 64] |= uint64_t(1) << (u % 64);
    }
  });
  std::vector<uint64_t> mirrors(ranks, 0), read_pairs(ranks, 0);
  // Each rank's counts to every other first, 8 bytes a pair each way.
  std::vector<uint64_t> set_sent(ranks, 8 * uint64_t(ranks - 1)), set_received(ranks, 8 * uint64_t(ranks - 1));
  for (unsigned r = 0; r < ranks; ++r) {
    const uint64_t* mine = marks.data() + uint64_t(r) * words;
    for (unsigned s = 0; s < ranks; ++s) {
      uint64_t read = 0;  // of rank s's vertices
      // The words of rank s's range; the partial words at its ends masked.
      for (uint64_t w = bounds[s] / 64; w < (bounds[s + 1] + 63) / 64; ++w) {
        uint64_t x = mine[w];
        if (w == bounds[s] / 64 && bounds[s] % 64) x &= ~uint64_t(0) << (bounds[s] % 64);
        if (w == bounds[s + 1] / 64 && bounds[s + 1] % 64) x &= (uint64_t(1) << (bounds[s + 1] % 64)) - 1;
        read += uint64_t(std::popcount(x));
      }
      mirrors[r] += read;
      read_pairs[s] += read;
      if (read == 0) continue;
      const uint64_t range = bounds[s + 1] - bounds[s];
      const uint64_t set = std::min((range + 63) / 64 * 8, read * (range <= (uint64_t(1) << 32) ? 4 : 8));
      set_sent[r] += set;
      set_received[s] += set;
    }
  }
  auto list = [](const std::vector<uint64_t>& values) {
    std::string text;
    for (uint64_t v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
    return text;
  };
  std::printf("{\"scale\":%u,\"ranks\":%u,\"edge_factor\":%g,\"seed\":%llu,\"mirrors\":[%s],\"read_pairs\":[%s],"
              "\"set_sent_bytes\":[%s],\"set_received_bytes\":[%s]}\n",
              options.scale, ranks, options.edge_factor, (unsigned long long)options.seed, list(mirrors).c_str(), list(read_pairs).c_str(),
              list(set_sent).c_str(), list(set_received).c_str());
  return 0;
}
