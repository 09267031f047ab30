// Whether a layout that does not record symmetry stores every edge both
// ways, checked before a program takes --symmetric's word for it (taken on
// a directed layout, WCC counted 24,687 components where there are 18,729).
#pragma once

#include <string>

#include "engine/disk_graph.hpp"

namespace sluice::programs {

// Checks that every vertex has as many in-edges as out-edges (from the
// transpose's index when the layout has one, else counted in one parallel
// pass over the edges) and that `samples` edges drawn at random each have
// their reverse. Returns what was checked, for the run's first line;
// throws po::error naming the first vertex or edge that disproves it.
std::string check_symmetric(const engine::DiskGraph& graph, int threads, unsigned samples = 1000);

}  // namespace sluice::programs
