// Whether an MPI launcher started this process, and in a job of how many
// ranks: read from the launcher's environment (OpenMPI's mpirun, or a PMI
// launcher such as MPICH's), so that a process alone never touches MPI.
#pragma once

namespace sluice::base {

// The job's size; 0 when no launcher started this process.
int launched_ranks();

}  // namespace sluice::base
