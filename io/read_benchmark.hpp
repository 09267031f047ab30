// A fio-like read workload through the IO service: random or sequential
// block-sized reads kept at the queue depth on every drive for a duration.
// Used by `sluice iobench` and by `sluice calibrate`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/drive_set.hpp"
#include "io/io_service.hpp"

namespace sluice::io {

struct BenchSpec {
  bool random = true;
  uint64_t block_bytes = 4096;
  unsigned queue_depth = 32;
  double seconds = 5;
  BackendKind backend = BackendKind::automatic;
  uint64_t seed = 1;
  unsigned completion_batch = IoOptions{}.completion_batch;
  unsigned handoff_batch = IoOptions{}.handoff_batch;
};

struct BenchResult {
  std::string backend;
  uint64_t requests = 0, bytes = 0;
  double seconds = 0;
  double iops() const { return seconds > 0 ? double(requests) / seconds : 0; }
  double bytes_per_second() const { return seconds > 0 ? double(bytes) / seconds : 0; }
  uint64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, mean_ns = 0;
  struct Drive {
    uint64_t requests = 0, bytes = 0;
    double busy = 0;  // fraction of the run the drive had requests in flight
  };
  std::vector<Drive> drives;
};

BenchResult run_read_benchmark(const DriveSet& drives, const BenchSpec& spec);

}  // namespace sluice::io
