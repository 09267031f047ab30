// Compressed edge pages (what `sluice convert` writes unless --plain):
// each page holds the edges [first, first + count) of the edge set, as
// whole or partial neighbour lists, and decodes on its own:
//
//   u32 count        edges in the page; in a weighted layout, bit 31 set
//                    when the page's weights are raw floats
//   u32 first vertex the source of the page's first edge (64-bit ids:
//                    u32 zero, then u64 first vertex)
//   control bytes    2 bits per value (its length in bytes, less one;
//                    64-bit ids: log2 of its length), ceil(count / 4) of them
//   data bytes       each value in 1 to 4 little-endian bytes (64-bit ids: 1, 2, 4 or 8)
//   weights          weighted layouts only: when every weight of the page
//                    is an integer below 2^24 (bit 31 clear), control
//                    bytes and data bytes as above, each weight a value;
//                    otherwise count raw little-endian floats
//   zeros            to the end of the page
//
// Every target's value is zigzag(target - the target before it in the
// page); the page's first is against its first vertex. So a page decodes
// as one prefix sum, four values per shuffle (stream-vbyte's arrangement:
// controls apart from data), without the lists' boundaries and without
// the page before. Lists are written sorted (a weighted list by target,
// then weight), so that most differences are small gaps. Where each list
// starts follows from the first vertex and the layout's degrees (the
// index every reader holds). Weights sit beside the targets in the same
// page, so a page is still whole in itself: integer weights of 1 to 255,
// the common case, cost one byte and two bits an edge.
//
// With 32-bit ids a compressed layout holds fewer than 2^31 vertices (so
// a zigzagged difference fits 32 bits); with 64-bit ids, fewer than 2^63.
// Pages of 64-bit ids decode one value at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sluice::layout {

inline constexpr uint64_t compressed_page_header_bytes = 8;
inline constexpr uint64_t compressed_wide_page_header_bytes = 16;  // 64-bit ids
inline constexpr uint64_t compressed_max_vertices = uint64_t(1) << 31;
inline constexpr uint64_t compressed_max_wide_vertices = uint64_t(1) << 63;
inline bool compressed_pages_hold(uint64_t vertices, unsigned id_bytes) { return id_bytes == 8 || vertices <= compressed_max_vertices; }
inline uint64_t compressed_header_bytes(bool wide) { return wide ? compressed_wide_page_header_bytes : compressed_page_header_bytes; }
// Bit 31 of a weighted page's count: its weights are raw floats.
inline constexpr uint32_t compressed_raw_weights = uint32_t(1) << 31;
// Weights below this, whole and not negative, are stored as integers.
inline constexpr float compressed_integer_weight_limit = 16777216.0f;  // 2^24: exact in a float

// The most edges one page can hold (every value one byte).
inline uint64_t compressed_page_capacity(uint64_t page_bytes, bool weighted, bool wide = false) {
  return (page_bytes - compressed_header_bytes(wide)) * 4 / (weighted ? 10 : 5);
}
// The fewest edges a full page holds: every value 4 bytes (8 with 64-bit
// ids) with its control bits (a raw weight 4 more), and a page's unused tail.
inline uint64_t compressed_page_fewest(uint64_t page_bytes, bool weighted, bool wide = false) {
  return (page_bytes - compressed_header_bytes(wide)) * 4 / (wide ? (weighted ? 50 : 34) : (weighted ? 34 : 18));
}

// What a compressed page's header says.
struct CompressedPageHeader {
  uint32_t edges = 0;
  uint64_t first_vertex = 0;
  bool raw_weights = false;  // of a weighted page: bit 31 of the count
  static CompressedPageHeader of(const char* page, bool weighted, bool wide = false);
};

// Builds pages from lists given in source order; hands each full page to
// `emit` with the number of its first edge.
class CompressedPageEncoder {
 public:
  using Emit = std::function<void(const char* page, uint64_t first_edge)>;
  // `wide`: 64-bit ids.
  CompressedPageEncoder(uint64_t page_bytes, bool weighted, Emit emit, bool wide = false);
  // Appends source's list (best sorted ascending; may be empty), and in a
  // weighted layout its weights; the ids as wide as the encoder's.
  void add_list(uint64_t source, const uint32_t* targets, uint64_t count, const float* weights = nullptr);
  void add_list(uint64_t source, const uint64_t* targets, uint64_t count, const float* weights = nullptr);
  // Emits the last, partly filled page.
  void finish();
  uint64_t pages() const { return pages_; }

 private:
  template <class Id, bool weighted>
  void add(uint64_t source, const Id* targets, uint64_t count, const float* weights);
  void emit_page();

  uint64_t page_bytes_;
  bool weighted_;
  bool wide_;
  Emit emit_;
  // The page being filled: its targets' control bytes and data bytes, as
  // they will lie on it.
  std::vector<uint8_t> controls_;
  std::vector<uint8_t> data_;
  uint64_t edges_ = 0, data_bytes_ = 0;
  std::vector<float> weights_;  // weighted
  bool raw_weights_ = false;    // one of them is not an integer below 2^24
  uint64_t weight_bytes_ = 0;   // their data bytes as integers
  uint64_t first_vertex_ = 0;
  uint64_t previous_ = 0;  // the last target put in the page
  uint64_t first_edge_ = 0, next_edge_ = 0;
  uint64_t pages_ = 0;
  std::vector<char> page_;
};

// Decodes a page's targets into out (room for compressed_page_capacity)
// and, given `weights` (a weighted layout's page), its weights, and
// returns the largest target; UINT64_MAX when the page is malformed (more
// edges than it can hold, or control bytes claiming data past its end).
// `simd`: four values per shuffle where the CPU has SSE4.1 (false: one at
// a time, for comparison).
uint64_t decode_page(const char* page, uint64_t page_bytes, uint32_t* out, float* weights = nullptr, bool simd = true);
// The same for a weighted page, its targets into `targets` (room for
// compressed_page_capacity) and then each beside its weight into
// `records`, 8 bytes each: the target, then the weight as a float.
uint64_t decode_page_records(const char* page, uint64_t page_bytes, uint32_t* targets, char* records, bool simd = true);
// The same as decode_page for a page of 64-bit ids (two values per
// shuffle where the CPU has SSE4.1).
uint64_t decode_wide_page(const char* page, uint64_t page_bytes, uint64_t* out, float* weights = nullptr, bool simd = true);
// The same as decode_page_records for a weighted page of 64-bit ids: its
// records are 16 bytes, the target, the weight and 4 bytes of padding.
uint64_t decode_wide_page_records(const char* page, uint64_t page_bytes, uint64_t* targets, char* records, bool simd = true);

}  // namespace sluice::layout
