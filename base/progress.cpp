#include "base/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace sluice::base {

Progress::Progress(std::string what, uint64_t total, bool enabled, std::string unit)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(enabled && ::isatty(2)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { done(); }

void Progress::advance(uint64_t amount) {
  current_.fetch_add(amount, std::memory_order_relaxed);
  if (!enabled_) return;
  // One thread prints, at most five times a second; the others move on.
  std::unique_lock lock(printing_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  print("");
  printed_ = true;
}

void Progress::set_what(std::string what) {
  std::lock_guard lock(printing_);
  what_ = std::move(what);
}

void Progress::print(const char* end) {
  const uint64_t current = current_.load(std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const bool bytes = unit_ == "bytes";
  const double scale = 1e6;
  const std::string amount = bytes ? " MB" : " M " + unit_, per = bytes ? "MB" : "M " + unit_;
  char line[256];
  int used = std::snprintf(line, sizeof(line), "\r%s: %.1f%s", what_.c_str(), double(current) / scale,
                           amount.c_str());
  if (total_ > 0 && used > 0 && size_t(used) < sizeof(line)) {
    used += std::snprintf(line + used, sizeof(line) - size_t(used), " of %.1f (%.0f%%)", double(total_) / scale,
                          100.0 * double(current) / double(total_));
  }
  if (seconds > 0 && used > 0 && size_t(used) < sizeof(line)) {
    const double rate = double(current) / seconds;
    used += std::snprintf(line + used, sizeof(line) - size_t(used), ", %.1f %s/s", rate / scale, per.c_str());
    if (total_ > current && rate > 0 && size_t(used) < sizeof(line)) {
      used += std::snprintf(line + used, sizeof(line) - size_t(used), ", %.0f s left", double(total_ - current) / rate);
    } else if (size_t(used) < sizeof(line)) {
      used += std::snprintf(line + used, sizeof(line) - size_t(used), ", %.1f s", seconds);
    }
  }
  std::fprintf(stderr, "%s\033[K%s", line, end);  // \033[K: clear what a longer line left
  std::fflush(stderr);
}

void Progress::done() {
  if (!enabled_) return;
  std::lock_guard lock(printing_);
  if (printed_) print("\n");
  enabled_ = false;
}

}  // namespace sluice::base
