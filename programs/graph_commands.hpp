// The commands that bring a graph in: `sluice convert` and `sluice
// generate`, also run in-process by the Python module (sluice.convert,
// sluice.generate). argv[0] is the command's name.
#pragma once

#include "engine/communicator.hpp"

namespace sluice::programs {

// Under mpirun (`communicator` of several ranks), the ranks convert
// together (programs/convert_on_ranks.hpp).
int convert_command(int argc, char** argv, engine::Communicator* communicator = nullptr);
int generate_command(int argc, char** argv);

}  // namespace sluice::programs
