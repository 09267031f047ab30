#include "base/large_blocks.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sluice::base {

void map_large_blocks_apart() {
#if defined(__GLIBC__)
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "mmap_threshold")) return;
  // Fixed, so no longer raised by what is freed (mallopt's documented effect).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

}  // namespace sluice::base
