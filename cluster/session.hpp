// How a program runs: alone, or as one rank of an MPI job (`mpirun -np R
// sluice-bfs g.sluice`). A process started by mpirun (its launcher's
// environment says so) initializes MPI; one started alone never does, so
// a plain run pays nothing for MPI. In a job, an error on any rank ends
// the whole job (MPI_Abort) after printing which rank failed and why: no
// rank is left waiting in a collective for one that is gone.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/communicator.hpp"

namespace sluice::cluster {

class Session {
 public:
  // Initializes MPI when mpirun started this process; refuses, when this
  // sluice was built without MPI, a job of several ranks. Fixes glibc's
  // mmap threshold first, as sluice's programs do (base/large_blocks.hpp).
  Session(int& argc, char**& argv);
  ~Session();  // finalizes MPI
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Null when alone.
  engine::Communicator* communicator() { return communicator_.get(); }

  // Runs `body`. Alone, its exceptions pass through. In a job, an
  // exception is printed as "PROGRAM: rank R of N on HOST: error: ..." and ends
  // every rank with exit status 1.
  int run(const std::string& program, const std::function<int()>& body);

 private:
  std::unique_ptr<engine::Communicator> communicator_;
  bool initialized_ = false;
};

}  // namespace sluice::cluster
