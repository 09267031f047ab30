#include "formats/edge_lines_parser.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "base/errors.hpp"
#include "base/number_parsing.hpp"
#include "base/progress.hpp"
#include "base/text_chunks.hpp"

namespace sluice::formats {

namespace {

struct ChunkResult {
  uint64_t produced = 0;
  uint64_t max_id = 0;
  bool overflow = false;
  std::optional<std::pair<uint64_t, std::string>> error;  // line, message
};

template <class V, bool Weighted>
void parse_chunk(const char* text, const base::TextChunk& chunk, const EdgeLinesFormat& format,
                 V* sources, V* targets, float* weights, ChunkResult& result) {
  const char* p = text + chunk.begin;
  const char* const stop = text + chunk.end;
  uint64_t line = chunk.first_line;
  uint64_t slot = chunk.first_slot;
  uint64_t max_id = 0;
  const uint64_t base = uint64_t(format.base);
  auto fail = [&](std::string what) { result.error.emplace(line, std::move(what)); };

  while (p < stop) {
    char c = *p;
    if (c == '\n') {
      ++p, ++line;
      continue;
    }
    if (c == '#' || c == '%') {
      base::skip_line(p, stop), ++line;
      continue;
    }
    base::skip_blanks(p, stop);
    if (p == stop || *p == '\n' || *p == '#' || *p == '%') {  // blank or indented comment
      base::skip_line(p, stop), ++line;
      continue;
    }
    uint64_t u, v;
    base::ParseStatus status = base::parse_unsigned_fast(p, stop, u);
    if (status != base::ParseStatus::ok) {
      return fail(status == base::ParseStatus::too_large ? "vertex id does not fit in 64 bits"
                                                   : "expected a vertex id (unsigned integer)");
    }
    if (p == stop || !base::is_blank(*p)) return fail("expected whitespace and a target vertex id after the source id");
    base::skip_blanks(p, stop);
    status = base::parse_unsigned_fast(p, stop, v);
    if (status != base::ParseStatus::ok) {
      return fail(status == base::ParseStatus::too_large ? "vertex id does not fit in 64 bits"
                                                   : "expected a target vertex id (unsigned integer)");
    }
    float w = 1.0f;
    if constexpr (Weighted) {
      if (p == stop || !base::is_blank(*p)) return fail("expected a weight after the target id (3 columns)");
      base::skip_blanks(p, stop);
      if (const base::WeightStatus ws = base::parse_weight(p, stop, w); ws != base::WeightStatus::ok) return fail(base::weight_error(ws));
    }
    base::skip_blanks(p, stop);
    if (p < stop) {
      if (*p != '\n') {
        return fail(Weighted ? "unexpected text after the weight, expected 3 columns"
                             : "unexpected text after the target id, expected 2 columns");
      }
      ++p;
    }
    if (base == 1) {
      if (u == 0 || v == 0) return fail("vertex id 0 in a file with 1-based ids");
      --u, --v;
    }
    if ((u >= base::max_vertices || v >= base::max_vertices) && !format.any_ids) {
      return fail("vertex id " + std::to_string(std::max(u, v) + base) + " is too large: ids must be below " +
                  std::to_string(base::max_vertices) + " (convert with --relabel to number the ids densely from 0)");
    }
    // An id equal to the count in a 0-based file: most likely 1-based ids.
    auto hint = [&](uint64_t id, uint64_t limit) {
      return base == 0 && id == limit ? std::string(" (if the ids are 1-based, pass --base 1)") : std::string();
    };
    if (u >= format.source_limit) {
      return fail("source id " + std::to_string(u + base) + " is beyond the " + format.limit_name + " " +
                  std::to_string(format.source_limit) + hint(u, format.source_limit));
    }
    if (v >= format.target_limit) {
      return fail("target id " + std::to_string(v + base) + " is beyond the " + format.limit_name + " " +
                  std::to_string(format.target_limit) + hint(v, format.target_limit));
    }
    if (u > std::numeric_limits<V>::max() || v > std::numeric_limits<V>::max()) {
      result.overflow = true;
      return;
    }
    max_id = std::max(max_id, std::max(u, v));
    sources[slot] = V(u);
    targets[slot] = V(v);
    if constexpr (Weighted) weights[slot] = w;
    ++slot, ++line;
  }
  result.produced = slot - chunk.first_slot;
  result.max_id = max_id;
}

}  // namespace

template <class V>
bool parse_edge_lines(const base::MappedFile& file, const EdgeLinesFormat& format, EdgeList<V>& out) {
  const int threads = base::resolve_threads(format.threads);
  std::vector<base::TextChunk> chunks =
      base::split_into_chunks(file.data(), format.body_begin, std::min(format.body_end, file.size()), format.first_line, threads * 8, threads);
  uint64_t slots = chunks.empty() ? 0 : chunks.back().first_slot + chunks.back().data_lines;
  if (format.expected_edges && slots < *format.expected_edges) {
    throw base::InputError(file.path(), "", "the header declares " + std::to_string(*format.expected_edges) +
                                          " entries but the file holds at most " + std::to_string(slots) +
                                          " lines of data");
  }

  base::require_memory(slots * (2 * sizeof(V) + (format.weighted ? 4 : 0)), "the edge list");
  EdgeList<V> edges;
  edges.weighted = format.weighted;
  edges.sources = base::Array<V>(slots, "edge sources");
  edges.targets = base::Array<V>(slots, "edge targets");
  if (format.weighted) edges.weights = base::Array<float>(slots, "edge weights");

  std::vector<ChunkResult> results(chunks.size());
  base::Progress progress("parsing " + file.path(), std::min(format.body_end, file.size()) - format.body_begin, format.progress, "bytes");
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (format.weighted) {
      parse_chunk<V, true>(file.data(), chunks[c], format, edges.sources.data(), edges.targets.data(),
                           edges.weights.data(), results[c]);
    } else {
      parse_chunk<V, false>(file.data(), chunks[c], format, edges.sources.data(), edges.targets.data(),
                            nullptr, results[c]);
    }
    progress.advance(chunks[c].end - chunks[c].begin);
  }
  progress.done();
  for (auto& r : results) {
    if (r.error) throw base::InputError(file.path(), base::at_line(r.error->first), r.error->second);
  }
  for (auto& r : results) {
    if (r.overflow) return false;
  }

  // Close the gaps left by blank or indented-comment lines (rare).
  uint64_t count = 0, max_id = 0;
  bool any = false;
  for (size_t c = 0; c < chunks.size(); ++c) {
    uint64_t from = chunks[c].first_slot, n = results[c].produced;
    if (from != count && n > 0) {
      std::memmove(edges.sources.data() + count, edges.sources.data() + from, n * sizeof(V));
      std::memmove(edges.targets.data() + count, edges.targets.data() + from, n * sizeof(V));
      if (format.weighted) std::memmove(edges.weights.data() + count, edges.weights.data() + from, n * 4);
    }
    count += n;
    if (n > 0) {
      any = true;
      max_id = std::max(max_id, results[c].max_id);
    }
  }
  edges.sources.truncate(count);
  edges.targets.truncate(count);
  edges.weights.truncate(format.weighted ? count : 0);
  if (format.expected_edges && count != *format.expected_edges) {
    throw base::InputError(file.path(), "", "the header declares " + std::to_string(*format.expected_edges) +
                                          " entries but the file holds " + std::to_string(count));
  }
  if (format.vertices) {
    edges.vertices = format.vertices;
  } else if (format.any_ids) {
    edges.vertices = any ? std::max(max_id, max_id + 1) : 0;  // not read by relabelling; saturates at 2^64 - 1
  } else {
    edges.vertices = any ? base::vertex_count_for_id(max_id, file.path()) : 0;
  }
  out = std::move(edges);
  return true;
}

template bool parse_edge_lines(const base::MappedFile&, const EdgeLinesFormat&, EdgeList<uint32_t>&);
template bool parse_edge_lines(const base::MappedFile&, const EdgeLinesFormat&, EdgeList<uint64_t>&);

uint64_t parse_edge_lines_in_windows(const base::MappedFile& file, EdgeLinesFormat format, uint64_t window_bytes,
                                     const std::function<void(EdgeList<uint64_t>&)>& consume) {
  const std::optional<uint64_t> expected = format.expected_edges;
  format.expected_edges.reset();
  const char* const text = file.data();
  const uint64_t end = std::min(format.body_end, file.size());
  uint64_t edges = 0, vertices = format.vertices;
  base::Progress progress("parsing " + file.path(), end - format.body_begin, format.progress, "bytes");
  EdgeLinesFormat window = format;
  window.progress = false;
  while (window.body_begin < end) {
    uint64_t cut = std::min(end, window.body_begin + std::max<uint64_t>(window_bytes, 1));
    if (cut < end) {
      const void* eol = std::memchr(text + cut, '\n', end - cut);
      cut = eol ? uint64_t(static_cast<const char*>(eol) - text) + 1 : end;
    }
    window.body_end = cut;
    EdgeList<uint64_t> list;
    parse_edge_lines(file, window, list);
    edges += list.size();
    if (list.size()) vertices = std::max(vertices, list.vertices);
    consume(list);
    window.first_line += uint64_t(std::count(text + window.body_begin, text + cut, '\n'));
    file.release(window.body_begin, cut);
    progress.advance(cut - window.body_begin);
    window.body_begin = cut;
  }
  progress.done();
  if (expected && edges != *expected) {
    throw base::InputError(file.path(), "", "the header declares " + std::to_string(*expected) +
                                          " entries but the file holds " + std::to_string(edges));
  }
  return vertices;
}

AnyEdgeList parse_edge_lines_narrowest(const base::MappedFile& file, const EdgeLinesFormat& format, unsigned id_bytes) {
  EdgeList<uint32_t> narrow;
  if (id_bytes != 8 && parse_edge_lines(file, format, narrow)) return narrow;
  EdgeList<uint64_t> wide;
  parse_edge_lines(file, format, wide);
  return wide;
}

}  // namespace sluice::formats
