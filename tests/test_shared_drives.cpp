// Ranks that share a machine's device share its bytes in flight
// (engine/shared_drives.hpp): who shares, and each one's request size.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/shared_drives.hpp"

namespace sluice {
namespace {

constexpr uint64_t host_a = 11, host_b = 12, device_x = 2049, device_y = 2050;

TEST(SharedDrives, RanksOnOneHostAndDeviceAllShare) {
  const std::vector<uint64_t> pairs = {host_a, device_x, host_a, device_x, host_a, device_x, host_a, device_x};
  const std::vector<uint64_t> pairs_of = {1, 1, 1, 1};
  for (unsigned me = 0; me < 4; ++me) EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, me), 4u);
}

TEST(SharedDrives, TheSameDeviceNumberOnAnotherHostIsAnotherDevice) {
  const std::vector<uint64_t> pairs = {host_a, device_x, host_a, device_x, host_b, device_x, host_b, device_x};
  const std::vector<uint64_t> pairs_of = {1, 1, 1, 1};
  for (unsigned me = 0; me < 4; ++me) EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, me), 2u);
}

TEST(SharedDrives, AnyOfARanksDrivesCountsAndARankWithoutDrivesIsAlone) {
  // Rank 0 reads devices x and y, rank 1 only y, rank 2 only x on another
  // host, rank 3 nothing.
  const std::vector<uint64_t> pairs = {host_a, device_x, host_a, device_y, host_a, device_y, host_b, device_x};
  const std::vector<uint64_t> pairs_of = {2, 1, 1, 0};
  EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, 0), 2u);
  EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, 1), 2u);
  EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, 2), 1u);
  EXPECT_EQ(engine::ranks_sharing(pairs, pairs_of, 3), 1u);
}

TEST(SharedDrives, OneProcessIsAlone) {
  engine::SingleProcess one;
  EXPECT_EQ(engine::ranks_sharing_drives(one, {"/", "/tmp"}), 1u);
}

TEST(SharedDrives, ASharerTakesSmallerRequestsToAQuarterThenFewer) {
  constexpr uint64_t mib = uint64_t(1) << 20, kib = uint64_t(1) << 10;
  auto share = [](unsigned sharing) {
    const engine::DeviceShare s = engine::shared_device(mib, 32, sharing);
    return std::pair{s.request_bytes, s.queue_depth};
  };
  EXPECT_EQ(share(1), (std::pair{mib, 32u}));
  EXPECT_EQ(share(2), (std::pair{512 * kib, 32u}));
  EXPECT_EQ(share(3), (std::pair{256 * kib, 32u}));  // the power of two at or above
  EXPECT_EQ(share(4), (std::pair{256 * kib, 32u}));
  EXPECT_EQ(share(8), (std::pair{256 * kib, 16u}));
  EXPECT_EQ(share(16), (std::pair{256 * kib, 8u}));
  EXPECT_EQ(share(1024), (std::pair{256 * kib, 1u}));  // at least one request
  // The bytes in flight: one process's, shared.
  for (unsigned k : {2u, 4u, 8u, 16u}) EXPECT_EQ(share(k).first * share(k).second * k, mib * 32);
  EXPECT_EQ(engine::shared_device(8 * kib, 32, 4).request_bytes, 4 * kib);  // never below a page
}

}  // namespace
}  // namespace sluice
