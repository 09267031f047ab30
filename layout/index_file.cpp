#include "layout/index_file.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "layout/hashed_reader.hpp"
#include "layout/manifest.hpp"

namespace sluice::layout {

namespace {

constexpr char index_magic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'I', 'X'};
constexpr uint64_t index_header_bytes = 64;

uint64_t align64(uint64_t x) { return (x + 63) / 64 * 64; }

uint64_t degrees_at(uint64_t vertices) {
  uint64_t groups = (vertices + CompactIndex::group - 1) / CompactIndex::group + 1;
  return align64(index_header_bytes + groups * 8);
}
uint64_t sums_at(uint64_t vertices) { return align64(degrees_at(vertices) + vertices * 4); }
uint64_t index_file_bytes(uint64_t vertices, uint64_t pages, bool compressed) {
  return sums_at(vertices) + pages * 8 * (compressed ? 2 : 1);
}

}  // namespace

uint64_t write_index_file(base::AtomicFile& file, std::span<const uint32_t> degrees, const std::vector<uint64_t>& sums,
                          const std::vector<uint64_t>& page_starts) {
  const uint64_t n = degrees.size();
  std::vector<uint64_t> group_offsets((n + CompactIndex::group - 1) / CompactIndex::group + 1);
  uint64_t m = 0;
  for (uint64_t v = 0; v < n; ++v) {
    if (v % CompactIndex::group == 0) group_offsets[v / CompactIndex::group] = m;
    m += degrees[v];
  }
  group_offsets.back() = m;
  char header[index_header_bytes] = {};
  std::memcpy(header, index_magic, 8);
  uint32_t version = sluice_layout_version;
  uint64_t pages = sums.size();
  std::memcpy(header + 8, &version, 4);
  std::memcpy(header + 16, &n, 8);
  std::memcpy(header + 24, &m, 8);
  std::memcpy(header + 32, &pages, 8);
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  auto put = [&](const void* data, size_t length) {
    file.write(data, length);
    XXH64_update(state, data, length);
  };
  auto pad = [&] {
    std::vector<char> zeros(align64(file.bytes_written()) - file.bytes_written(), 0);
    put(zeros.data(), zeros.size());
  };
  put(header, sizeof(header));
  put(group_offsets.data(), group_offsets.size() * 8);
  pad();
  put(degrees.data(), n * 4);
  pad();
  put(sums.data(), sums.size() * 8);
  put(page_starts.data(), page_starts.size() * 8);
  uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return digest;
}

IndexFile read_index_file(const std::string& path, const base::GraphInfo& info, uint64_t pages, uint64_t checksum,
                          bool compressed, uint64_t page_capacity) {
  base::FileDescriptor file = base::FileDescriptor::open_for_reading(path);
  if (info.vertices > (uint64_t(1) << 48) || pages > (uint64_t(1) << 52)) {
    throw base::InputError(path, "", "the manifest declares an impossible size (" + std::to_string(info.vertices) + " vertices)");
  }
  uint64_t expected = index_file_bytes(info.vertices, pages, compressed);
  if (file.size() != expected) {
    throw base::InputError(path, "", "index file holds " + std::to_string(file.size()) + " bytes, expected " +
                                   std::to_string(expected) + " for " + std::to_string(info.vertices) + " vertices and " +
                                   std::to_string(pages) + " pages");
  }
  const uint64_t n = info.vertices;
  const uint64_t groups = (n + CompactIndex::group - 1) / CompactIndex::group + 1;
  base::require_memory(groups * 8 + n + n / 4 + pages * 8 * (compressed ? 2 : 1), "the index of " + path);
  base::Array<uint64_t> offsets(groups, "index offsets");
  DegreeArray degrees(n, "degrees");
  base::Array<uint64_t> sums(pages, "page checksums");
  base::Array<uint64_t> starts(compressed ? pages : 0, "page starts");
  HashedReader reader(file, path);
  char header[index_header_bytes];
  reader.read(header, sizeof(header));
  reader.read(offsets.data(), groups * 8);
  reader.skip_to(degrees_at(n));
  // A page of held degrees at a time, and only those with a vertex of any
  // degree: a rank's part has in-edges only in its own range, and the rest
  // of its degrees stay unwritten zero pages, not held.
  constexpr uint64_t per_page = 4096;
  constexpr uint64_t per_piece = 64 * per_page;  // 1 MiB read at a time
  std::vector<uint32_t> piece(std::min(n, per_piece));
  for (uint64_t first = 0; first < n; first += per_piece) {
    const uint64_t in_piece = std::min(per_piece, n - first);
    reader.read(piece.data(), in_piece * 4);
    for (uint64_t v = 0; v < in_piece; v += per_page) {
      const uint64_t count = std::min(per_page, in_piece - v);
      uint32_t any = 0;
      for (uint64_t i = v; i < v + count; ++i) any |= piece[i];
      if (any) degrees.set_from(first + v, {piece.data() + v, count});
    }
  }
  reader.skip_to(sums_at(n));
  reader.read(sums.data(), pages * 8);
  reader.read(starts.data(), starts.size() * 8);
  if (reader.digest() != checksum) {
    throw base::InputError(path, "", "index checksum mismatch: the file is corrupt or belongs to another graph");
  }
  if (std::memcmp(header, index_magic, 8) != 0) throw base::InputError(path, base::at_byte(0), "expected the magic SLUICEIX");
  uint64_t file_n, m, p;
  std::memcpy(&file_n, header + 16, 8);
  std::memcpy(&m, header + 24, 8);
  std::memcpy(&p, header + 32, 8);
  if (file_n != info.vertices || m != info.edges || p != pages) {
    throw base::InputError(path, base::at_byte(16), "index is for " + std::to_string(file_n) + " vertices, " + std::to_string(m) +
                                            " edges and " + std::to_string(p) + " pages, the manifest says " +
                                            std::to_string(info.vertices) + ", " + std::to_string(info.edges) + " and " +
                                            std::to_string(pages));
  }
  CompactIndex index(std::move(offsets), std::move(degrees));
  uint64_t bad = index.first_inconsistency();
  if (bad != UINT64_MAX) {
    throw base::InputError(path, "", "index offsets disagree with the degrees at vertex " + std::to_string(bad));
  }
  if (compressed && pages) {
    const uint64_t at = sums_at(n) + pages * 8;
    // Pages follow each other from edge 0 to the last, none empty or over-full.
    for (uint64_t q = 0; q < pages; ++q) {
      const uint64_t begin = starts[q], end = q + 1 < pages ? starts[q + 1] : m;
      if ((q == 0 && begin != 0) || end <= begin || end - begin > page_capacity) {
        throw base::InputError(path, base::at_byte(at + q * 8), "page " + std::to_string(q) + " would hold edges [" +
                                                              std::to_string(begin) + ", " + std::to_string(end) +
                                                              "): the pages' first edges must rise from 0, at most " +
                                                              std::to_string(page_capacity) + " apart");
      }
    }
  }
  return {std::move(index), std::move(sums), std::move(starts)};
}

}  // namespace sluice::layout
