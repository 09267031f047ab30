#include "base/thread_count.hpp"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace sluice::base {

namespace {

// The largest count already started once in this process.
std::atomic<int> proven{1};

// Starts count - 1 threads (the caller is one) and joins them: whether a
// pool or an OpenMP team of that size can start now.
void check_can_start(int count) {
  if (count <= proven.load()) return;
  static std::mutex one_probe_at_a_time;
  std::lock_guard lock(one_probe_at_a_time);
  // Each thread stays until all have started: alive together, as a team is.
  std::promise<void> all_started;
  std::shared_future<void> release = all_started.get_future().share();
  std::vector<std::thread> threads;
  threads.reserve(size_t(count));
  try {
    for (int t = 1; t < count; ++t) threads.emplace_back([release] { release.wait(); });
  } catch (const std::system_error& e) {
    const int started = int(threads.size()) + 1;
    all_started.set_value();
    for (auto& t : threads) t.join();
    throw_thread_start_failed("threads", started, count, e);
  }
  all_started.set_value();
  for (auto& t : threads) t.join();
  int seen = proven.load();
  while (seen < count && !proven.compare_exchange_weak(seen, count)) {
  }
}

}  // namespace

int max_threads() {
  return std::max(64, 4 * int(std::max(1u, std::thread::hardware_concurrency())));
}

int resolve_threads(int requested, const char* what) {
  if (requested < 0) throw std::invalid_argument(std::string(what) + " must not be negative");
  if (requested > max_threads()) {
    throw std::invalid_argument(std::string(what) + " " + std::to_string(requested) + " is more than the " +
                                std::to_string(max_threads()) + " threads sluice allows on this machine (4 per core, " +
                                "at least 64)");
  }
  const int threads = requested > 0 ? requested : std::max(1, omp_get_max_threads());
  check_can_start(threads);
  return threads;
}

void throw_thread_start_failed(const std::string& what, int started, int wanted, const std::exception& error) {
  std::string limit;
  struct rlimit processes {};
  if (::getrlimit(RLIMIT_NPROC, &processes) == 0 && processes.rlim_cur != RLIM_INFINITY) {
    limit = "; the limit on this user's processes and threads (ulimit -u) is " + std::to_string(processes.rlim_cur);
  }
  throw std::runtime_error("cannot start " + std::to_string(wanted) + " " + what + " (the system refused after " +
                           std::to_string(started) + ": " + error.what() + limit + "); ask for fewer");
}

}  // namespace sluice::base
