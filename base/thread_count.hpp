// How many threads a run may use, decided in one place. A request of 0
// means the OpenMP default (every core, unless OMP_NUM_THREADS says
// otherwise); any request is capped, so that an absurd --threads is an
// error that names the cap rather than a crash inside a thread library;
// and a count the system cannot start now (a pids limit, ulimit -u) is
// found before any parallel loop, where OpenMP could only abort.
#pragma once

#include <string>

namespace sluice::base {

// The most threads any pool or loop may have: 4 per core, at least 64.
int max_threads();

// `requested` (0: the default), checked against max_threads() and against
// what the system lets this process start. `what` names the setting in
// the error ("--threads", "compute threads"). Throws std::invalid_argument beyond the cap,
// std::runtime_error when the threads cannot be started.
int resolve_threads(int requested, const char* what = "threads");

// Throws std::runtime_error naming `what` and the system's limits when a
// thread could not be started (std::system_error from std::thread).
[[noreturn]] void throw_thread_start_failed(const std::string& what, int started, int wanted, const std::exception& error);

}  // namespace sluice::base
