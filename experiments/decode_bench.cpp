// The decode loop of compressed edge pages alone (convert --compress), one
// thread, pages already in memory: every page of a layout's out-edges read
// once, then decoded to targets round after round, two ways alternating:
//   simd    four values per shuffle, unzigzagged and prefix-summed in the
//           vector (what EDGEMAP runs)
//   scalar  one value at a time
// Both must give the same checksum of targets. Prints edges per second.
//   experiments/decode_bench LAYOUT.sluice [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "layout/compressed_pages.hpp"
#include "layout/sluice_layout.hpp"

using namespace sluice;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: decode_bench LAYOUT.sluice [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const layout::SluiceLayout graph(argv[1]);
  const layout::EdgeSet& set = graph.out();
  if (!set.compressed()) {
    std::fprintf(stderr, "%s: not compressed (convert --compress)\n", argv[1]);
    return 2;
  }
  const uint64_t page_bytes = set.edges().interleaving().page_bytes, pages = set.edges().pages();
  std::vector<char> data(pages * page_bytes);
  set.edges().read_pages(0, pages, data.data());
  const bool weighted = graph.info().weighted;
  std::vector<uint32_t> out(layout::compressed_page_capacity(page_bytes, weighted));
  std::vector<float> weights(weighted ? out.size() : 0);
  const uint64_t edges = graph.info().edges;

  auto run = [&](bool simd) {
    const auto start = std::chrono::steady_clock::now();
    uint64_t check = 0;
    for (uint64_t p = 0; p < pages; ++p) {
      const char* page = data.data() + p * page_bytes;
      const uint64_t largest = layout::decode_page(page, page_bytes, out.data(), weighted ? weights.data() : nullptr, simd);
      if (largest == UINT64_MAX) std::abort();
      const uint32_t last = layout::CompressedPageHeader::of(page, weighted).edges - 1;
      check += largest + out[last] + (weighted ? uint64_t(weights[last]) : 0);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::pair(s, check);
  };
  struct Loop {
    const char* name;
    bool simd;
    std::vector<double> seconds;
    uint64_t check = 0;
  };
  std::vector<Loop> loops{{"simd", true, {}, 0}, {"scalar", false, {}, 0}};
  for (int r = 0; r < rounds; ++r) {
    for (Loop& l : loops) {
      auto [s, c] = run(l.simd);
      l.seconds.push_back(s);
      l.check = c;
    }
  }
  if (loops[0].check != loops[1].check) {
    std::fprintf(stderr, "simd and scalar decodes differ\n");
    return 1;
  }
  std::printf("%s: %llu edges in %llu pages of %llu bytes (%.3f bytes per edge), %d rounds, one thread\n", argv[1],
              (unsigned long long)edges, (unsigned long long)pages, (unsigned long long)page_bytes,
              double(pages * page_bytes) / double(edges), rounds);
  for (Loop& l : loops) {
    std::sort(l.seconds.begin(), l.seconds.end());
    const double median = l.seconds[l.seconds.size() / 2];
    std::printf("%-7s median %.4f s  %.3f G edges/s\n", l.name, median, double(edges) / median / 1e9);
  }
  return 0;
}
