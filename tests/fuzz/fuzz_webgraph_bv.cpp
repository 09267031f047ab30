// WebGraph BV: the properties file and the bit stream (length prefixed);
// the offsets are rebuilt by the sequential pass.
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> files = sluice::fuzz::parts(data, size, 2);
  sluice::fuzz::put_text("w.properties", files[0]);
  sluice::fuzz::put_text("w.graph", files[1]);
  std::filesystem::remove(sluice::fuzz::scratch() / "w.offsets");
  sluice::fuzz::read_everything(sluice::fuzz::scratch() / "w.graph");
  return 0;
}
