// The destinations a run's pulls may still want, for functions whose cond
// only ever turns false during the run (BFS: "not visited yet"). The first
// pull that shares it looks at every vertex, as any pull does, and keeps
// those whose cond held; each later one looks only at those kept, and
// keeps those whose cond still holds. On RMAT 22 a BFS's last pulls find
// a few thousand open destinations, and looking at all 4 M vertices for
// them was most of those levels.
//
// One per run: a fresh object stands for every vertex. Sharing it between
// EDGEMAPs whose cond can turn true again loses destinations.
#pragma once

#include <cstdint>

#include "engine/indexed_bitmap.hpp"

namespace sluice::engine {

class OpenDestinations {
 public:
  // Whether a pull has narrowed the set (before that: every vertex).
  bool narrowed() const { return narrowed_; }
  // How many the last pull left (every vertex with in-edges whose cond
  // held when it planned; 0 before any pull).
  uint64_t count() const { return bits_.count(); }

 private:
  friend class Engine;
  IndexedBitmap bits_;
  bool narrowed_ = false;
};

}  // namespace sluice::engine
