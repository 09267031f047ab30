// What SIGINT and SIGTERM remove before they end the process: the
// temporaries of uncommitted outputs and the directories made for them.
// A fixed table of owned C strings, claimed and released with atomics (a
// handler may only read it and call unlink or rmdir), with room for a
// layout split for the most ranks sluice writes.
#pragma once

#include <cstddef>
#include <string>

namespace sluice::base {

// Until forgotten, `path` is removed on SIGINT and SIGTERM: a file
// unlinked, a directory removed if it is empty (after every file). The
// ticket forgets it again.
size_t remove_on_signals(const std::string& path, bool directory = false);
void forget_on_signals(size_t ticket);
inline constexpr size_t no_ticket = ~size_t(0);  // the table was full: not removed on a signal

// Installs SIGINT and SIGTERM handlers that remove what is remembered,
// then let the signal end the process as before. The removal runs on the
// calling thread (a signal taken by another is passed to it), which must
// be the one that creates the outputs.
void remove_temporaries_on_signals();

}  // namespace sluice::base
