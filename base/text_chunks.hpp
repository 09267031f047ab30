// Splitting a mapped text file into line-aligned chunks for parallel parsing
// (the first of PIGO's two passes). For each chunk it counts the lines that
// may hold data, so the second pass can write every record straight to its
// final slot, and the lines before it, so errors can name a line number.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace sluice::base {

struct TextChunk {
  uint64_t begin = 0;         // byte offsets in the file, begin at a line start
  uint64_t end = 0;
  uint64_t first_line = 0;    // 1-based number of the chunk's first line
  uint64_t data_lines = 0;    // lines not starting with '#', '%' or '\n'
  uint64_t first_slot = 0;    // prefix sum of data_lines
};

// About `count` chunks of [begin, end) of `text`, each cut after a
// newline, with only begin and end set. on_cut(begin, end) is called as
// each is cut, once the bytes up to its end were looked at (a reader
// releases those pages).
std::vector<TextChunk> cut_at_lines(const char* text, uint64_t begin, uint64_t end, uint64_t count,
                                    const std::function<void(uint64_t, uint64_t)>& on_cut = {});

// Chunks of [begin, end) of `text`, about `count` of them, with their
// lines counted.
std::vector<TextChunk> split_into_chunks(const char* text, uint64_t begin, uint64_t end,
                                         uint64_t first_line, int count, int threads);

}  // namespace sluice::base
