// Ranks that share a machine's device share its bytes in flight
// (engine/shared_drives.hpp): who shares, and each one's request size.
#include <gtest/gtest.h>

#include <cstdint>
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

TEST(SharedDrives, ARequestIsDividedByThePowerOfTwoAtOrAboveTheSharers) {
  constexpr uint64_t mib = uint64_t(1) << 20, kib = uint64_t(1) << 10;
  EXPECT_EQ(engine::shared_request_bytes(mib, 1), mib);
  EXPECT_EQ(engine::shared_request_bytes(mib, 2), 512 * kib);
  EXPECT_EQ(engine::shared_request_bytes(mib, 3), 256 * kib);
  EXPECT_EQ(engine::shared_request_bytes(mib, 4), 256 * kib);
  EXPECT_EQ(engine::shared_request_bytes(mib, 8), 128 * kib);
  EXPECT_EQ(engine::shared_request_bytes(mib, 64), 64 * kib);  // no less
  EXPECT_EQ(engine::shared_request_bytes(64 * kib, 4), 64 * kib);
  EXPECT_EQ(engine::shared_request_bytes(4 * kib, 4), 4 * kib);  // a size asked for below the least stays
}

}  // namespace
}  // namespace sluice
