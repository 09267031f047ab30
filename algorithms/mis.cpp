#include "algorithms/mis.hpp"

#include <atomic>

namespace sluice::algorithms {

namespace {

enum State : uint8_t { undecided, in_set, out_of_set };

struct Priority {
  uint64_t seed;
  bool before(uint64_t a, uint64_t b) const {
    const uint64_t pa = mis_priority(a, seed), pb = mis_priority(b, seed);
    return pa < pb || (pa == pb && a < b);
  }
};

// From every undecided vertex: a neighbour it goes before cannot join yet.
struct Block {
  const uint8_t* state;
  uint8_t* blocked;
  Priority priority;

  bool cond(uint64_t dst) const {
    return state[dst] == undecided && !std::atomic_ref<const uint8_t>(blocked[dst]).load(std::memory_order_relaxed);
  }
  bool scatter(uint64_t src, uint64_t dst, float, uint8_t& out) const {
    out = 1;
    return src != dst && priority.before(src, dst);
  }
  bool gather(uint64_t dst, const uint8_t&) {
    std::atomic_ref<uint8_t>(blocked[dst]).store(1, std::memory_order_relaxed);
    return false;
  }
  bool gather_atomic(uint64_t dst, const uint8_t& value) { return gather(dst, value); }  // a relaxed store either way
  uint8_t combine(const uint8_t& a, const uint8_t& b) const { return a | b; }
};

// From the vertices that joined: their undecided neighbours leave.
struct Leave {
  uint8_t* state;

  bool cond(uint64_t dst) const { return std::atomic_ref<uint8_t>(state[dst]).load(std::memory_order_relaxed) == undecided; }
  bool scatter(uint64_t src, uint64_t dst, float, uint8_t& out) const {
    out = 1;
    return src != dst;
  }
  bool gather(uint64_t dst, const uint8_t&) {
    std::atomic_ref<uint8_t>(state[dst]).store(out_of_set, std::memory_order_relaxed);
    return false;
  }
  bool gather_atomic(uint64_t dst, const uint8_t& value) { return gather(dst, value); }
  uint8_t combine(const uint8_t& a, const uint8_t& b) const { return a | b; }
};

}  // namespace

uint64_t mis_priority(uint64_t v, uint64_t seed) {  // splitmix64
  uint64_t z = v + seed * 0x9e3779b97f4a7c15ULL + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

MisResult mis(engine::Engine& engine, uint64_t seed, RunTrace& trace) {
  const uint64_t n = engine.graph().vertices();
  // On ranks each decides its own range; the vertices that join or stay
  // undecided are shared as frontiers.
  engine::RankExchange& ranks = engine.ranks();
  const uint64_t first = engine.owned_begin(), last = engine.owned_end();
  auto owned = [&](uint64_t v) { return v >= first && v < last; };
  std::vector<uint8_t> state(n, undecided), blocked(n, 0);
  MisResult result;
  engine::VertexSubset left = engine::VertexSubset::all(n);
  while (!left.empty()) {
    Block block{state.data(), blocked.data(), Priority{seed}};
    engine.edge_map<uint8_t>(left, block, false);
    trace.record(engine, "block", result.rounds);
    const engine::VertexSubset joined = ranks.frontier(engine.vertex_map(left, [&](uint64_t v) {
      if (!owned(v) || blocked[v]) return false;
      state[v] = in_set;
      return true;
    }));
    engine.vertex_map(joined, [&](uint64_t v) {
      state[v] = in_set;  // on ranks: the other ranks' members too
      return false;
    });
    Leave leave{state.data()};
    engine.edge_map<uint8_t>(joined, leave, false);
    trace.record(engine, "leave", result.rounds);
    left = ranks.frontier(engine.vertex_map(left, [&](uint64_t v) {
      blocked[v] = 0;
      return owned(v) && state[v] == undecided;
    }));
    ++result.rounds;
  }
  result.member.assign(n, 0);
  // Each rank's own range; the others' stay 0 there (ranks write their
  // own shares of the output).
  for (uint64_t v = first; v < last; ++v) {
    result.member[v] = state[v] == in_set;
    result.members += result.member[v];
  }
  result.members = ranks.communicator().sum(result.members);
  return result;
}

}  // namespace sluice::algorithms
