// Which manifest a process opens of a ranked layout (`sluice convert
// --ranks R`): the top manifest lists one part per MPI rank, and rank r
// opens part r, checked to be part r of this very layout. A part is never
// opened on its own, and a layout split for R ranks is never run by
// another count: either would give a silent wrong answer (edges missing).
#pragma once

#include <optional>
#include <string>

namespace sluice::layout {

// This process's place in a distributed run.
struct RankChoice {
  unsigned rank = 0, ranks = 1;
  // The transpose graph's part over the rank's range (its edges reversed
  // into the range), for the programs that walk edges backwards.
  bool transpose_graph = false;
};

// The manifest to open for `path` as `rank` (none: a process alone):
// `path` itself for a plain layout, or the part's manifest for a ranked
// one. Throws InputError naming both counts, the part and the whole when
// they do not fit; a plain layout run by several ranks is refused too.
std::string manifest_to_open(const std::string& path, std::optional<RankChoice> rank);

}  // namespace sluice::layout
