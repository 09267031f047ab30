// Ranks on one machine whose parts lie on one device share the bytes that
// device has in flight. Each rank's IO threads keep queue_depth requests
// of up to max_request_bytes in flight per drive, into twice as many
// buffers of that size (io_service.hpp): sized for one process to keep a
// device busy. Four ranks on one device would each hold as many buffers
// as one process (128 MiB a rank on RMAT 22's quarter parts, two thirds
// of a BFS rank's peak). Each rank takes its share of the bytes instead
// (shared_device below), and the device has at most the bytes in flight
// one process gives it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "base/aligned_buffer.hpp"
#include "engine/communicator.hpp"

namespace sluice::engine {

// How many ranks on this rank's machine (its host name) read a device
// (st_dev) that one of `drive_paths` lies on, this rank included. Every
// rank calls it: an all-gather of each rank's (host, device) pairs.
unsigned ranks_sharing_drives(Communicator& communicator, const std::vector<std::string>& drive_paths);

// A device's pairs as all_gather brings them: (host, device) for each of a
// rank's drives, `pairs_of[r]` of them from rank r in rank order; how many
// ranks share a pair with rank `me`, itself included.
unsigned ranks_sharing(const std::vector<uint64_t>& pairs, const std::vector<uint64_t>& pairs_of, unsigned me);

// What one rank of `sharing` asks of a device: its share of the bytes
// in flight, first as smaller requests, down to a quarter of `bytes`
// (a power of two; 256 KiB of 1 MiB), then as fewer of them. Requests of
// 128 KiB, an eighth, made PageRank 10 on 8 ranks of RMAT 23 sharing
// 2 cores 1.15x slower than requests of 1 MiB: each request costs the
// cores a completion and a hand-over.
struct DeviceShare {
  uint64_t request_bytes;
  unsigned queue_depth;
};
inline DeviceShare shared_device(uint64_t bytes, unsigned queue_depth, unsigned sharing) {
  if (sharing <= 1) return {bytes, queue_depth};
  const uint64_t share = std::bit_ceil(uint64_t(sharing));
  const uint64_t smaller = std::min<uint64_t>(share, 4);
  const uint64_t fewer = share / smaller;
  return {std::max<uint64_t>(bytes / smaller, base::io_alignment), unsigned(std::max<uint64_t>(queue_depth / fewer, 1))};
}

}  // namespace sluice::engine
