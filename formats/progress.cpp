#include "formats/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace sluice {

Progress::Progress(std::string what, uint64_t total, bool enabled)
    : what_(std::move(what)), total_(total), enabled_(enabled && ::isatty(2)), last_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { done(); }

void Progress::advance(uint64_t amount) {
  current_ += amount;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  double percent = total_ ? 100.0 * double(current_) / double(total_) : 100.0;
  std::fprintf(stderr, "\r%s: %5.1f%%", what_.c_str(), percent);
  std::fflush(stderr);
}

void Progress::done() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%s: done    \n", what_.c_str());
  enabled_ = false;
}

}  // namespace sluice
