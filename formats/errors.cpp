#include <cstdlib>
#include "formats/errors.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace sluice {

uint64_t checked_vertex_count(uint64_t n, const std::string& path, const std::string& where) {
  if (n > max_vertices) {
    throw InputError(path, where, "declares " + std::to_string(n) + " vertices, more than sluice can hold (" +
                                      std::to_string(max_vertices) + ")");
  }
  return n;
}

uint64_t vertex_count_for_id(uint64_t largest, const std::string& path) {
  if (largest >= max_vertices) {
    throw InputError(path, "", "vertex id " + std::to_string(largest) + " is too large: ids must be below " +
                                   std::to_string(max_vertices) + " (relabel the vertices, e.g. densely from 0)");
  }
  return largest + 1;
}

void throw_system_error(const std::string& path, const std::string& action) {
  int err = errno;
  throw std::system_error(err, std::generic_category(), path + ": " + action);
}

uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0, available = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  // SLUICE_MEMORY_LIMIT (bytes, or with a k/m/g suffix) caps it: for shared
  // machines, containers whose /proc/meminfo shows the host, and fuzzing.
  if (const char* limit = std::getenv("SLUICE_MEMORY_LIMIT")) {
    char* end = nullptr;
    uint64_t bytes = std::strtoull(limit, &end, 10);
    const int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20 : *end == 'g' || *end == 'G' ? 30 : 0;
    bytes <<= shift;
    if (bytes && (available == 0 || bytes < available)) available = bytes;
  }
  return available;
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
