// What the IO path did: requests and bytes per drive, the time a drive had
// requests in flight, and a log-linear latency histogram (8 sub-buckets per
// power of two, so percentiles are within about 6%).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace sluice::io {

class LatencyHistogram {
 public:
  static constexpr unsigned buckets = 64 * 8;
  void record(uint64_t ns) { counts_[bucket_of(ns)].fetch_add(1, std::memory_order_relaxed); }
  uint64_t count() const;
  // The latency below which `fraction` of the requests completed (ns).
  uint64_t percentile(double fraction) const;
  void add(const LatencyHistogram& other);
  void reset();

 private:
  static unsigned bucket_of(uint64_t ns);
  static uint64_t value_of(unsigned bucket);
  std::array<std::atomic<uint64_t>, buckets> counts_{};
};

struct DriveStats {
  std::atomic<uint64_t> requests{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> busy_ns{0};  // time with at least one request in flight
  std::atomic<uint64_t> latency_ns{0};  // sum over requests
  LatencyHistogram latency;
  void reset() {
    latency_ns = 0;
    requests = 0;
    bytes = 0;
    busy_ns = 0;
    latency.reset();
  }
};

}  // namespace sluice::io
