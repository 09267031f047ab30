// The engine's compute threads, started once and kept for its lifetime:
// starting threads for every EDGEMAP costs more than the short EDGEMAPs of
// a high-diameter graph take. run(job) calls job(t) for t in [0, size())
// at once, t = 0 on the calling thread, and returns when every call has
// returned. Idle workers sleep on a condition variable (two cores: nothing
// may spin).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace sluice::engine {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }
  // Runs job on every thread; rethrows the first exception any call threw
  // (after all calls have returned). Not reentrant.
  void run(const std::function<void(int)>& job);

  // Calls f(t, begin, end) on contiguous pieces of [0, count), piece t on
  // thread t, in parallel;
  // piece boundaries are multiples of `align` (so that pieces writing bits
  // of one bitmap never share a word).
  template <class F>
  void parallel_for(uint64_t count, uint64_t align, F&& f) {
    const uint64_t pieces = uint64_t(size());
    const uint64_t units = (count + align - 1) / align;
    run([&](int t) {
      uint64_t begin = units * uint64_t(t) / pieces * align, end = units * uint64_t(t + 1) / pieces * align;
      if (end > count) end = count;
      if (begin < end) f(t, begin, end);
    });
  }

 private:
  void stop();  // wakes and joins every worker
  void work(int t);
  void call(int t);

  std::mutex mutex_;
  std::condition_variable start_, finished_;
  const std::function<void(int)>* job_ = nullptr;
  uint64_t generation_ = 0;
  int running_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

}  // namespace sluice::engine
