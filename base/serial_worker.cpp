#include "base/serial_worker.hpp"

namespace sluice::base {

SerialWorker::SerialWorker() : thread_([this] { run(); }) {}

SerialWorker::~SerialWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_one();
  thread_.join();
}

SerialWorker::Ticket SerialWorker::submit(std::function<void()> task) {
  std::unique_lock lock(mutex_);
  rethrow(lock);
  tasks_.push_back(std::move(task));
  const Ticket ticket = ++submitted_;
  lock.unlock();
  queued_.notify_one();
  return ticket;
}

void SerialWorker::wait(Ticket ticket) {
  // done_ is raised after the task's effects, with release: seen here, they are.
  if (done_.load(std::memory_order_acquire) >= ticket && !failed_.load(std::memory_order_acquire)) return;
  std::unique_lock lock(mutex_);
  wait_for(ticket, lock);
  rethrow(lock);
}

void SerialWorker::wait_quietly(Ticket ticket) noexcept {
  if (done_.load(std::memory_order_acquire) >= ticket) return;
  std::unique_lock lock(mutex_);
  wait_for(ticket, lock);
}

void SerialWorker::wait_for(Ticket ticket, std::unique_lock<std::mutex>& lock) {
  finished_.wait(lock, [&] { return done_.load(std::memory_order_relaxed) >= ticket; });
}

// To every caller after it: what they wait for may have been skipped.
void SerialWorker::rethrow(std::unique_lock<std::mutex>&) {
  if (error_) std::rethrow_exception(error_);
}

void SerialWorker::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    queued_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, and nothing is left
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    if (!error_) {  // after an error the rest are skipped: they build on it
      lock.unlock();
      try {
        task();
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        failed_.store(true, std::memory_order_release);
        lock.unlock();
      }
      task = nullptr;
      lock.lock();
    }
    done_.store(done_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    lock.unlock();
    finished_.notify_all();
    lock.lock();
  }
}

}  // namespace sluice::base
