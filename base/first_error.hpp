// The first exception of any compute thread, kept while the others drain
// their work (so that no IO buffer is left behind) and rethrown after.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace sluice::base {

class FirstError {
 public:
  void capture() {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace sluice::base
