// Progress of long work on stderr, only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace sluice {

class Progress {
 public:
  Progress(std::string what, uint64_t total, bool enabled = true);
  ~Progress();
  void advance(uint64_t amount);
  void done();

 private:
  std::string what_;
  uint64_t total_, current_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace sluice
