// Ligra's adjacency format: a header word, n, m, n offsets, m targets and,
// for WeightedAdjacencyGraph, m weights, all separated by whitespace. Parsed
// in two parallel passes: count the numbers in each chunk, then write each
// number straight to the array its position selects. Under a memory limit
// only the offsets are held (8 bytes a vertex): the edges are parsed a
// window at a time, each thread a range of numbers found from the chunks'
// counts, and the pages read are released.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "base/number_parsing.hpp"
#include "base/text_chunks.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

namespace {

inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

struct Layout {
  uint64_t n = 0, m = 0;
  bool weighted = false;
};

// The header word, n and m.
Layout read_header(const base::MappedFile& file) {
  const std::string& path = file.path();
  const char* p = file.data();
  const char* end = p + file.size();
  Layout layout;
  const char* word_end = p;
  while (word_end < end && !is_space(*word_end)) ++word_end;
  std::string word(p, word_end);
  if (word == "WeightedAdjacencyGraph") {
    layout.weighted = true;
  } else if (word != "AdjacencyGraph") {
    throw base::InputError(path, base::at_line(1), "expected 'AdjacencyGraph' or 'WeightedAdjacencyGraph', found '" +
                                           word.substr(0, 40) + "'");
  }
  p = word_end;
  uint64_t line = 1;
  for (uint64_t* field : {&layout.n, &layout.m}) {
    while (p < end && is_space(*p)) line += (*p++ == '\n');
    if (base::parse_unsigned(p, end, *field) != base::ParseStatus::ok) {
      throw base::InputError(path, base::at_line(line), field == &layout.n ? "expected the vertex count" : "expected the edge count");
    }
  }
  base::checked_vertex_count(layout.n, path, base::at_line(line));
  if (layout.m > (uint64_t(1) << 60)) throw base::InputError(path, base::at_line(line), "the edge count " + std::to_string(layout.m) + " is impossible");
  return layout;
}

// About `count` chunks of the file, cut after a newline; their first
// lines are numbered by first_numbers, which reads them anyway. With
// `release`, the pages mapped to find a newline are dropped (a fault can
// map a large folio of the file around it).
std::vector<base::TextChunk> line_aligned_chunks(const base::MappedFile& file, uint64_t count, bool release) {
  if (!release) return base::cut_at_lines(file.data(), 0, file.size(), count);
  return base::cut_at_lines(file.data(), 0, file.size(), count, [&](uint64_t begin, uint64_t end) { file.release(begin, end); });
}

// The number of each chunk's first number (the last entry: all of them),
// checked against what the header declares, and each chunk's first line.
// With `release`, each chunk's pages are dropped once counted.
std::vector<uint64_t> first_numbers(const base::MappedFile& file, const Layout& layout, std::vector<base::TextChunk>& chunks,
                                    int threads, bool release) {
  std::vector<uint64_t> tokens(chunks.size() + 1, 0), lines(chunks.size() + 1, 1);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t c = 0; c < chunks.size(); ++c) {
    uint64_t count = 0, newlines = 0;
    bool in_token = false;
    for (const char* q = file.data() + chunks[c].begin, *stop = file.data() + chunks[c].end; q < stop; ++q) {
      bool space = is_space(*q);
      count += !space && !in_token;
      newlines += *q == '\n';
      in_token = !space;
    }
    tokens[c + 1] = count;
    lines[c + 1] = newlines;
    if (release) file.release(chunks[c].begin, chunks[c].end);
  }
  for (size_t c = 0; c < chunks.size(); ++c) {
    tokens[c + 1] += tokens[c];
    lines[c + 1] += lines[c];
    chunks[c].first_line = lines[c];
  }
  const uint64_t expected = 3 + layout.n + layout.m * (layout.weighted ? 2 : 1);
  if (tokens.back() != expected) {
    throw base::InputError(file.path(), "", "the header declares " + std::to_string(layout.n) + " vertices and " +
                                   std::to_string(layout.m) + " edges, so " + std::to_string(expected) +
                                   " numbers in all, but the file holds " + std::to_string(tokens.back()));
  }
  return tokens;
}

void check_offsets(const base::MappedFile& file, const uint64_t* offsets, uint64_t n) {
  if (n > 0 && offsets[0] != 0) throw base::InputError(file.path(), base::at_line(4), "the first offset must be 0");
  for (uint64_t v = 1; v < n; ++v) {
    if (offsets[v] < offsets[v - 1]) {
      throw base::InputError(file.path(), "number " + std::to_string(v + 4),
                       "offsets must not decrease: offset of vertex " + std::to_string(v) + " is " +
                           std::to_string(offsets[v]) + ", after " + std::to_string(offsets[v - 1]));
    }
  }
}

// Numbers [first, first + count) of the file, split among the threads:
// visit(i, p, end) parses number i at p (moving p past it) and returns an
// error message, empty if none. Throws the first error in the file's
// order. Releases the pages it read.
template <class Visit>
void parse_numbers(const base::MappedFile& file, const std::vector<base::TextChunk>& chunks, const std::vector<uint64_t>& tokens,
                   uint64_t first, uint64_t count, int threads, Visit&& visit) {
  const int parts = int(std::min<uint64_t>(uint64_t(threads), std::max<uint64_t>(count, 1)));
  std::vector<std::optional<std::pair<uint64_t, std::string>>> errors{size_t(parts)};
  std::vector<std::pair<uint64_t, uint64_t>> spans(size_t(parts), std::pair<uint64_t, uint64_t>{0, 0});
  const char* end = file.data() + file.size();
#pragma omp parallel for num_threads(parts) schedule(static, 1)
  for (int part = 0; part < parts; ++part) {
    const uint64_t begin = first + count * uint64_t(part) / uint64_t(parts);
    const uint64_t stop = first + count * uint64_t(part + 1) / uint64_t(parts);
    if (begin == stop) continue;
    // The chunk holding number `begin`, then the numbers before it skipped.
    const size_t c = size_t(std::upper_bound(tokens.begin(), tokens.end(), begin) - tokens.begin()) - 1;
    const char* p = file.data() + chunks[c].begin;
    uint64_t line = chunks[c].first_line, k = tokens[c];
    for (;;) {
      while (p < end && is_space(*p)) line += (*p++ == '\n');
      if (k == begin) break;
      while (p < end && !is_space(*p)) ++p;
      ++k;
    }
    spans[size_t(part)].first = chunks[c].begin;
    for (; k < stop; ++k) {
      while (p < end && is_space(*p)) line += (*p++ == '\n');
      std::string error = visit(k, p, end);
      if (error.empty() && p < end && !is_space(*p)) error = "expected whitespace after a number";
      if (!error.empty()) {
        errors[size_t(part)].emplace(line, std::move(error));
        break;
      }
    }
    spans[size_t(part)].second = uint64_t(p - file.data());
  }
  for (const auto& [begin, stop] : spans) file.release(begin, stop);
  for (auto& e : errors) {
    if (e) throw base::InputError(file.path(), base::at_line(e->first), e->second);
  }
}

template <class V>
Csr<V> parse_tokens(const base::MappedFile& file, const Layout& layout, const std::vector<base::TextChunk>& chunks,
                    const std::vector<uint64_t>& first_token, int threads) {
  const uint64_t n = layout.n, m = layout.m;
  Csr<V> csr;
  csr.vertices = n;
  csr.weighted = layout.weighted;
  csr.offsets = base::Array<uint64_t>(n + 1, "CSR offsets");
  csr.targets = base::Array<V>(m, "CSR targets");
  if (layout.weighted) csr.weights = base::Array<float>(m, "CSR weights");
  csr.offsets[n] = m;

  std::vector<std::optional<std::pair<uint64_t, std::string>>> errors(chunks.size());
  auto parse_chunk = [&](size_t c) {
    const char* p = file.data() + chunks[c].begin;
    const char* stop = file.data() + chunks[c].end;
    uint64_t line = chunks[c].first_line;
    uint64_t k = first_token[c];
    auto fail = [&](std::string what) { errors[c].emplace(line, std::move(what)); };
    while (p < stop) {
      if (is_space(*p)) {
        if (*p == '\n') ++line;
        ++p;
        continue;
      }
      if (k < 3) {  // header word, n and m: parsed already
        while (p < stop && !is_space(*p)) ++p;
        ++k;
        continue;
      }
      const uint64_t i = k - 3;
      if (i >= n + m && layout.weighted) {
        float w;
        if (const base::WeightStatus ws = base::parse_weight(p, stop, w); ws != base::WeightStatus::ok) return fail(base::weight_error(ws));
        csr.weights[i - n - m] = w;
      } else {
        uint64_t value;
        if (base::parse_unsigned(p, stop, value) != base::ParseStatus::ok) {
          return fail(i < n ? "expected an offset (unsigned integer)" : "expected a target vertex id");
        }
        if (i < n) {
          if (value > m) return fail("offset " + std::to_string(value) + " exceeds the edge count " + std::to_string(m));
          csr.offsets[i] = value;
        } else {
          if (value >= n) {
            return fail("target id " + std::to_string(value) + " is beyond the vertex count " + std::to_string(n));
          }
          csr.targets[i - n] = V(value);
        }
      }
      if (p < stop && !is_space(*p)) return fail("expected whitespace after a number");
      ++k;
    }
  };
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t c = 0; c < chunks.size(); ++c) parse_chunk(c);
  for (auto& e : errors) {
    if (e) throw base::InputError(file.path(), base::at_line(e->first), e->second);
  }
  check_offsets(file, csr.offsets.data(), n);
  return csr;
}

}  // namespace

AnyCsr read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options) {
  const int threads = base::resolve_threads(options.threads);
  const Layout layout = read_header(file);
  std::vector<base::TextChunk> chunks = line_aligned_chunks(file, uint64_t(threads) * 8, false);
  const std::vector<uint64_t> tokens = first_numbers(file, layout, chunks, threads, false);
  if (options.id_bytes != 8 && layout.n <= (uint64_t(1) << 32)) return parse_tokens<uint32_t>(file, layout, chunks, tokens, threads);
  return parse_tokens<uint64_t>(file, layout, chunks, tokens, threads);
}

WindowedRead read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options, const EdgeWindows& windows) {
  const int threads = base::resolve_threads(options.threads);
  const Layout layout = read_header(file);
  const uint64_t n = layout.n, m = layout.m;
  // Chunks of about 1 MiB: a thread starts that far at most before its numbers.
  std::vector<base::TextChunk> chunks = line_aligned_chunks(file, std::max<uint64_t>(file.size() >> 20, uint64_t(threads) * 8), true);
  const std::vector<uint64_t> tokens = first_numbers(file, layout, chunks, threads, true);
  base::Array<uint64_t> offsets(n + 1, "the adjacency graph's offsets");
  offsets[n] = m;
  parse_numbers(file, chunks, tokens, 3, n, threads, [&](uint64_t k, const char*& p, const char* end) -> std::string {
    uint64_t value;
    if (base::parse_unsigned(p, end, value) != base::ParseStatus::ok) return "expected an offset (unsigned integer)";
    if (value > m) return "offset " + std::to_string(value) + " exceeds the edge count " + std::to_string(m);
    offsets[k - 3] = value;
    return {};
  });
  check_offsets(file, offsets.data(), n);
  const uint64_t per_window = std::max<uint64_t>(1, windows.window_bytes / (layout.weighted ? 20 : 16));
  for (uint64_t first = 0; first < m; first += per_window) {
    const uint64_t count = std::min(per_window, m - first);
    EdgeList<uint64_t> window;
    window.vertices = n;
    window.weighted = layout.weighted;
    window.sources = base::Array<uint64_t>(count, "a window of edges");
    window.targets = base::Array<uint64_t>(count, "a window of edges");
    const uint64_t targets_at = 3 + n + first;
    parse_numbers(file, chunks, tokens, targets_at, count, threads, [&](uint64_t k, const char*& p, const char* end) -> std::string {
      uint64_t value;
      if (base::parse_unsigned(p, end, value) != base::ParseStatus::ok) return "expected a target vertex id";
      if (value >= n) return "target id " + std::to_string(value) + " is beyond the vertex count " + std::to_string(n);
      window.targets[k - targets_at] = value;
      return {};
    });
    if (layout.weighted) {
      window.weights = base::Array<float>(count, "a window of edges");
      const uint64_t weights_at = 3 + n + m + first;
      parse_numbers(file, chunks, tokens, weights_at, count, threads, [&](uint64_t k, const char*& p, const char* end) -> std::string {
        float w;
        if (const base::WeightStatus ws = base::parse_weight(p, end, w); ws != base::WeightStatus::ok) return base::weight_error(ws);
        window.weights[k - weights_at] = w;
        return {};
      });
    }
    // Each edge's source: the vertex whose offsets hold its number.
    uint64_t v = uint64_t(std::upper_bound(offsets.begin(), offsets.end(), first) - offsets.begin()) - 1;
    for (uint64_t e = 0; e < count; ++e) {
      while (offsets[v + 1] <= first + e) ++v;
      window.sources[e] = v;
    }
    windows.consume(window);
  }
  return WindowedRead{n, layout.weighted, false};
}

}  // namespace sluice::formats
