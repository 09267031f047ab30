// What every fuzz target shares: the input's bytes written to files in a
// private scratch directory (the readers take paths), an input split into
// several files by 32-bit length prefixes, and a read of every edge
// through the block API. Errors are expected (bad input must throw a clear
// exception); crashes, leaks, hangs and sanitizer reports are the bugs.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"

namespace sluice::fuzz {

inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    const char* shm = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string pattern = std::string(shm) + "/sluice-fuzz-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (!::mkdtemp(name.data())) std::abort();
    ::setenv("SLUICE_MEMORY_LIMIT", "16m", 1);  // large declared sizes: a quick refusal, not an OOM
    return std::filesystem::path(name.data());
  }();
  return dir;
}

inline std::string put(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = scratch() / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

// Splits the input into `count` parts: each but the last is a 32-bit
// little-endian length, then that many bytes. Missing bytes make parts empty.
inline std::vector<std::string> parts(const uint8_t* data, size_t size, size_t count) {
  std::vector<std::string> out;
  for (size_t i = 0; i + 1 < count; ++i) {
    uint32_t length = 0;
    if (size >= 4) std::memcpy(&length, data, 4);
    const size_t skip = std::min<size_t>(size, 4);
    data += skip, size -= skip;
    length = uint32_t(std::min<size_t>(length, size));
    out.emplace_back(reinterpret_cast<const char*>(data), length);
    data += length, size -= length;
  }
  out.emplace_back(reinterpret_cast<const char*>(data), size);
  return out;
}

inline void put_text(const std::string& name, const std::string& bytes) {
  std::ofstream(scratch() / name, std::ios::binary | std::ios::trunc) << bytes;
}

// Opens a graph and reads every edge; returns quietly on any exception
// (that is the reader's way to refuse bad input). Small graphs only: the
// declared sizes a fuzzer invents may be huge.
inline void read_everything(const std::string& path, formats::OpenOptions options = {}) {
  try {
    options.blocks.threads = 1;
    auto graph = formats::BlockGraph::open(path, options);
    const base::GraphInfo& info = graph->info();
    if (info.vertices > (1u << 20) || info.edges > (1u << 20)) return;
    std::vector<uint64_t> offsets = graph->offsets(0, info.vertices);
    std::vector<char> targets(info.edges * info.id_bytes + 8);
    std::vector<float> weights(info.edges + 1);
    graph->read_edges(0, info.vertices, targets.data(), info.weighted ? weights.data() : nullptr);
    for (uint64_t e = 0; e < info.edges; ++e) {
      uint64_t t = 0;
      std::memcpy(&t, targets.data() + e * info.id_bytes, info.id_bytes);
      if (t >= info.vertices) std::abort();  // a reader handed out a target beyond the vertex count
    }
  } catch (const std::exception&) {
  }
}

}  // namespace sluice::fuzz
