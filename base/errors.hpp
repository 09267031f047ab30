// Errors that name what went wrong and where, so a user can fix the input.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sluice::base {

// Bad input: a file that is missing, malformed, truncated or inconsistent.
// `where` is "line N", "byte N" or empty; `what` says what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& path, const std::string& where, const std::string& what)
      : std::runtime_error(path + (where.empty() ? "" : ":" + where) + ": " + what),
        path_(path) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string at_line(uint64_t line) { return "line " + std::to_string(line); }
inline std::string at_byte(uint64_t byte) { return "byte " + std::to_string(byte); }

// The most vertices a graph may have (2^48: their state alone would take
// petabytes), so that n + 1, n * bytes and the ids' arithmetic never
// overflow. Counts and ids beyond are refused with InputError.
inline constexpr uint64_t max_vertices = uint64_t(1) << 48;
// A declared vertex count, checked.
uint64_t checked_vertex_count(uint64_t n, const std::string& path, const std::string& where);
// The vertex count implied by the largest id seen (largest + 1), checked.
uint64_t vertex_count_for_id(uint64_t largest, const std::string& path);

// A failing system call, with errno's text.
[[noreturn]] void throw_system_error(const std::string& path, const std::string& action);

// Refuses an allocation that would exceed the memory available now, so that
// a too-large graph gives a message instead of the OOM killer.
// "1 byte", "512 bytes", "1.5 KiB", "12.0 MiB", "3.25 GiB": a size for messages.
std::string byte_count(uint64_t bytes);

void require_memory(uint64_t bytes, const std::string& what);

// MemAvailable from /proc/meminfo (bytes), or a memory cgroup's headroom
// where that is less, capped by $SLUICE_MEMORY_LIMIT (bytes, k/m/g
// suffixes); 0 if none is known. `held`: bytes the process holds already
// and counts among what it needs (a run's index, loaded before its budget
// is fitted), given back to what the machine or the cgroup has left
// before the cap applies.
uint64_t available_memory(uint64_t held = 0);

}  // namespace sluice::base
