#include "cluster/session.hpp"

#include "base/large_blocks.hpp"
#include "base/launcher.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#ifdef SLUICE_WITH_MPI
#include <mpi.h>

#include "cluster/mpi_communicator.hpp"
#endif

namespace sluice::cluster {

Session::Session([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
  base::map_large_blocks_apart();  // as sluice's own programs: a freed array's pages go back
  const int ranks = base::launched_ranks();
  if (ranks == 0) return;
#ifdef SLUICE_WITH_MPI
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Init_thread failed");
  }
  initialized_ = true;
  communicator_ = std::make_unique<MpiCommunicator>();
#else
  if (ranks > 1) {
    throw std::runtime_error("started as one of " + std::to_string(ranks) +
                             " ranks, but this sluice was built without MPI (install libopenmpi-dev and build again)");
  }
#endif
}

Session::~Session() {
#ifdef SLUICE_WITH_MPI
  if (initialized_) MPI_Finalize();
#endif
}

int Session::run(const std::string& program, const std::function<int()>& body) {
  if (!communicator_ || communicator_->size() == 1) return body();
  try {
    return body();
  } catch (const std::exception& e) {
    // The machine too: a missing part is missing there.
    const std::string host = base::host_name();
    std::fprintf(stderr, "%s: rank %d of %d on %s: error: %s\n", program.c_str(), communicator_->rank(), communicator_->size(),
                 host.empty() ? "an unnamed host" : host.c_str(), e.what());
    std::fflush(stderr);
  }
#ifdef SLUICE_WITH_MPI
  MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  std::_Exit(1);
}

}  // namespace sluice::cluster
