// A vertex's whole out-list as Engine::for_each_list hands it over, and the
// assembly of lists that span pages: their pieces arrive in pages read by
// different compute threads, in any order.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace sluice::engine {

struct NeighbourList {
  uint64_t vertex = 0;
  std::span<const uint64_t> targets;  // in the layout's order
  std::span<const float> weights;     // beside the targets; empty when the graph is unweighted
  int thread = 0;                     // the compute thread calling, for per-thread results
};

// The lists that span pages, each held until its last piece arrives. At
// most one list starts and one ends in a page, so few are pending at once;
// what they hold is at most the lists of the pages in flight.
class ListAssembly {
 public:
  struct Whole {
    std::vector<uint64_t> targets;
    std::vector<float> weights;
  };
  explicit ListAssembly(bool weighted) : weighted_(weighted) {}

  // Adds the piece [lo, hi) of v's list [begin, end): fill(targets,
  // weights) writes its hi - lo entries (weights null when unweighted).
  // Returns the whole list when this piece completes it. Thread-safe:
  // pieces of one list land in disjoint places, written outside the lock.
  template <class Fill>
  std::optional<Whole> add(uint64_t v, uint64_t begin, uint64_t end, uint64_t lo, uint64_t hi, Fill&& fill) {
    Pending* pending;
    {
      std::lock_guard lock(mutex_);
      auto [at, fresh] = pending_.try_emplace(v);
      if (fresh) {
        at->second.list.targets.resize(end - begin);
        if (weighted_) at->second.list.weights.resize(end - begin);
      }
      pending = &at->second;  // nodes of an unordered_map stay put
    }
    fill(pending->list.targets.data() + (lo - begin), weighted_ ? pending->list.weights.data() + (lo - begin) : nullptr);
    std::lock_guard lock(mutex_);
    pending->filled += hi - lo;
    if (pending->filled < end - begin) return std::nullopt;
    Whole whole = std::move(pending->list);
    pending_.erase(v);
    return whole;
  }

 private:
  struct Pending {
    Whole list;
    uint64_t filled = 0;
  };
  bool weighted_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, Pending> pending_;
};

}  // namespace sluice::engine
