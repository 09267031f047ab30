// Marks a hand-off of memory between threads through moodycamel's queues
// for ThreadSanitizer, which cannot see the queues' fence-based
// synchronisation: release before enqueueing a pointer, acquire after
// dequeueing it. Compiles to nothing without TSan.
#pragma once

#include "base/sanitizers.hpp"

#if defined(SLUICE_THREAD_SANITIZER)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace sluice::io {

inline void handoff_release([[maybe_unused]] const void* key) {
#if defined(SLUICE_THREAD_SANITIZER)
  __tsan_release(const_cast<void*>(key));
#endif
}

inline void handoff_acquire([[maybe_unused]] const void* key) {
#if defined(SLUICE_THREAD_SANITIZER)
  __tsan_acquire(const_cast<void*>(key));
#endif
}

}  // namespace sluice::io
