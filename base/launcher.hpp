// Whether an MPI launcher started this process, and in a job of how many
// ranks: read from the launcher's environment (OpenMPI's mpirun, or a PMI
// launcher such as MPICH's), so that a process alone never touches MPI.
#pragma once

#include <string>

namespace sluice::base {

// The job's size; 0 when no launcher started this process.
int launched_ranks();
// Of those, the ranks on this machine (1 when the launcher does not say).
int launched_ranks_here();

// The machine this process runs on ("" if it has no name): the run
// record's host, and the machine a rank's error names.
std::string host_name();

}  // namespace sluice::base
