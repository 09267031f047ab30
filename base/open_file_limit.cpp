#include "base/open_file_limit.hpp"

#include <sys/resource.h>

#include <stdexcept>

namespace sluice::base {

void reserve_open_files(uint64_t files, const std::string& what) {
  constexpr uint64_t margin = 256;  // standard streams, inputs, IO threads' rings, MPI
  const uint64_t needed = files + margin;
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;  // nothing known: let open() say it
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed) return;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) {
    throw std::runtime_error(what + " holds " + std::to_string(files) + " files open at once, and this process may open " +
                             std::to_string(limit.rlim_max) + " (ulimit -Hn): raise the limit, or write fewer files");
  }
  const uint64_t soft = limit.rlim_cur;
  limit.rlim_cur = needed;
  if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    throw std::runtime_error(what + " holds " + std::to_string(files) + " files open at once, and this process may open " +
                             std::to_string(soft) + " (ulimit -n), which it could not raise");
  }
}

}  // namespace sluice::base
