// The commands that bring a graph in: `sluice convert` and `sluice
// generate`, also run in-process by the Python module (sluice.convert,
// sluice.generate). argv[0] is the command's name.
#pragma once

namespace sluice::programs {

int convert_command(int argc, char** argv);
int generate_command(int argc, char** argv);

}  // namespace sluice::programs
