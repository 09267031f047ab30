#include "base/text_chunks.hpp"

#include <algorithm>
#include <cstring>

namespace sluice::base {

std::vector<TextChunk> cut_at_lines(const char* text, uint64_t begin, uint64_t end, uint64_t count,
                                    const std::function<void(uint64_t, uint64_t)>& on_cut) {
  std::vector<TextChunk> chunks;
  const uint64_t length = end - begin;
  count = std::max<uint64_t>(1, std::min<uint64_t>(count, length / 4096 + 1));
  uint64_t at = begin;
  for (uint64_t i = 0; i < count && at < end; ++i) {
    uint64_t cut = (i + 1 == count) ? end : std::max(at, begin + length * (i + 1) / count);
    if (cut < end) {
      const void* nl = std::memchr(text + cut, '\n', end - cut);
      cut = nl ? uint64_t(static_cast<const char*>(nl) - text) + 1 : end;
    }
    if (cut > at) chunks.push_back({at, cut, 0, 0, 0});
    if (on_cut) on_cut(at, cut);
    at = cut;
  }
  return chunks;
}

std::vector<TextChunk> split_into_chunks(const char* text, uint64_t begin, uint64_t end,
                                         uint64_t first_line, int count, int threads) {
  std::vector<TextChunk> chunks = cut_at_lines(text, begin, end, uint64_t(std::max(count, 1)));
  std::vector<uint64_t> newlines(chunks.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t c = 0; c < chunks.size(); ++c) {
    const char* p = text + chunks[c].begin;
    const char* stop = text + chunks[c].end;
    uint64_t lines = 0, data = 0;
    while (p < stop) {
      char first = *p;
      if (first != '#' && first != '%' && first != '\n') ++data;
      const void* nl = std::memchr(p, '\n', size_t(stop - p));
      if (!nl) break;
      ++lines;
      p = static_cast<const char*>(nl) + 1;
    }
    newlines[c] = lines;
    chunks[c].data_lines = data;
  }
  uint64_t line = first_line, slot = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    chunks[c].first_line = line;
    chunks[c].first_slot = slot;
    line += newlines[c];
    slot += chunks[c].data_lines;
  }
  return chunks;
}

}  // namespace sluice::base
