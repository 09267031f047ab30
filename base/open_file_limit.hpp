// How many files a process may hold open at once (RLIMIT_NOFILE): raised
// to the hard limit when a writer must hold more than the soft one
// allows, and a clear error, before any work, when even that is short.
#pragma once

#include <cstdint>
#include <string>

namespace sluice::base {

// Makes room for `files` more open descriptors (beyond a margin for the
// process's own), raising the soft limit up to the hard one. Throws
// std::runtime_error naming `what` and both numbers when that is not
// enough.
void reserve_open_files(uint64_t files, const std::string& what);

}  // namespace sluice::base
