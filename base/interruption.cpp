#include "base/interruption.hpp"

#include <atomic>

namespace sluice::base {

namespace {
std::atomic<bool> requested{false};
}

void request_interruption() { requested.store(true, std::memory_order_relaxed); }
void clear_interruption() { requested.store(false, std::memory_order_relaxed); }
bool interruption_requested() { return requested.load(std::memory_order_relaxed); }

void throw_if_interrupted() {
  if (interruption_requested()) throw Interrupted();
}

}  // namespace sluice::base
