// One thread that runs tasks in the order they were handed over: work
// taken off a pass's thread while the pass goes on. A bounded
// conversion gives it the writes and reads of its scratch files, whose
// copies into and out of the page cache were a third of its cycles.
//
// A task that throws keeps its error for the callers, who get it at
// every submit or wait after; the tasks queued after it are skipped. Whoever
// hands over a task that uses a buffer waits for it before freeing the
// buffer (wait_quietly where an error is already on its way).
//
// A bounded conversion hands over tens of thousands of small writes a
// second, each of which a caller then waits for, usually long done: that
// wait reads two atomics and takes no lock, and the worker wakes waiters
// only after it lets go of the lock, where a waiter woken under it went
// straight back to sleep on the mutex (converting RMAT 24 under
// --memory-limit 512m: 85 K futex calls and 50 K context switches,
// against 118 K and 83 K).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace sluice::base {

class SerialWorker {
 public:
  // Tasks are numbered from 1 as they are handed over; 0 is "none".
  using Ticket = uint64_t;

  SerialWorker();
  // Runs what is still queued, then joins.
  ~SerialWorker();
  SerialWorker(const SerialWorker&) = delete;
  SerialWorker& operator=(const SerialWorker&) = delete;

  Ticket submit(std::function<void()> task);
  // Returns once task `ticket` and every one before it has run; throws
  // the first error a task raised.
  void wait(Ticket ticket);
  // The same wait, never throwing: for destructors and unwinding.
  void wait_quietly(Ticket ticket) noexcept;

 private:
  void run();
  void wait_for(Ticket ticket, std::unique_lock<std::mutex>& lock);
  void rethrow(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable queued_, finished_;
  std::deque<std::function<void()>> tasks_;
  Ticket submitted_ = 0;
  std::atomic<Ticket> done_{0};  // written under mutex_; read without it by a wait that needs no sleep
  std::atomic<bool> failed_{false};  // error_ is set
  std::exception_ptr error_;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once the rest exists
};

}  // namespace sluice::base
