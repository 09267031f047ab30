// Progress of long work on stderr, only when stderr is a terminal: the
// phase, how far (of how much, when known), the rate and the time left.
// advance() may be called from several threads at once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace sluice::base {

class Progress {
 public:
  // total 0: unknown (no percentage, no time left). unit: "bytes" prints
  // MB and MB/s; anything else ("edges") prints M of it and M/s.
  Progress(std::string what, uint64_t total, bool enabled = true, std::string unit = "edges");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t amount);
  // Replaces the phase text (e.g. "bfs: level 7") on the next print.
  void set_what(std::string what);
  void done();
  bool enabled() const { return enabled_; }

 private:
  void print(const char* end);
  std::string what_, unit_;
  uint64_t total_;
  std::atomic<uint64_t> current_{0};
  bool enabled_, printed_ = false;  // work too short to print leaves no line
  std::mutex printing_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sluice::base
