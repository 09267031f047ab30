// A relabelled layout's id map (NAME.ids, beside its manifest): a 64-byte
// header (magic, version, vertex count), then each vertex's id in the
// input, little-endian uint64. The file's checksum is in the manifest.
#pragma once

#include <cstdint>
#include <string>

#include "base/atomic_file.hpp"
#include "base/id_map.hpp"

namespace sluice::layout {

// Writes the map; returns the file's checksum.
uint64_t write_id_map_file(base::AtomicFile& file, const base::IdMap& ids);

// Reads and checks the map of a layout of `vertices` vertices; throws
// InputError naming what disagrees.
base::IdMap read_id_map_file(const std::string& path, uint64_t vertices, uint64_t checksum);

}  // namespace sluice::layout
