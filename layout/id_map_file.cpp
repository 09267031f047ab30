#include "layout/id_map_file.hpp"

#include <xxhash.h>

#include <cstring>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "layout/hashed_reader.hpp"
#include "layout/manifest.hpp"

namespace sluice::layout {

namespace {
constexpr char id_map_magic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'I', 'D'};
constexpr uint64_t header_bytes = 64;
}  // namespace

uint64_t write_id_map_file(base::AtomicFile& file, const base::IdMap& ids) {
  char header[header_bytes] = {};
  std::memcpy(header, id_map_magic, 8);
  const uint32_t version = sluice_layout_version;
  const uint64_t n = ids.originals().size();
  std::memcpy(header + 8, &version, 4);
  std::memcpy(header + 16, &n, 8);
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  file.write(header, sizeof(header));
  XXH64_update(state, header, sizeof(header));
  file.write(ids.originals().data(), n * 8);
  XXH64_update(state, ids.originals().data(), n * 8);
  const uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return digest;
}

base::IdMap read_id_map_file(const std::string& path, uint64_t vertices, uint64_t checksum) {
  base::FileDescriptor file = base::FileDescriptor::open_for_reading(path);
  const uint64_t expected = header_bytes + vertices * 8;
  if (file.size() != expected) {
    throw base::InputError(path, "", "id map holds " + std::to_string(file.size()) + " bytes, expected " + std::to_string(expected) +
                                         " for " + std::to_string(vertices) + " vertices");
  }
  char header[header_bytes];
  base::Array<uint64_t> originals(vertices, "the id map");
  HashedReader reader(file, path);
  reader.read(header, header_bytes);
  reader.read(originals.data(), vertices * 8);
  if (reader.digest() != checksum) throw base::InputError(path, "", "id map checksum mismatch: the file is corrupt or belongs to another graph");
  if (std::memcmp(header, id_map_magic, 8) != 0) throw base::InputError(path, base::at_byte(0), "expected the magic SLUICEID");
  try {
    return base::IdMap(std::move(originals));
  } catch (const std::invalid_argument& e) {
    throw base::InputError(path, "", e.what());
  }
}

}  // namespace sluice::layout
