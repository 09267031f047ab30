// An edge list's windows consumed on a thread of their own while the
// reader fills the next: the reader and the pass overlap, within two
// windows' arrays. A window's arrays are handed over by swapping them
// with the last window's, once that one is consumed, so a reader that
// reuses its arrays fills those. On 2 cores, the passes of a bounded
// conversion over a binary edge list waited on its reader (the pairs
// copied out of the page cache and widened) and the reader on them.
#pragma once

#include <functional>

#include "base/serial_worker.hpp"
#include "formats/csr.hpp"

namespace sluice::formats {

class WindowsBehind {
 public:
  explicit WindowsBehind(std::function<void(EdgeList<uint64_t>&)> consume) : consume_(std::move(consume)) {}
  // Unwinding: the window being consumed must not be freed under it.
  ~WindowsBehind() { worker_.wait_quietly(last_); }
  WindowsBehind(const WindowsBehind&) = delete;
  WindowsBehind& operator=(const WindowsBehind&) = delete;

  // Takes `window`'s edges, leaving it the arrays of the window before;
  // throws the error consuming an earlier window raised.
  void hand_over(EdgeList<uint64_t>& window) {
    worker_.wait(last_);
    std::swap(handed_, window);
    last_ = worker_.submit([this] { consume_(handed_); });
  }
  // Returns once every window handed over is consumed; throws as hand_over does.
  void finish() { worker_.wait(last_); }

 private:
  std::function<void(EdgeList<uint64_t>&)> consume_;
  EdgeList<uint64_t> handed_;
  base::SerialWorker::Ticket last_ = 0;
  base::SerialWorker worker_;  // last: its thread goes first
};

}  // namespace sluice::formats
