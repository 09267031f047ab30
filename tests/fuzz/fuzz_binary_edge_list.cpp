// Binary edge lists: pairs of 32-bit (.bel) or 64-bit (.bel64) ids.
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  sluice::fuzz::read_everything(sluice::fuzz::put(data[0] & 1 ? "g.bel64" : "g.bel", data + 1, size - 1));
  return 0;
}
