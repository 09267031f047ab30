#include "base/launcher.hpp"

#include <cstdlib>
#include <initializer_list>

namespace sluice::base {

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

}  // namespace sluice::base
