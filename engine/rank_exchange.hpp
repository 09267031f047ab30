// What the ranks of a distributed run exchange between EDGEMAPs (a rank's
// engine runs over its part: the edges into the vertices it owns, over
// every source). Each rank activates and updates only vertices of its own
// range, so what the others need is
//  - the next frontier: as ids or as a bitmap, whichever is fewer bytes
//    (min(V/8, 4 x members) with 32-bit ids; each rank's slice of the
//    bitmap, its own range, gathered by the others);
//  - the source values they read, as Gemini's mirrors: a rank is sent the
//    value of a vertex only if its part has an edge out of that vertex
//    (all of a range's values, or only a frontier's members).
// No rank gathers the whole result: the outputs and the summaries are
// folded from each rank's own range by the programs.
// Ranges follow each other in rank order, so concatenating the ranks'
// pieces in rank order keeps ids ascending. With one process every call
// returns what it was given.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "base/array.hpp"
#include "engine/communicator.hpp"
#include "engine/indexed_bitmap.hpp"
#include "engine/vertex_subset.hpp"
#include "layout/degree_array.hpp"

namespace sluice::engine {

// The sum over the ranks of `values` (one per vertex id, each rank's
// own), for this rank's range [begin, end) alone: each rank is sent the
// others' slices of its range and adds them up. Element i is vertex
// begin + i's: an array over every vertex id cost a rank a page for each
// of them wherever the allocator zero-filled it itself. With one process,
// a copy of the range.
layout::DegreeArray sum_over_ranks_for_own_range(Communicator& communicator, const layout::DegreeArray& values, uint64_t vertices,
                                                 uint64_t begin, uint64_t end);

class RankExchange {
 public:
  // `begin`, `end`: this rank's range (the others' are gathered here);
  // `degrees`: the out-degree of every vertex in this rank's part, which
  // says the sources it reads.
  RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end, const layout::DegreeArray& degrees,
               uint64_t round_bytes = default_round_bytes);

  Communicator& communicator() { return communicator_; }
  bool distributed() const { return communicator_.size() > 1; }
  uint64_t owned_begin() const { return bounds_[size_t(communicator_.rank())]; }
  uint64_t owned_end() const { return bounds_[size_t(communicator_.rank()) + 1]; }
  bool owns(uint64_t v) const { return v >= owned_begin() && v < owned_end(); }

  // The union of every rank's `mine` (members of its own range only).
  VertexSubset frontier(const VertexSubset& mine);

  // values[u] for every source u this rank's part reads, from its owner.
  // Both this and member_values only start the exchange: the values land
  // when the next EDGEMAP (of any engine of the run) has queued its reads,
  // or at communicator().finish_pending(). `values` must live until then
  // and its own range stay unchanged (what is sent is read in rounds, the
  // first now, the others then); its other entries may be read meanwhile.
  //
  // An exchange holds at most `round_bytes` (the constructor's) of values
  // each way at once: each round sends every other rank its next
  // values_per_round(bytes, ranks, round_bytes) (at least one).
  static constexpr uint64_t default_round_bytes = uint64_t(4) << 20;
  static uint64_t values_per_round(uint64_t bytes, int ranks, uint64_t round_bytes);
  // What a round sends, and receives, on one rank at most.
  static uint64_t round_bound(uint64_t bytes, int ranks, uint64_t round_bytes);
  template <class T>
  void source_values(std::span<T> values) {
    if (distributed()) exchange(values.data(), sizeof(T), nullptr);
  }
  // The same for the members of `members` only.
  template <class T>
  void member_values(const VertexSubset& members, T* values) {
    if (distributed()) exchange(values, sizeof(T), &members);
  }

  // Whether mirrors() or an exchange has found the mirrors yet (finding
  // them is collective: every rank's answer is the same).
  bool mirrors_found() const { return mirrors_found_; }
  // The other ranks' vertices this rank's part reads (its mirrors): the
  // sources of its edges that it does not own.
  const IndexedBitmap& mirrors() {
    find_mirrors();
    return reads_;
  }
  // How many (own vertex, other rank reading it) pairs there are: the
  // values source_values sends.
  uint64_t read_pairs() {
    find_mirrors();
    uint64_t pairs = 0;
    for (uint64_t count : read_counts_) pairs += count;
    return pairs;
  }
  // Calls f(r) for every other rank whose part reads own vertex v.
  template <class F>
  void for_each_reader(uint64_t v, F&& f) {
    find_mirrors();
    for (size_t r = 0; r < read_by_.size(); ++r) {
      if (read_by_[r].size() && read_by_[r].test(v - owned_begin())) f(r);
    }
  }
  // The rank that owns v.
  size_t owner(uint64_t v) const {
    return size_t(std::upper_bound(bounds_.begin(), bounds_.end() - 1, v) - bounds_.begin()) - 1;
  }

 private:
  VertexSubset gather_frontier(const VertexSubset& mine);
  // Learns, once, which of its vertices each rank reads.
  void find_mirrors();
  // The values (of `bytes` each) of the sources each rank reads, or of
  // those among `members`, sent to it by their owners.
  void exchange(void* values, size_t bytes, const VertexSubset* members);

  Communicator& communicator_;
  uint64_t vertices_;
  const layout::DegreeArray& degrees_;
  uint64_t round_bytes_;
  std::vector<uint64_t> bounds_;  // every rank's first vertex, then the vertex count
  bool mirrors_found_ = false;
  IndexedBitmap reads_;                   // the other ranks' vertices this rank's part reads
  std::vector<IndexedBitmap> read_by_;    // per rank: which of this rank's vertices (from owned_begin) it reads
  std::vector<uint64_t> read_counts_;     // per rank: how many of this rank's vertices it reads
  std::vector<uint64_t> mirror_counts_;   // per rank: how many of its vertices this rank reads
  uint64_t largest_pair_ = 0;             // the most values one rank sends another in a whole exchange, over all ranks
};

}  // namespace sluice::engine
