#include "io/read_benchmark.hpp"

#include <chrono>
#include <random>

namespace sluice::io {

BenchResult run_read_benchmark(const DriveSet& drives, const BenchSpec& spec) {
  for (unsigned d = 0; d < drives.drives(); ++d) {
    if (drives.drive(d).size() < spec.block_bytes) {
      throw std::invalid_argument(drives.drive(d).path() + ": smaller than one " + std::to_string(spec.block_bytes) + "-byte block");
    }
  }
  IoOptions options;
  options.backend = spec.backend;
  options.queue_depth = spec.queue_depth;
  options.max_request_bytes = (spec.block_bytes + base::io_alignment - 1) / base::io_alignment * base::io_alignment;
  options.buffers = 3 * spec.queue_depth * drives.drives();
  options.completion_batch = spec.completion_batch;
  options.handoff_batch = spec.handoff_batch;
  IoService service(drives, options);

  std::mt19937_64 random(spec.seed);
  std::vector<uint64_t> next_offset(drives.drives(), 0), queued(drives.drives(), 0);
  const uint64_t target = 2 * spec.queue_depth;  // the depth in flight plus as many waiting or being consumed
  std::vector<Extent> batch;
  auto top_up = [&](unsigned d) {
    batch.clear();
    const uint64_t blocks = drives.drive(d).size() / spec.block_bytes;
    while (queued[d] + batch.size() < target) {
      uint64_t offset;
      if (spec.random) {
        offset = (random() % blocks) * spec.block_bytes;
        // Two random blocks that happen to touch would be merged: nudge apart.
        if (!batch.empty() && batch.back().offset + spec.block_bytes == offset) offset = (offset + 2 * spec.block_bytes) % (blocks * spec.block_bytes);
      } else {
        offset = next_offset[d];
        next_offset[d] = (offset + spec.block_bytes) % (blocks * spec.block_bytes);
      }
      batch.push_back({offset, spec.block_bytes});
      // Sequential blocks must stay separate requests: submit one at a time.
      if (!spec.random) {
        service.read(d, batch);
        batch.clear();
        ++queued[d];
      }
    }
    if (!batch.empty()) service.read(d, batch);
    queued[d] += batch.size();
  };

  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::duration<double>(spec.seconds);
  for (unsigned d = 0; d < drives.drives(); ++d) top_up(d);
  Filled filled;
  bool stopping = false;
  while (service.next(filled)) {
    --queued[filled.drive];
    service.release(filled);
    if (!stopping && std::chrono::steady_clock::now() >= deadline) {
      stopping = true;
    }
    if (!stopping) top_up(filled.drive);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  BenchResult result;
  result.backend = service.backend_name();
  result.seconds = seconds;
  LatencyHistogram all;
  uint64_t latency_sum = 0;
  for (unsigned d = 0; d < drives.drives(); ++d) {
    const DriveStats& s = service.stats(d);
    result.requests += s.requests;
    result.bytes += s.bytes;
    all.add(s.latency);
    latency_sum += s.latency_ns;
    result.drives.push_back({s.requests, s.bytes, double(s.busy_ns) / 1e9 / seconds});
  }
  result.p50_ns = all.percentile(0.50);
  result.p90_ns = all.percentile(0.90);
  result.p99_ns = all.percentile(0.99);
  result.p999_ns = all.percentile(0.999);
  result.mean_ns = result.requests ? latency_sum / result.requests : 0;
  return result;
}

}  // namespace sluice::io
