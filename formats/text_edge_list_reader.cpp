#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "base/number_parsing.hpp"
#include "formats/csr_builder.hpp"
#include "formats/edge_lines_parser.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

namespace {

// Reads "Nodes: N" from a SNAP header comment; 0 if the line has none. A
// count beyond 64 bits is an error, not a line to skip.
uint64_t declared_nodes(const char* line, const char* end, const std::string& path, uint64_t line_number) {
  static const char key[] = "Nodes:";
  for (const char* p = line; p + sizeof(key) - 1 <= end; ++p) {
    if (std::memcmp(p, key, sizeof(key) - 1) != 0) continue;
    p += sizeof(key) - 1;
    base::skip_blanks(p, end);
    uint64_t n = 0;
    const base::ParseStatus status = base::parse_unsigned(p, end, n);
    if (status == base::ParseStatus::ok) return n;
    if (status == base::ParseStatus::too_large) {
      throw base::InputError(path, base::at_line(line_number), "the header's node count does not fit in 64 bits");
    }
    return 0;
  }
  return 0;
}

// The body's share `share` of `shares`: from the first line that starts
// at or after its first byte to the first that starts at or after the
// next share's; its first line's number counted (the pages released).
void cut_share(const base::MappedFile& file, EdgeLinesFormat& format, unsigned share, unsigned shares) {
  const uint64_t begin = format.body_begin, size = file.size();
  auto line_start = [&](unsigned s) {
    if (s == 0) return begin;
    if (s >= shares) return size;
    const uint64_t at = begin + uint64_t((unsigned __int128)(size - begin) * s / shares);
    if (at == begin) return begin;  // a line starts there
    const void* eol = std::memchr(file.data() + at - 1, '\n', size_t(size - at + 1));
    return eol ? uint64_t(static_cast<const char*>(eol) - file.data()) + 1 : size;
  };
  const uint64_t first = line_start(share), last = line_start(share + 1);
  constexpr uint64_t window = uint64_t(64) << 20;
  for (uint64_t at = begin; at < first; at += window) {
    const uint64_t end = std::min(first, at + window);
    format.first_line += uint64_t(std::count(file.data() + at, file.data() + end, '\n'));
    file.release(at, end);
  }
  format.body_begin = first;
  format.body_end = last;
}

// The header: the body's start, the weight column, the declared count.
EdgeLinesFormat text_format(const base::MappedFile& file, const LoadOptions& options, bool require_weights, uint64_t& declared) {
  const std::string& path = file.path();
  EdgeLinesFormat format;
  format.base = options.base < 0 ? 0 : options.base;
  format.threads = options.threads;
  format.progress = options.progress;
  format.any_ids = options.relabel;
  format.vertices = base::checked_vertex_count(options.vertices, path, "--vertices");

  // Header comments may declare the vertex count (SNAP's "# Nodes: N"),
  // which describes the file rather than bounds it: web-Google declares
  // 875,713 nodes with ids up to 916,427. The graph has max(declared,
  // largest id + 1) vertices, and a note says when the ids reach past the
  // count. The first data line tells whether there is a weight column.
  declared = 0;
  const char* p = file.data();
  const char* end = file.data() + file.size();
  uint64_t line = 1;
  int columns = 0;
  while (p < end) {
    const char* line_start = p;
    base::skip_blanks(p, end);
    if (p < end && (*p == '#' || *p == '%')) {
      const char* eol = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      if (!eol) eol = end;
      if (!declared) declared = base::checked_vertex_count(declared_nodes(p, eol, path, line), path, base::at_line(line));
      p = eol < end ? eol + 1 : end;
      ++line;
      continue;
    }
    if (p < end && *p == '\n') {
      ++p, ++line;
      continue;
    }
    for (const char* q = p; q < end && *q != '\n';) {
      ++columns;
      while (q < end && !base::is_blank(*q) && *q != '\n') ++q;
      base::skip_blanks(q, end);
    }
    p = line_start;
    break;
  }
  if (columns != 0 && columns != 2 && columns != 3) {
    throw base::InputError(path, base::at_line(line),
                     "expected 2 columns (source target) or 3 (source target weight), found " +
                         std::to_string(columns));
  }
  if (require_weights && columns == 2) {
    throw base::InputError(path, base::at_line(line), "expected 3 columns (source target weight) in a weighted edge list");
  }
  format.weighted = require_weights || columns == 3;
  format.body_begin = uint64_t(p - file.data());
  format.first_line = line;
  if (options.shares > 1) cut_share(file, format, options.share, options.shares);
  if (format.vertices) {
    format.source_limit = format.target_limit = format.vertices;
  }
  return format;
}

// Relabelled, the graph has the vertices its edges name, whatever the
// header says; otherwise max(declared, largest id + 1), with a note when
// the ids reach past the declared count.
uint64_t with_declared(const std::string& path, const EdgeLinesFormat& format, const LoadOptions& options, uint64_t declared,
                       uint64_t vertices) {
  if (!declared || format.vertices || options.relabel) return vertices;
  if (vertices > declared) {
    // Ids that reach exactly the count are most likely 1-based.
    const bool one_based = format.base == 0 && vertices == declared + 1;
    std::fprintf(stderr, "sluice: %s: the header declares %llu nodes but the ids reach %llu: reading %llu vertices%s\n",
                 path.c_str(), (unsigned long long)declared, (unsigned long long)(vertices - 1),
                 (unsigned long long)vertices,
                 one_based ? " (if the ids are 1-based, pass --base 1)" : " (--relabel keeps only the ids that appear, numbered densely from 0; --vertices N holds them to a count)");
  }
  return std::max(vertices, declared);
}

}  // namespace

AnyEdgeList read_text_edge_list(const base::MappedFile& file, const LoadOptions& options, bool require_weights) {
  uint64_t declared = 0;
  const EdgeLinesFormat format = text_format(file, options, require_weights, declared);
  AnyEdgeList edges = parse_edge_lines_narrowest(file, format, options.id_bytes);
  std::visit([&](auto& list) { list.vertices = with_declared(file.path(), format, options, declared, list.vertices); }, edges);
  return edges;
}

WindowedRead read_text_edge_list(const base::MappedFile& file, const LoadOptions& options, bool require_weights,
                                 const EdgeWindows& windows) {
  uint64_t declared = 0;
  const EdgeLinesFormat format = text_format(file, options, require_weights, declared);
  const uint64_t vertices = parse_edge_lines_in_windows(file, format, windows.window_bytes, windows.consume);
  return {with_declared(file.path(), format, options, declared, vertices), format.weighted, false};
}

}  // namespace sluice::formats
