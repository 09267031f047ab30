// What `sluice calibrate` measures about a device and the engine reads back:
// the cost of reads of growing sizes at the engine's queue depth, and the
// skipping threshold λ derived from them by Redio's rule: the time of one
// request is t(s) = t0 + s / B (a fixed cost plus transfer); an inactive gap
// of g bytes between two needed ranges is worth reading through when
// g / B < t0, so λ = t0 * B, the bytes a sequential read transfers in the
// time of one extra random request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::io {

struct SizePoint {
  uint64_t bytes = 0;
  double iops = 0;
  double bytes_per_second = 0;
  uint64_t p50_ns = 0;
};

struct DeviceProfile {
  uint64_t device = 0;  // st_dev of the drive files' file system
  unsigned queue_depth = 0;
  double request_cost_ns = 0;    // t0
  double bandwidth = 0;          // B, bytes per second
  uint64_t skip_threshold = 0;   // λ in bytes, a multiple of 4096
  double fit_error = 0;          // the fit's largest relative error at a measured size
  std::vector<SizePoint> points;

  // Fit of a request's time (1 / iops) against the read size, least
  // squares of the relative error.
  static DeviceProfile fit(uint64_t device, unsigned queue_depth, std::vector<SizePoint> points);
  void save(const std::string& path) const;
  static std::optional<DeviceProfile> load(const std::string& path);
};

// $SLUICE_PROFILE_DIR, else $XDG_CONFIG_HOME/sluice, else ~/.config/sluice;
// one file per device: device-MAJOR-MINOR.profile.
std::string default_profile_path(uint64_t device);

}  // namespace sluice::io
