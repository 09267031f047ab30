#include "formats/errors.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace sluice {

void throw_system_error(const std::string& path, const std::string& action) {
  int err = errno;
  throw std::system_error(err, std::generic_category(), path + ": " + action);
}

uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

void require_memory(uint64_t bytes, const std::string& what) {
  uint64_t available = available_memory();
  if (available != 0 && bytes > available) {
    throw std::runtime_error("not enough memory for " + what + ": needs " +
                             std::to_string(bytes >> 20) + " MiB, " +
                             std::to_string(available >> 20) + " MiB available");
  }
}

}  // namespace sluice
