#include "io/io_stats.hpp"

namespace sluice::io {

unsigned LatencyHistogram::bucket_of(uint64_t ns) {
  if (ns < 8) return unsigned(ns);
  unsigned exponent = 63 - unsigned(__builtin_clzll(ns));  // >= 3
  unsigned sub = unsigned(ns >> (exponent - 3)) & 7;
  unsigned b = (exponent - 2) * 8 + sub;
  return b < buckets ? b : buckets - 1;
}

uint64_t LatencyHistogram::value_of(unsigned bucket) {
  if (bucket < 8) return bucket;
  unsigned exponent = bucket / 8 + 2, sub = bucket % 8;
  uint64_t low = (uint64_t(8 + sub)) << (exponent - 3);
  return low + ((uint64_t(1) << (exponent - 3)) >> 1);  // the middle of the bucket
}

uint64_t LatencyHistogram::count() const {
  uint64_t total = 0;
  for (auto& c : counts_) total += c.load(std::memory_order_relaxed);
  return total;
}

uint64_t LatencyHistogram::percentile(double fraction) const {
  uint64_t total = count();
  if (total == 0) return 0;
  uint64_t target = uint64_t(fraction * double(total));
  if (target >= total) target = total - 1;
  uint64_t seen = 0;
  for (unsigned b = 0; b < buckets; ++b) {
    seen += counts_[b].load(std::memory_order_relaxed);
    if (seen > target) return value_of(b);
  }
  return value_of(buckets - 1);
}

void LatencyHistogram::add(const LatencyHistogram& other) {
  for (unsigned b = 0; b < buckets; ++b) counts_[b].fetch_add(other.counts_[b].load(std::memory_order_relaxed), std::memory_order_relaxed);
}

void LatencyHistogram::reset() {
  for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
}

}  // namespace sluice::io
