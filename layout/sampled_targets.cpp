#include "layout/sampled_targets.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "base/errors.hpp"
#include "layout/manifest.hpp"

namespace sluice::layout {

namespace {
constexpr char sample_magic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'S', 'M'};
constexpr uint64_t header_bytes = 64;

std::vector<uint8_t> header_of(const SampleShape& shape) {
  std::vector<uint8_t> header(header_bytes, 0);
  std::memcpy(header.data(), sample_magic, 8);
  const uint32_t version = sluice_layout_version, width = shape.id_bytes, piece = uint32_t(SampleFile::piece_vertices);
  std::memcpy(header.data() + 8, &version, 4);
  std::memcpy(header.data() + 12, &piece, 4);
  std::memcpy(header.data() + 16, &shape.vertices, 8);
  std::memcpy(header.data() + 24, &shape.per_vertex, 4);
  std::memcpy(header.data() + 28, &width, 4);
  std::memcpy(header.data() + 32, shape.layout_id.data(), std::min<size_t>(32, shape.layout_id.size()));
  return header;
}

uint64_t pieces_of(const SampleShape& shape) { return (shape.vertices + SampleFile::piece_vertices - 1) / SampleFile::piece_vertices; }

uint64_t body_bytes_of(const SampleShape& shape) { return shape.vertices * shape.per_vertex * shape.id_bytes; }

// The manifest's checksum: of the header and the table.
uint64_t opening_checksum(const std::vector<uint8_t>& header, const std::vector<uint64_t>& table) {
  const std::unique_ptr<XXH64_state_t, SampledTargetsWriter::FreeState> state(XXH64_createState());
  if (!state) throw std::bad_alloc();
  XXH64_reset(state.get(), 0);
  XXH64_update(state.get(), header.data(), header.size());
  XXH64_update(state.get(), table.data(), table.size() * 8);
  return XXH64_digest(state.get());
}
}  // namespace

void SampledTargetsWriter::FreeState::operator()(XXH64_state_s* state) const { XXH64_freeState(state); }

SampledTargetsWriter::SampledTargetsWriter(base::AtomicFile& file, const SampleShape& shape)
    : file_(file), shape_(shape), header_(header_of(shape)) {
  file_.write(header_.data(), header_.size());
  piece_.reserve(SampleFile::piece_vertices * shape.per_vertex * shape.id_bytes);
}

void SampledTargetsWriter::add(uint64_t v, const void* targets, uint64_t degree) {
  const size_t slots = size_t(shape_.per_vertex) * shape_.id_bytes;
  for (; next_ <= v; ++next_) {
    const size_t at = piece_.size();
    piece_.resize(at + slots, 0);
    if (next_ == v && degree) std::memcpy(piece_.data() + at, targets, size_t(std::min<uint64_t>(degree, shape_.per_vertex)) * shape_.id_bytes);
    if ((next_ + 1) % SampleFile::piece_vertices == 0) end_piece();
  }
}

void SampledTargetsWriter::end_piece() {
  file_.write(piece_.data(), piece_.size());
  table_.push_back(XXH64(piece_.data(), piece_.size(), 0));
  piece_.clear();
}

uint64_t SampledTargetsWriter::finish() {
  if (next_ < shape_.vertices) add(shape_.vertices - 1, nullptr, 0);  // pads the rest
  if (!piece_.empty()) end_piece();
  file_.write(table_.data(), table_.size() * 8);
  return opening_checksum(header_, table_);
}

SampleFile::SampleFile(const std::string& path, const SampleShape& shape, uint64_t checksum)
    : path_(path), shape_(shape), file_(base::FileDescriptor::open_for_reading(path)), table_(pieces_of(shape)) {
  const uint64_t expected_bytes = header_bytes + body_bytes_of(shape) + table_.size() * 8;
  if (file_.size() != expected_bytes) {
    throw base::InputError(path, "", "holds " + std::to_string(file_.size()) + " bytes, expected " + std::to_string(expected_bytes) +
                                         " for " + std::to_string(shape.per_vertex) + " sampled targets of " +
                                         std::to_string(shape.vertices) + " vertices");
  }
  std::vector<uint8_t> header(header_bytes);
  file_.read_exactly(header.data(), header_bytes, 0, path);
  const std::vector<uint8_t> expected = header_of(shape);
  if (std::memcmp(header.data(), sample_magic, 8) != 0) throw base::InputError(path, base::at_byte(0), "expected the magic SLUICESM");
  if (std::memcmp(header.data() + 32, expected.data() + 32, 32) != 0) {
    throw base::InputError(path, base::at_byte(32), "the sample of another layout (not " + shape.layout_id + ")");
  }
  if (header != expected) {
    throw base::InputError(path, base::at_byte(8), "expected the header of a sample of " + std::to_string(shape.per_vertex) +
                                                   " targets per vertex of " + std::to_string(shape.vertices) + " vertices");
  }
  if (!table_.empty()) file_.read_exactly(table_.data(), table_.size() * 8, header_bytes + body_bytes_of(shape), path);
  if (opening_checksum(header, table_) != checksum) {
    throw base::InputError(path, "", "checksum mismatch of its header and piece table: the file is damaged");
  }
}

uint64_t SampleFile::piece_bytes(uint64_t piece) const {
  const uint64_t first = piece * piece_vertices, last = std::min(shape_.vertices, first + piece_vertices);
  return (last - first) * shape_.per_vertex * shape_.id_bytes;
}

uint64_t SampleFile::body_bytes() const { return body_bytes_of(shape_); }

uint64_t SampleFile::opening_bytes() const { return header_bytes + table_.size() * 8; }

void SampleFile::read_piece(uint64_t piece, uint8_t* out) const {
  const uint64_t bytes = piece_bytes(piece);
  const uint64_t offset = header_bytes + piece * piece_vertices * shape_.per_vertex * shape_.id_bytes;
  file_.read_exactly(out, bytes, offset, path_);
  if (XXH64(out, bytes, 0) != table_[piece]) {
    throw base::InputError(path_, base::at_byte(offset), "piece " + std::to_string(piece) + " fails its checksum (the file is damaged)");
  }
  auto check = [&](auto id) {  // little-endian hosts only, as the pages
    using Id = decltype(id);
    for (uint64_t i = 0; i < bytes / sizeof(Id); ++i) {
      Id target;
      std::memcpy(&target, out + i * sizeof(Id), sizeof(Id));
      if (target >= shape_.vertices) {
        throw base::InputError(path_, base::at_byte(offset + i * sizeof(Id)), "sampled target " + std::to_string(target) +
                                                                             " is not a vertex (" + std::to_string(shape_.vertices) + " vertices)");
      }
    }
  };
  if (shape_.id_bytes == 4) check(uint32_t{});
  else check(uint64_t{});
}

void SampleFile::verify() const {
  std::vector<uint8_t> buffer(piece_vertices * shape_.per_vertex * shape_.id_bytes);
  for (uint64_t p = 0; p < pieces(); ++p) read_piece(p, buffer.data());
}

}  // namespace sluice::layout
