// Ligra's adjacency format: a header word, n, m, n offsets, m targets and,
// for WeightedAdjacencyGraph, m weights, all separated by whitespace.
// Parsed in parallel passes: one counts the numbers in each chunk of the
// file; then the offsets, the targets and the weights are each a range of
// numbers, which the threads share out from those counts. Under a memory
// limit only the offsets are held (8 bytes a vertex) and the edges are
// parsed a window at a time. The pages read are released either way.
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

// Chunks of about 1 MiB (a thread of parse_numbers starts that far at
// most before its first number), cut after a newline; their first lines
// are numbered by first_numbers, which reads them anyway. The pages
// mapped to find a newline are dropped (a fault can map a large folio of
// the file around it).
std::vector<base::TextChunk> line_aligned_chunks(const base::MappedFile& file, int threads) {
  const uint64_t count = std::max<uint64_t>(file.size() >> 20, uint64_t(threads) * 8);
  return base::cut_at_lines(file.data(), 0, file.size(), count, [&](uint64_t begin, uint64_t end) { file.release(begin, end); });
}

// The number of each chunk's first number (the last entry: all of them),
// checked against what the header declares, and each chunk's first line.
// Each chunk's pages are dropped once counted.
std::vector<uint64_t> first_numbers(const base::MappedFile& file, const Layout& layout, std::vector<base::TextChunk>& chunks,
                                    int threads) {
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
    file.release(chunks[c].begin, chunks[c].end);
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

// One number of each kind, at p (moved past it): an error message, empty if none.
std::string parse_offset(const char*& p, const char* end, uint64_t m, uint64_t& value) {
  if (base::parse_unsigned(p, end, value) != base::ParseStatus::ok) return "expected an offset (unsigned integer)";
  if (value > m) return "offset " + std::to_string(value) + " exceeds the edge count " + std::to_string(m);
  return {};
}
std::string parse_target(const char*& p, const char* end, uint64_t n, uint64_t& value) {
  if (base::parse_unsigned(p, end, value) != base::ParseStatus::ok) return "expected a target vertex id";
  if (value >= n) return "target id " + std::to_string(value) + " is beyond the vertex count " + std::to_string(n);
  return {};
}
std::string parse_edge_weight(const char*& p, const char* end, float& w) {
  const base::WeightStatus status = base::parse_weight(p, end, w);
  return status == base::WeightStatus::ok ? std::string() : base::weight_error(status);
}

// The offsets, checked: numbers 3 to 3 + n.
void parse_offsets(const base::MappedFile& file, const Layout& layout, const std::vector<base::TextChunk>& chunks,
                   const std::vector<uint64_t>& tokens, int threads, uint64_t* offsets) {
  parse_numbers(file, chunks, tokens, 3, layout.n, threads, [&](uint64_t k, const char*& p, const char* end) {
    return parse_offset(p, end, layout.m, offsets[k - 3]);
  });
  offsets[layout.n] = layout.m;
  check_offsets(file, offsets, layout.n);
}

// Edges [first, first + count): their targets and weights (if any).
template <class V>
void parse_edges(const base::MappedFile& file, const Layout& layout, const std::vector<base::TextChunk>& chunks,
                 const std::vector<uint64_t>& tokens, int threads, uint64_t first, uint64_t count, V* targets, float* weights) {
  const uint64_t targets_at = 3 + layout.n + first;
  parse_numbers(file, chunks, tokens, targets_at, count, threads, [&](uint64_t k, const char*& p, const char* end) {
    uint64_t value = 0;  // stored even when the number is bad: the error ends the parse
    std::string error = parse_target(p, end, layout.n, value);
    targets[k - targets_at] = V(value);
    return error;
  });
  if (!layout.weighted) return;
  const uint64_t weights_at = 3 + layout.n + layout.m + first;
  parse_numbers(file, chunks, tokens, weights_at, count, threads, [&](uint64_t k, const char*& p, const char* end) {
    return parse_edge_weight(p, end, weights[k - weights_at]);
  });
}

template <class V>
Csr<V> parse_csr(const base::MappedFile& file, const Layout& layout, const std::vector<base::TextChunk>& chunks,
                 const std::vector<uint64_t>& tokens, int threads) {
  Csr<V> csr;
  csr.vertices = layout.n;
  csr.weighted = layout.weighted;
  csr.offsets = base::Array<uint64_t>(layout.n + 1, "CSR offsets");
  csr.targets = base::Array<V>(layout.m, "CSR targets");
  if (layout.weighted) csr.weights = base::Array<float>(layout.m, "CSR weights");
  parse_offsets(file, layout, chunks, tokens, threads, csr.offsets.data());
  parse_edges(file, layout, chunks, tokens, threads, 0, layout.m, csr.targets.data(), layout.weighted ? csr.weights.data() : nullptr);
  return csr;
}

}  // namespace

AnyCsr read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options) {
  const int threads = base::resolve_threads(options.threads);
  const Layout layout = read_header(file);
  std::vector<base::TextChunk> chunks = line_aligned_chunks(file, threads);
  const std::vector<uint64_t> tokens = first_numbers(file, layout, chunks, threads);
  if (options.id_bytes != 8 && layout.n <= (uint64_t(1) << 32)) return parse_csr<uint32_t>(file, layout, chunks, tokens, threads);
  return parse_csr<uint64_t>(file, layout, chunks, tokens, threads);
}

WindowedRead read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options, const EdgeWindows& windows) {
  const int threads = base::resolve_threads(options.threads);
  const Layout layout = read_header(file);
  const uint64_t n = layout.n, m = layout.m;
  std::vector<base::TextChunk> chunks = line_aligned_chunks(file, threads);
  const std::vector<uint64_t> tokens = first_numbers(file, layout, chunks, threads);
  base::Array<uint64_t> offsets(n + 1, "the adjacency graph's offsets");
  parse_offsets(file, layout, chunks, tokens, threads, offsets.data());
  const uint64_t per_window = std::max<uint64_t>(1, windows.window_bytes / (layout.weighted ? 20 : 16));
  for (uint64_t first = 0; first < m; first += per_window) {
    const uint64_t count = std::min(per_window, m - first);
    EdgeList<uint64_t> window;
    window.vertices = n;
    window.weighted = layout.weighted;
    window.sources = base::Array<uint64_t>(count, "a window of edges");
    window.targets = base::Array<uint64_t>(count, "a window of edges");
    if (layout.weighted) window.weights = base::Array<float>(count, "a window of edges");
    parse_edges(file, layout, chunks, tokens, threads, first, count, window.targets.data(),
                layout.weighted ? window.weights.data() : nullptr);
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
