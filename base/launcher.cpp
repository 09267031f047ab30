#include "base/launcher.hpp"

#include <unistd.h>

#include <cstdlib>
#include <initializer_list>

namespace sluice::base {

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

int launched_ranks_here() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return launched_ranks() ? 1 : 0;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof(name) - 1) == 0 ? name : "";
}

}  // namespace sluice::base
