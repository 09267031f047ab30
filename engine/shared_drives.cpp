#include "engine/shared_drives.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <span>
#include <utility>

#include "base/launcher.hpp"

namespace sluice::engine {

unsigned ranks_sharing(const std::vector<uint64_t>& pairs, const std::vector<uint64_t>& pairs_of, unsigned me) {
  std::vector<uint64_t> starts(pairs_of.size() + 1, 0);
  for (size_t r = 0; r < pairs_of.size(); ++r) starts[r + 1] = starts[r] + 2 * pairs_of[r];
  auto pair = [&](uint64_t at) { return std::pair{pairs[at], pairs[at + 1]}; };
  unsigned sharing = 0;
  for (size_t r = 0; r < pairs_of.size(); ++r) {
    bool shares = r == me;
    for (uint64_t a = starts[r]; a < starts[r + 1] && !shares; a += 2) {
      for (uint64_t b = starts[me]; b < starts[me + 1] && !shares; b += 2) shares = pair(a) == pair(b);
    }
    sharing += shares;
  }
  return sharing;
}

unsigned ranks_sharing_drives(Communicator& communicator, const std::vector<std::string>& drive_paths) {
  if (communicator.size() <= 1) return 1;
  const uint64_t host = std::hash<std::string>{}(base::host_name());
  std::vector<uint64_t> mine;
  for (const std::string& path : drive_paths) {
    struct stat st {};
    // The drives are open already: one gone since counts as a device of its own.
    const uint64_t device = ::stat(path.c_str(), &st) == 0 ? uint64_t(st.st_dev) : std::hash<std::string>{}(path);
    mine.push_back(host);
    mine.push_back(device);
  }
  const std::vector<uint64_t> pairs_of = communicator.all_gather_one(uint64_t(mine.size() / 2));
  const std::vector<uint64_t> pairs = communicator.all_gather(std::span<const uint64_t>(mine));
  return ranks_sharing(pairs, pairs_of, unsigned(communicator.rank()));
}

}  // namespace sluice::engine
