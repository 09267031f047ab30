#include <cstdlib>
#include "base/errors.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <cstring>
#include <fstream>
#include <system_error>

namespace sluice::base {

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
                                   std::to_string(max_vertices) + " (convert with --relabel to number the ids densely from 0)");
  }
  return largest + 1;
}

void throw_system_error(const std::string& path, const std::string& action) {
  int err = errno;
  throw std::system_error(err, std::generic_category(), path + ": " + action);
}

namespace {

uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

// What the process's memory cgroup still allows (limit - usage), or 0
// where none limits it: cgroup v2's memory.max, else v1's
// memory.limit_in_bytes, along the process's own cgroup path.
uint64_t cgroup_headroom() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  while (std::getline(self, line)) {
    // "0::/path" (v2) or "4:memory:/path" (v1)
    const size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    std::string dir, limit_file, usage_file;
    if (controllers.empty()) {
      dir = "/sys/fs/cgroup" + path, limit_file = "memory.max", usage_file = "memory.current";
    } else if (controllers == "memory") {
      dir = "/sys/fs/cgroup/memory" + path, limit_file = "memory.limit_in_bytes", usage_file = "memory.usage_in_bytes";
    } else {
      continue;
    }
    const uint64_t limit = read_number(dir + "/" + limit_file);
    // v1 writes "no limit" as a huge number.
    if (limit == 0 || limit >= (uint64_t(1) << 60)) continue;
    // The page cache of files does not count: the kernel writes it back
    // and drops it when the cgroup needs the room (a conversion's scratch
    // and output files fill it).
    uint64_t usage = read_number(dir + "/" + usage_file), cache = 0;
    std::ifstream stat(dir + "/memory.stat");
    std::string key;
    uint64_t value = 0;
    while (stat >> key >> value) {
      if (controllers.empty() ? key == "file" : key == "total_inactive_file" || key == "total_active_file") cache += value;
    }
    usage -= std::min(usage, cache);
    return limit > usage ? limit - usage : 1;
  }
  return 0;
}

}  // namespace

uint64_t available_memory(uint64_t held) {
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
  if (const uint64_t headroom = cgroup_headroom(); headroom && (available == 0 || headroom < available)) available = headroom;
  if (available) available += held;
  // SLUICE_MEMORY_LIMIT (bytes, or with a k/m/g suffix) caps it: for shared
  // machines, containers whose /proc/meminfo shows the host, and fuzzing.
  if (const char* limit = std::getenv("SLUICE_MEMORY_LIMIT")) {
    const std::string text = limit;
    char* end = nullptr;
    errno = 0;
    uint64_t bytes = std::strtoull(limit, &end, 10);
    std::string unit = end;
    for (char& c : unit) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();  // kb, kib
    if (unit.size() > 1 && unit.back() == 'i') unit.pop_back();
    const size_t power = unit.empty() ? 0 : unit.size() == 1 ? std::string("kmgt").find(unit[0]) + 1 : 0;
    const bool valid = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) && errno == 0 &&
                       (unit.empty() || power != 0) && (power == 0 || bytes <= (~uint64_t(0) >> (10 * power)));
    if (!valid) {
      throw std::invalid_argument("SLUICE_MEMORY_LIMIT='" + text + "' is not a size in bytes (e.g. 8g, 512m, 1073741824)");
    }
    bytes <<= 10 * power;
    if (bytes && (available == 0 || bytes < available)) available = bytes;
  }
  return available;
}

std::string byte_count(uint64_t bytes) {
  char text[32];
  if (bytes < 1024) {
    std::snprintf(text, sizeof(text), "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
  } else if (bytes < (uint64_t(1) << 20)) {
    std::snprintf(text, sizeof(text), "%.1f KiB", double(bytes) / 1024);
  } else if (bytes < (uint64_t(1) << 30)) {
    std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof(text), "%.2f GiB", double(bytes) / (1 << 30));
  }
  return text;
}

void require_memory(uint64_t bytes, const std::string& what) {
  uint64_t available = available_memory();
  if (available != 0 && bytes > available) {
    throw std::runtime_error("not enough memory for " + what + ": needs " + byte_count(bytes) + ", " +
                             byte_count(available) + " available");
  }
}

}  // namespace sluice::base
