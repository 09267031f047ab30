#include "engine/worker_pool.hpp"

#include <algorithm>
#include <system_error>

#include "base/thread_count.hpp"

namespace sluice::engine {

WorkerPool::WorkerPool(int threads) {
  workers_.reserve(size_t(std::max(1, threads)));
  try {
    for (int t = 1; t < std::max(1, threads); ++t) workers_.emplace_back([this, t] { work(t); });
  } catch (const std::system_error& e) {
    const int started = size();
    stop();  // the threads that did start
    base::throw_thread_start_failed("compute threads", started, threads, e);
  }
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void WorkerPool::call(int t) {
  try {
    (*job_)(t);
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
  }
}

void WorkerPool::run(const std::function<void(int)>& job) {
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    error_ = nullptr;
    running_ = int(workers_.size());
    ++generation_;
  }
  if (!workers_.empty()) start_.notify_all();
  call(0);
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [&] { return running_ == 0; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void WorkerPool::work(int t) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    call(t);
    std::lock_guard lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

}  // namespace sluice::engine
