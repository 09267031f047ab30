// The decode loop of compressed edge pages alone (convert --compress), one
// thread, pages already in memory: every page of a layout's out-edges read
// once, then decoded to targets round after round, two ways alternating:
//   simd    four values per shuffle, unzigzagged and prefix-summed in the
//           vector (what EDGEMAP runs on unweighted pages)
//   scalar  one value at a time
// and for a weighted layout, the (target, weight) records the walks read:
//   records decoded straight into them, each weight beside its target
//           (what EDGEMAP runs)
//   paired  targets and weights decoded to two arrays, then paired in a
//           pass of their own
// A layout of 64-bit ids runs simd (two values per shuffle) and scalar.
// All must give the same checksum. Prints edges per second, median and fastest.
//   experiments/decode_bench LAYOUT.sluice [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  const bool weighted = graph.info().weighted, wide = graph.info().id_bytes == 8;
  std::vector<uint32_t> out(layout::compressed_page_capacity(page_bytes, weighted, wide));
  std::vector<uint64_t> wide_out(wide ? out.size() : 0);
  std::vector<float> weights(weighted ? out.size() : 0);
  const uint64_t edges = graph.info().edges;

  std::vector<char> records(weighted ? 8 * out.size() : 0);
  enum class Way { simd, scalar, records, paired };
  auto run = [&](Way way) {
    const auto start = std::chrono::steady_clock::now();
    uint64_t check = 0;
    for (uint64_t p = 0; p < pages; ++p) {
      const char* page = data.data() + p * page_bytes;
      const uint32_t last = layout::CompressedPageHeader::of(page, weighted, wide).edges - 1;
      uint64_t largest;
      if (wide) {
        largest = layout::decode_wide_page(page, page_bytes, wide_out.data(), weighted ? weights.data() : nullptr, way != Way::scalar);
        if (largest == UINT64_MAX) std::abort();
        check += largest + wide_out[last] + (weighted ? uint64_t(weights[last]) : 0);
        continue;
      }
      if (way == Way::records) {
        largest = layout::decode_page_records(page, page_bytes, out.data(), records.data());
      } else {
        largest = layout::decode_page(page, page_bytes, out.data(), weighted ? weights.data() : nullptr, way != Way::scalar);
        if (way == Way::paired) {
          for (uint32_t i = 0; i <= last; ++i) {
            std::memcpy(records.data() + 8 * i, &out[i], 4);
            std::memcpy(records.data() + 8 * i + 4, &weights[i], 4);
          }
        }
      }
      if (largest == UINT64_MAX) std::abort();
      if (way == Way::records || way == Way::paired) {
        uint32_t target;
        float weight;
        std::memcpy(&target, records.data() + 8 * last, 4);
        std::memcpy(&weight, records.data() + 8 * last + 4, 4);
        check += largest + target + uint64_t(weight);
      } else {
        check += largest + out[last] + (weighted ? uint64_t(weights[last]) : 0);
      }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::pair(s, check);
  };
  struct Loop {
    const char* name;
    Way way;
    std::vector<double> seconds;
    uint64_t check = 0;
  };
  std::vector<Loop> loops{{"simd", Way::simd, {}, 0}, {"scalar", Way::scalar, {}, 0}};
  if (weighted && !wide) loops.push_back({"records", Way::records, {}, 0}), loops.push_back({"paired", Way::paired, {}, 0});
  for (int r = 0; r < rounds; ++r) {
    for (Loop& l : loops) {
      auto [s, c] = run(l.way);
      l.seconds.push_back(s);
      l.check = c;
    }
  }
  if (std::any_of(loops.begin(), loops.end(), [&](const Loop& l) { return l.check != loops[0].check; })) {
    std::fprintf(stderr, "the decodes differ\n");
    return 1;
  }
  std::printf("%s: %llu edges in %llu pages of %llu bytes (%.3f bytes per edge), %d rounds, one thread\n", argv[1],
              (unsigned long long)edges, (unsigned long long)pages, (unsigned long long)page_bytes,
              double(pages * page_bytes) / double(edges), rounds);
  for (Loop& l : loops) {
    std::sort(l.seconds.begin(), l.seconds.end());
    // The fastest round too: on a shared machine, the least disturbed.
    const double median = l.seconds[l.seconds.size() / 2], least = l.seconds[0];
    std::printf("%-7s median %.4f s  %.3f G edges/s  fastest %.4f s  %.3f G edges/s\n", l.name, median,
                double(edges) / median / 1e9, least, double(edges) / least / 1e9);
  }
  return 0;
}
