// sluice iobench: fio-style random or sequential reads through sluice's own
// IO path (IO thread per drive, buffer pool, queues), so the two can be
// compared on the same files.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "io/read_benchmark.hpp"
#include "programs/command_line.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

int cmd_iobench(int argc, char** argv) {
  po::options_description options("sluice iobench --drives FILE[,FILE...]");
  options.add_options()
    ("drives", po::value<std::string>()->required(), "comma-separated drive files to read (existing, at least one block long)")
    ("io", po::value<std::string>()->default_value("auto"), "backend: auto, uring, aio, psync")
    ("pattern", po::value<std::string>()->default_value("random"), "random or sequential")
    ("block-size", byte_size_value("4k"), "bytes per read (4096-byte multiples with O_DIRECT)")
    ("queue-depth", po::value<unsigned>()->default_value(32), "requests in flight per drive")
    ("duration", po::value<double>()->default_value(10, "10"), "seconds")
    ("seed", po::value<uint64_t>()->default_value(1), "seed of the random offsets (the same seed reads the same blocks)")
    ("completion-batch", po::value<unsigned>()->default_value(io::IoOptions{}.completion_batch),
     "completions the IO thread takes per wait before refilling (fio's iodepth_batch_complete_max)")
    ("handoff-batch", po::value<unsigned>()->default_value(io::IoOptions{}.handoff_batch),
     "completions handed to the consumer at once (always before the IO thread blocks)")
    ("buffered", po::bool_switch(), "read through the page cache instead of O_DIRECT")
    ("json", po::bool_switch(), "print one JSON object instead of text");
  po::positional_options_description positionals;
  po::variables_map v;
  if (!parse_command_line(argc, argv, "usage: sluice iobench --drives FILE[,FILE...] [--io uring] [--pattern random] "
                          "[--block-size 4k] [--queue-depth 32] [--duration 10]", options, positionals, v)) {
    return exit_ok;
  }
  io::BenchSpec spec;
  std::string pattern = v["pattern"].as<std::string>();
  if (pattern != "random" && pattern != "sequential") throw po::error("--pattern must be random or sequential");
  spec.random = pattern == "random";
  spec.block_bytes = v["block-size"].as<ByteSize>().bytes;
  spec.queue_depth = v["queue-depth"].as<unsigned>();
  spec.seconds = v["duration"].as<double>();
  spec.seed = v["seed"].as<uint64_t>();
  spec.completion_batch = v["completion-batch"].as<unsigned>();
  spec.handoff_batch = v["handoff-batch"].as<unsigned>();
  if (spec.completion_batch == 0 || spec.handoff_batch == 0) throw po::error("--completion-batch and --handoff-batch must be at least 1");
  spec.backend = parse_backend(v["io"].as<std::string>());
  io::DriveSet drives(split_list(v["drives"].as<std::string>()), !v["buffered"].as<bool>());
  io::BenchResult r = io::run_read_benchmark(drives, spec);
  if (v["json"].as<bool>()) {
    nlohmann::ordered_json per_drive = nlohmann::ordered_json::array();
    for (size_t d = 0; d < r.drives.size(); ++d) {
      const io::BenchResult::Drive& drive = r.drives[d];
      per_drive.push_back({{"path", drives.drive(unsigned(d)).path()}, {"requests", drive.requests},
                           {"bytes", drive.bytes}, {"iops", double(drive.requests) / r.seconds},
                           {"mb_s", double(drive.bytes) / r.seconds / 1e6}, {"busy", drive.busy}});
    }
    nlohmann::ordered_json out = {
        {"backend", r.backend}, {"pattern", pattern}, {"block_bytes", spec.block_bytes}, {"queue_depth", spec.queue_depth},
        {"direct", drives.drive(0).direct()}, {"seconds", r.seconds}, {"iops", r.iops()},
        {"mb_s", r.bytes_per_second() / 1e6}, {"latency_ns", {{"mean", r.mean_ns}, {"p50", r.p50_ns}, {"p90", r.p90_ns},
                                                             {"p99", r.p99_ns}, {"p999", r.p999_ns}}},
        {"drives", per_drive}};
    std::printf("%s\n", out.dump().c_str());
    return exit_ok;
  }
  std::printf("iobench: %s, %s read, %llu-byte blocks, queue depth %u, %u drive(s), %s, %.1f s\n", r.backend.c_str(),
              pattern.c_str(), (unsigned long long)spec.block_bytes, spec.queue_depth, drives.drives(),
              drives.drive(0).direct() ? "O_DIRECT" : "buffered", r.seconds);
  std::printf("  read: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s)\n", r.iops(), r.bytes_per_second() / 1048576.0,
              r.bytes_per_second() / 1e6);
  std::printf("  lat (usec): mean=%.1f, p50=%.1f, p90=%.1f, p99=%.1f, p99.9=%.1f\n", r.mean_ns / 1e3, r.p50_ns / 1e3,
              r.p90_ns / 1e3, r.p99_ns / 1e3, r.p999_ns / 1e3);
  for (size_t d = 0; d < r.drives.size(); ++d) {
    const io::BenchResult::Drive& drive = r.drives[d];
    std::printf("  drive %zu: %s, IOPS=%.0f, %.1fMB/s, %llu bytes, busy %.0f%%\n", d, drives.drive(unsigned(d)).path().c_str(),
                double(drive.requests) / r.seconds, double(drive.bytes) / r.seconds / 1e6, (unsigned long long)drive.bytes,
                100 * drive.busy);
  }
  return exit_ok;
}

}  // namespace sluice::tools
