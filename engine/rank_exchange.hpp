// What the ranks of a distributed run exchange between EDGEMAPs (a rank's
// engine runs over its part: the edges into the vertices it owns, over
// every source). Each rank activates and updates only vertices of its own
// range, so what the others need is
//  - the next frontier: as ids or as a bitmap, whichever is fewer bytes
//    (min(V/8, 4 x members) with 32-bit ids);
//  - the source-side values they read: a whole range (PageRank's shares)
//    or only the frontier's members (PageRank-delta's changes).
// Ranges follow each other in rank order, so concatenating the ranks'
// pieces in rank order keeps ids ascending. With one process every call
// returns what it was given.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "engine/communicator.hpp"
#include "engine/vertex_subset.hpp"

namespace sluice::engine {

class RankExchange {
 public:
  // `begin`, `end`: this rank's range; the others' are gathered here.
  RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end);

  Communicator& communicator() { return communicator_; }
  bool distributed() const { return communicator_.size() > 1; }
  uint64_t owned_begin() const { return bounds_[size_t(communicator_.rank())]; }
  uint64_t owned_end() const { return bounds_[size_t(communicator_.rank()) + 1]; }
  // Every rank's first vertex, then the vertex count.
  const std::vector<uint64_t>& bounds() const { return bounds_; }

  // The union of every rank's `mine` (members of its own range only).
  VertexSubset frontier(const VertexSubset& mine);

  // values[v] for every v, from the rank that owns v (in place).
  template <class T>
  void owned_values(std::span<T> values) {
    if (!distributed()) return;
    std::vector<uint64_t> counts;
    for (size_t r = 0; r + 1 < bounds_.size(); ++r) counts.push_back((bounds_[r + 1] - bounds_[r]) * sizeof(T));
    communicator_.all_gather_in_place(std::span<char>(reinterpret_cast<char*>(values.data()), values.size_bytes()), counts);
  }
  // values[v] for every member v of `members`, from the rank that owns v.
  template <class T>
  void member_values(const VertexSubset& members, T* values) {
    if (!distributed()) return;
    std::vector<T> mine;
    members.for_each([&](uint64_t v) {
      if (v >= owned_begin() && v < owned_end()) mine.push_back(values[v]);
    });
    const std::vector<T> all = communicator_.all_gather(std::span<const T>(mine));
    size_t i = 0;
    members.for_each([&](uint64_t v) { values[v] = all[i++]; });
  }

 private:
  Communicator& communicator_;
  uint64_t vertices_;
  std::vector<uint64_t> bounds_;
};

}  // namespace sluice::engine
