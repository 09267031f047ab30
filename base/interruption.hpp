// A process-wide request to stop long work early (the Python module sets
// it on Ctrl-C). Work checks it where stopping is clean: between blocks of
// a block API pass, after each EDGEMAP of an algorithm, and throws
// Interrupted, so every RAII owner (temporary files, engines, threads)
// unwinds as for any other error.
#pragma once

#include <stdexcept>

namespace sluice::base {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

void request_interruption();
void clear_interruption();
bool interruption_requested();
// Throws Interrupted when an interruption was requested.
void throw_if_interrupted();

}  // namespace sluice::base
