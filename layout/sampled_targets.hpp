// Each vertex's first k targets, in a side file beside an edge set's index
// (NAME.out.sample, NAME.in.sample; `convert --sample-edges K`, 2 by
// default):
//
//   header   64 bytes: magic SLUICESM, layout version, vertex count, k,
//            id width, vertices per piece, the layout's id
//   body     k ids a vertex in the layout's id width, little-endian; the
//            slots past a vertex's degree are zero
//   table    the xxh64 of each piece's body bytes (a piece: 16384 vertices)
//
// The manifest holds the xxh64 of the header and the table, so opening
// the file checks those; a piece is checked when it is read. Pieces let
// the compute threads read, check and use the file in parallel, and skip
// pieces with no active vertex.
//
// Why: Afforest (WCC) starts by linking every vertex to its first two
// neighbours. From the pages that reads every page of the edge set (each
// page holds many lists); from this file it reads k ids a vertex: 8 bytes
// a vertex with 32-bit ids against 64 on RMAT 22's pages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/mapped_file.hpp"

struct XXH64_state_s;  // xxhash.h's streaming state

namespace sluice::layout {

// What the file of an edge set must hold: its layout, vertices, targets
// per vertex and id width.
struct SampleShape {
  std::string layout_id;
  uint64_t vertices = 0;
  uint32_t per_vertex = 0;
  unsigned id_bytes = 4;
};

// Streams the file: one call per vertex, in ascending order (vertices
// skipped get empty slots).
class SampledTargetsWriter {
 public:
  SampledTargetsWriter(base::AtomicFile& file, const SampleShape& shape);
  // v's list as stored (`id_bytes`-wide targets); only its first
  // per_vertex are kept.
  void add(uint64_t v, const void* targets, uint64_t degree);
  // Writes the slots of the vertices never added and the table; returns
  // the checksum the manifest records.
  uint64_t finish();

  struct FreeState {
    void operator()(XXH64_state_s* state) const;
  };

 private:
  void end_piece();

  base::AtomicFile& file_;
  SampleShape shape_;
  uint64_t next_ = 0;
  std::vector<uint8_t> piece_;  // the current piece's body bytes
  std::vector<uint64_t> table_;
  std::vector<uint8_t> header_;
};

// An edge set's sample file, open: its header and table read and checked.
class SampleFile {
 public:
  // Throws InputError naming `path` when the file is not the sample of
  // `shape` (another layout's: one that replaced it; or the wrong size),
  // or when the header and table fail the manifest's checksum.
  SampleFile(const std::string& path, const SampleShape& shape, uint64_t checksum);

  const SampleShape& shape() const { return shape_; }
  static constexpr uint64_t piece_vertices = 16384;
  uint64_t pieces() const { return table_.size(); }
  uint64_t piece_bytes(uint64_t piece) const;
  // Bytes of the body: every piece.
  uint64_t body_bytes() const;
  // Bytes of the header and table, read when opened.
  uint64_t opening_bytes() const;
  // Reads piece `piece` into `out` (room for piece_bytes(piece)) and
  // checks its checksum and that every target is a vertex; InputError
  // naming the file and byte otherwise. Thread-safe (pread).
  void read_piece(uint64_t piece, uint8_t* out) const;
  // Reads and checks every piece.
  void verify() const;

 private:
  std::string path_;
  SampleShape shape_;
  base::FileDescriptor file_;
  std::vector<uint64_t> table_;
};

}  // namespace sluice::layout
