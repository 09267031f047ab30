// Ranks on one machine whose parts lie on one device share the bytes that
// device has in flight. Each rank's IO threads keep queue_depth requests
// of up to max_request_bytes in flight per drive, into twice as many
// buffers of that size (io_service.hpp): sized for one process to keep a
// device busy. Four ranks on one device each held as many buffers as one
// process (128 MiB a rank on RMAT 22's quarter parts, two thirds of a
// BFS rank's peak). A rank's requests are cut to its share of the bytes
// instead: each keeps its queue depth (a sparse level's small reads are
// as many in flight as before), and the device has at most the bytes in
// flight one process gives it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

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

// A request's bytes, `bytes` (a power of two) divided among `sharing`
// ranks: by the power of two at or above it, down to 64 KiB at the least.
inline uint64_t shared_request_bytes(uint64_t bytes, unsigned sharing) {
  constexpr uint64_t least = uint64_t(64) << 10;
  if (sharing <= 1 || bytes <= least) return bytes;
  return std::max(least, bytes / std::bit_ceil(uint64_t(sharing)));
}

}  // namespace sluice::engine
