// Matrix Market coordinate files: banner, size line, entries.
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::read_everything(sluice::fuzz::put("g.mtx", data, size));
  return 0;
}
