// Blaze's dataset: an index file and one adjacency file (length prefixed).
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> files = sluice::fuzz::parts(data, size, 2);
  sluice::fuzz::put_text("b.gr.index", files[0]);
  sluice::fuzz::put_text("b.gr.adj.0", files[1]);
  sluice::fuzz::read_everything(sluice::fuzz::scratch() / "b.gr.index");
  return 0;
}
