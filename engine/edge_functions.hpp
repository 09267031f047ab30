// What an EDGEMAP's functions object may offer (see engine.hpp), as
// compile-time tests the engine branches on.
#pragma once

#include <concepts>
#include <cstdint>

namespace sluice::engine::detail {

// gather(dst, value): applied by one thread at a time per destination.
template <class Value, class Functions>
constexpr bool has_gather = requires(Functions& f, const Value& value) { f.gather(uint64_t{}, value); };

// gather_atomic(dst, value): safe on any thread (the atomic variant).
template <class Value, class Functions>
constexpr bool has_gather_atomic = requires(Functions& f, const Value& value) { f.gather_atomic(uint64_t{}, value); };

// combine(a, b): associative and commutative, so that gathering a then b
// equals gathering combine(a, b); pull then sums a destination's updates
// in a register and gathers once per page.
template <class Value, class Functions>
constexpr bool combines = requires(Functions& f, const Value& value) {
  { f.combine(value, value) } -> std::convertible_to<Value>;
};

// prefetch(src): pull calls it for the source a few records ahead of the
// walk, so that the state scatter reads is on its way when needed (pulled
// sources are random reads).
template <class Functions>
constexpr bool prefetches = requires(const Functions& f) { f.prefetch(uint64_t{}); };

// prefetch_destination(dst): a push calls it for a destination a few ahead
// of the one it gathers, so that what cond and gather touch of it is on its
// way (the destinations are random reads): over the sample file
// (sample_stream.hpp, Afforest's sampling) a few vertices ahead, and in a
// bin's gather a few records ahead.
template <class Functions>
constexpr bool prefetches_destination = requires(const Functions& f) { f.prefetch_destination(uint64_t{}); };

// `static constexpr bool cond_always_true = true;`: cond holds for every
// destination (PageRank, SpMV). Pull then skips finding its destinations
// (a pass over every vertex per EDGEMAP) and walks every in-edge page.
template <class Functions>
constexpr bool cond_always_true() {
  if constexpr (requires { Functions::cond_always_true; }) return Functions::cond_always_true;
  else return false;
}

// `static constexpr bool pull = false;`: never pulled.
template <class Functions>
constexpr bool declines_pull() {
  if constexpr (requires { Functions::pull; }) return !Functions::pull;
  else return false;
}

}  // namespace sluice::engine::detail
