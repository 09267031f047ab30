// sluice calibrate: per drive, random reads from 4 KiB to 1 MiB at the
// engine's queue depth; fits the cost of a request and derives the
// skipping threshold λ (io/device_profile.hpp), saved for the engine.
// A drive may be given as a directory (as `convert --drives` takes them):
// calibrate then writes its own probe file there and removes it after.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "base/errors.hpp"
#include "base/interruption.hpp"

#include <nlohmann/json.hpp>

#include "io/device_profile.hpp"
#include "io/read_benchmark.hpp"
#include "programs/command_line.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

// A file of `bytes` written in a directory to read back, removed when it
// goes (after the run, or on an error or Ctrl-C, which end it by exception).
class ProbeFile {
 public:
  ProbeFile(const std::string& dir, uint64_t bytes) {
    std::string name = (std::filesystem::path(dir) / ".sluice-calibrate-XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) base::throw_system_error(dir, "creating a probe file in");
    path_ = name;
    base::FileDescriptor file(fd);
    // Written, not allocated: a sparse file's holes would read as memory.
    std::vector<char> block(1 << 20);
    for (size_t i = 0; i < block.size(); ++i) block[i] = char(i * 131 + 7);
    for (uint64_t done = 0; done < bytes; done += block.size()) {
      base::throw_if_interrupted();
      if (::write(fd, block.data(), block.size()) != ssize_t(block.size())) base::throw_system_error(path_, "writing the probe file");
    }
    if (::fsync(fd) != 0) base::throw_system_error(path_, "fsync");
  }
  ~ProbeFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  ProbeFile(const ProbeFile&) = delete;
  ProbeFile& operator=(const ProbeFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

constexpr uint64_t probe_bytes = uint64_t(64) << 20;

}  // namespace

int cmd_calibrate(int argc, char** argv) {
  po::options_description options("sluice calibrate --drives FILE[,FILE...]");
  options.add_options()
    ("drives", po::value<std::string>()->required(), "comma-separated drive files (at least 64 MiB each gives stable figures), or directories on the drives: calibrate writes a 64 MiB probe file in each and removes it after")
    ("forget", po::bool_switch(), "remove the profile of each drive's device instead (later runs use the default λ, or --skip-threshold)")
    ("accept", po::bool_switch(), "write the profile even when the fit misses a measured size by more than 25% (otherwise runs keep the λ they had)")
    ("io", po::value<std::string>()->default_value("auto"), "backend: auto, uring, aio, psync")
    ("queue-depth", po::value<unsigned>()->default_value(32), "requests in flight, as the engine will run")
    ("seconds", po::value<double>()->default_value(2, "2"), "seconds per read size")
    ("profile", po::value<std::string>()->default_value(""), "where to write the profile (default: per device, see --help)")
    ("json", po::bool_switch(), "print one JSON object per drive (the measured points and the fit) instead of text");
  po::positional_options_description positionals;
  po::variables_map v;
  if (!parse_command_line(argc, argv,
                          "usage: sluice calibrate --drives FILE[,FILE...] [--io uring] [--queue-depth 32] [--seconds 2] [--accept]\n"
                          "The profile goes to $SLUICE_PROFILE_DIR, $XDG_CONFIG_HOME/sluice or ~/.config/sluice,\n"
                          "as device-MAJOR-MINOR.profile, where the engine looks for it.",
                          options, positionals, v)) {
    return exit_ok;
  }
  const auto paths = split_list(v["drives"].as<std::string>());
  const bool json = v["json"].as<bool>();
  if (v["forget"].as<bool>()) {
    for (const auto& path : paths) {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0) base::throw_system_error(path, "stat");
      const std::string profile = v["profile"].as<std::string>().empty() ? io::default_profile_path(uint64_t(st.st_dev))
                                                                          : v["profile"].as<std::string>();
      std::error_code error;
      const bool removed = std::filesystem::remove(profile, error);
      if (error) base::throw_system_error(profile, "removing");
      std::printf("%s: %s\n", profile.c_str(), removed ? "removed: runs on this device use the default λ (64 KiB) again" : "no profile to remove");
    }
    return exit_ok;
  }
  for (const auto& given : paths) {
    std::unique_ptr<ProbeFile> probe;
    if (std::filesystem::is_directory(given)) probe = std::make_unique<ProbeFile>(given, probe_bytes);
    const std::string path = probe ? probe->path() : given;
    io::DriveSet drive({path});
    if (!json) std::printf("calibrating %s (%s)\n%10s %12s %12s %10s\n", given.c_str(), drive.drive(0).direct() ? "O_DIRECT" : "buffered",
                "size", "IOPS", "MB/s", "p50_us");
    std::vector<io::SizePoint> points;
    for (uint64_t size = 4096; size <= (1 << 20) && size <= drive.drive(0).size(); size *= 2) {
      io::BenchSpec spec;
      spec.block_bytes = size;
      spec.queue_depth = v["queue-depth"].as<unsigned>();
      spec.seconds = v["seconds"].as<double>();
      spec.backend = parse_backend(v["io"].as<std::string>());
      io::BenchResult r = io::run_read_benchmark(drive, spec);
      points.push_back({size, r.iops(), r.bytes_per_second(), r.p50_ns});
      if (!json) std::printf("%10llu %12.0f %12.1f %10.1f\n", (unsigned long long)size, r.iops(), r.bytes_per_second() / 1e6, r.p50_ns / 1e3);
      base::throw_if_interrupted();
    }
    io::DeviceProfile profile = io::DeviceProfile::fit(drive.drive(0).device(), v["queue-depth"].as<unsigned>(), points);
    // A request cost and a bandwidth that miss a measured size by this much
    // describe no device: the threshold drawn from them is a guess.
    constexpr double trusted_fit_error = 0.25;
    const bool trusted = profile.fit_error <= trusted_fit_error;
    const bool accept = v["accept"].as<bool>();
    std::string target = v["profile"].as<std::string>();
    if (target.empty()) target = io::default_profile_path(profile.device);
    if (!trusted) {
      std::fprintf(stderr,
                   "sluice calibrate: warning: %s: the fit misses a measured size by %.1f%% (more than %.0f%%): the timings are "
                   "noisy (another process on the device, or reads served from a cache), and the skip threshold of %llu bytes "
                   "drawn from them may be far off. %s Run again on a quiet device with a longer --seconds, or measure λ on your "
                   "own algorithms with `sluice sweep GRAPH.sluice` and give the programs --skip-threshold.\n",
                   given.c_str(), 100 * profile.fit_error, 100 * trusted_fit_error, (unsigned long long)profile.skip_threshold,
                   accept ? "The profile is written all the same (--accept)."
                          : "The profile is not written: runs on this device keep the λ they had (the default 64 KiB, or an "
                            "earlier profile); --accept writes it.");
    }
    const bool save = trusted || accept;
    if (save) profile.save(target);
    if (json) {
      nlohmann::ordered_json measured = nlohmann::ordered_json::array();
      for (const auto& p : profile.points) {
        measured.push_back({{"bytes", p.bytes}, {"iops", p.iops}, {"bytes_per_second", p.bytes_per_second}, {"p50_ns", p.p50_ns}});
      }
      nlohmann::ordered_json out = {{"drive", given}, {"direct", drive.drive(0).direct()},
                                    {"device", std::to_string(major(dev_t(profile.device))) + ":" + std::to_string(minor(dev_t(profile.device)))},
                                    {"queue_depth", profile.queue_depth}, {"request_cost_ns", profile.request_cost_ns},
                                    {"bandwidth_bytes_per_s", profile.bandwidth}, {"skip_threshold_bytes", profile.skip_threshold},
                                    {"fit_error", profile.fit_error}, {"fit_trusted", trusted},
                                    {"profile", save ? nlohmann::ordered_json(target) : nlohmann::ordered_json()},
                                    {"points", measured}};
      std::printf("%s\n", out.dump().c_str());
      continue;
    }
    std::printf("request cost t0 = %.1f us, bandwidth B = %.1f MB/s -> skip threshold %llu bytes (%.1f KiB)\n"
                "fit: t(s) = t0 + s / B within %.1f%% of every measured size\n",
                profile.request_cost_ns / 1e3, profile.bandwidth / 1e6, (unsigned long long)profile.skip_threshold,
                profile.skip_threshold / 1024.0, 100 * profile.fit_error);
    if (save) {
      std::printf("profile: %s (every later run on this device uses it unless --skip-threshold is given; --forget removes it)\n",
                  target.c_str());
    } else {
      std::printf("profile: not written (the fit is not trusted; --accept writes it)\n");
    }
  }
  return exit_ok;
}

}  // namespace sluice::tools
