// Ligra's adjacency format: a header word, n, m, n offsets, m targets and,
// for WeightedAdjacencyGraph, m weights, all separated by whitespace. Parsed
// in two parallel passes: count the numbers in each chunk, then write each
// number straight to the array its position selects.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
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
  if (n > 0 && csr.offsets[0] != 0) throw base::InputError(file.path(), base::at_line(4), "the first offset must be 0");
  for (uint64_t v = 1; v < n; ++v) {
    if (csr.offsets[v] < csr.offsets[v - 1]) {
      throw base::InputError(file.path(), "number " + std::to_string(v + 4),
                       "offsets must not decrease: offset of vertex " + std::to_string(v) + " is " +
                           std::to_string(csr.offsets[v]) + ", after " + std::to_string(csr.offsets[v - 1]));
    }
  }
  return csr;
}

}  // namespace

AnyCsr read_adjacency_graph(const base::MappedFile& file, const LoadOptions& options) {
  const std::string& path = file.path();
  const int threads = base::resolve_threads(options.threads);
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

  std::vector<base::TextChunk> chunks = base::split_into_chunks(file.data(), 0, file.size(), 1, threads * 8, threads);
  std::vector<uint64_t> tokens(chunks.size() + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t c = 0; c < chunks.size(); ++c) {
    uint64_t count = 0;
    bool in_token = false;
    for (const char* q = file.data() + chunks[c].begin, *stop = file.data() + chunks[c].end; q < stop; ++q) {
      bool space = is_space(*q);
      count += !space && !in_token;
      in_token = !space;
    }
    tokens[c + 1] = count;
  }
  for (size_t c = 0; c < chunks.size(); ++c) tokens[c + 1] += tokens[c];
  const uint64_t expected = 3 + layout.n + layout.m * (layout.weighted ? 2 : 1);
  if (tokens.back() != expected) {
    throw base::InputError(path, "", "the header declares " + std::to_string(layout.n) + " vertices and " +
                                   std::to_string(layout.m) + " edges, so " + std::to_string(expected) +
                                   " numbers in all, but the file holds " + std::to_string(tokens.back()));
  }
  if (options.id_bytes != 8 && layout.n <= (uint64_t(1) << 32)) return parse_tokens<uint32_t>(file, layout, chunks, tokens, threads);
  return parse_tokens<uint64_t>(file, layout, chunks, tokens, threads);
}

}  // namespace sluice::formats
