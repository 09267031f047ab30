// Vertex state that gather threads write while scatter threads read it
// (see engine.hpp): relaxed atomic loads and stores, plain moves on x86.
#pragma once

#include <atomic>

namespace sluice::algorithms {

template <class T>
T relaxed_load(const T& x) {
  return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_relaxed);
}

template <class T>
void relaxed_store(T& x, T value) {
  std::atomic_ref<T>(x).store(value, std::memory_order_relaxed);
}

template <class T>
void atomic_add(T& x, T value) {
  std::atomic_ref<T>(x).fetch_add(value, std::memory_order_relaxed);
}

}  // namespace sluice::algorithms
