// Compressed edge pages (`sluice convert --compress`): each page holds the
// edges [first, first + count) of the edge set, as whole or partial
// neighbour lists, and decodes on its own:
//
//   u32 count        edges in the page
//   u32 first vertex the source of the page's first edge
//   control bytes    2 bits per value (its length in bytes, less one), ceil(count / 4) of them
//   data bytes       each value in 1 to 4 little-endian bytes
//   zeros            to the end of the page
//
// Every value is zigzag(target - the target before it in the page); the
// page's first is against its first vertex. So a page decodes as one
// prefix sum, four values per shuffle (stream-vbyte's arrangement:
// controls apart from data), without the lists' boundaries and without
// the page before. Lists are written sorted, so that most differences
// are small gaps. Where each list starts follows from the first vertex and
// the layout's degrees (the index every reader holds).
//
// Compressed layouts are unweighted with 32-bit ids and fewer than 2^31
// vertices (so a zigzagged difference fits 32 bits).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sluice::layout {

inline constexpr uint64_t compressed_page_header_bytes = 8;
inline constexpr uint64_t compressed_max_vertices = uint64_t(1) << 31;

// The most edges one page can hold (every value one byte).
inline uint64_t compressed_page_capacity(uint64_t page_bytes) {
  return (page_bytes - compressed_page_header_bytes) * 4 / 5;
}

// What a compressed page's header says.
struct CompressedPageHeader {
  uint32_t edges = 0;
  uint32_t first_vertex = 0;
  static CompressedPageHeader of(const char* page);
};

// Builds pages from lists given in source order; hands each full page to
// `emit` with the number of its first edge.
class CompressedPageEncoder {
 public:
  using Emit = std::function<void(const char* page, uint64_t first_edge)>;
  CompressedPageEncoder(uint64_t page_bytes, Emit emit);
  // Appends source's list (best sorted ascending; may be empty).
  void add_list(uint64_t source, const uint32_t* targets, uint64_t count);
  // Emits the last, partly filled page.
  void finish();
  uint64_t pages() const { return pages_; }

 private:
  void emit_page();

  uint64_t page_bytes_;
  Emit emit_;
  std::vector<uint32_t> values_;  // of the page being filled
  std::vector<uint8_t> lengths_;
  uint64_t data_bytes_ = 0;
  uint64_t first_vertex_ = 0;
  uint64_t previous_ = 0;  // the last target put in the page
  uint64_t first_edge_ = 0, next_edge_ = 0;
  uint64_t pages_ = 0;
  std::vector<char> page_;
};

// Decodes a page's targets into out (room for compressed_page_capacity)
// and returns the largest; UINT64_MAX when the page is malformed (more
// edges than it can hold, or control bytes claiming data past its end).
// `simd`: four values per shuffle where the CPU has SSE4.1 (false: one at
// a time, for comparison).
uint64_t decode_page(const char* page, uint64_t page_bytes, uint32_t* out, bool simd = true);

}  // namespace sluice::layout
