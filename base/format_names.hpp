// The graph formats sluice reads, as a file's name or first bytes suggest
// them. Used to open a graph without --format, and to tell a user who gave
// an edge list where a layout belongs what the file seems to be.
#pragma once

#include <string>
#include <string_view>

namespace sluice::base {

// "el", "wel", "mtx", "adj", "bel", "bel64" (after .gz, .zst), "sluice",
// "blaze", "bv" (read in place, never compressed); "" when it names none.
std::string format_from_extension(const std::string& path);
// The format the first bytes of a file show; "" when they show none.
std::string format_from_bytes(std::string_view start);

}  // namespace sluice::base
