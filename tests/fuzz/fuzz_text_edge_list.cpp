// Text edge lists (.el, .wel: SNAP headers, comments, 2 or 3 columns) and
// Ligra's AdjacencyGraph, decided by the first byte so one corpus feeds both.
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* names[] = {"g.el", "g.wel", "g.adj"};
  const std::string path = sluice::fuzz::put(names[data[0] % 3], data + 1, size - 1);
  sluice::formats::OpenOptions options;
  options.load.base = data[0] & 8 ? 1 : -1;
  sluice::fuzz::read_everything(path, options);
  return 0;
}
