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

// `static constexpr bool pull = false;`: never pulled.
template <class Functions>
constexpr bool declines_pull() {
  if constexpr (requires { Functions::pull; }) return !Functions::pull;
  else return false;
}

}  // namespace sluice::engine::detail
