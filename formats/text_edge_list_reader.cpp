#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "formats/csr_builder.hpp"
#include "formats/edge_lines_parser.hpp"
#include "formats/errors.hpp"
#include "formats/loaders.hpp"
#include "formats/mapped_file.hpp"
#include "formats/number_parsing.hpp"

namespace sluice {

static AnyEdgeList parse_with_narrowest_ids(const MappedFile& file, const EdgeLinesFormat& format, unsigned id_bytes) {
  EdgeList<uint32_t> narrow;
  if (id_bytes != 8 && parse_edge_lines(file, format, narrow)) return narrow;
  EdgeList<uint64_t> wide;
  parse_edge_lines(file, format, wide);
  return wide;
}

namespace {

// Reads "Nodes: N" from a SNAP header comment; 0 if the line has none. A
// count beyond 64 bits is an error, not a line to skip.
uint64_t declared_nodes(const char* line, const char* end, const std::string& path, uint64_t line_number) {
  static const char key[] = "Nodes:";
  for (const char* p = line; p + sizeof(key) - 1 <= end; ++p) {
    if (std::memcmp(p, key, sizeof(key) - 1) != 0) continue;
    p += sizeof(key) - 1;
    skip_blanks(p, end);
    uint64_t n = 0;
    const ParseStatus status = parse_unsigned(p, end, n);
    if (status == ParseStatus::ok) return n;
    if (status == ParseStatus::too_large) {
      throw InputError(path, at_line(line_number), "the header's node count does not fit in 64 bits");
    }
    return 0;
  }
  return 0;
}

}  // namespace

AnyEdgeList read_text_edge_list(const MappedFile& file, const LoadOptions& options, bool require_weights) {
  const std::string& path = file.path();
  EdgeLinesFormat format;
  format.base = options.base < 0 ? 0 : options.base;
  format.threads = options.threads;
  format.progress = options.progress;
  format.vertices = checked_vertex_count(options.vertices, path, "--vertices");

  // Header comments may declare the vertex count; the first data line tells
  // whether there is a weight column.
  const char* p = file.data();
  const char* end = file.data() + file.size();
  uint64_t line = 1;
  int columns = 0;
  while (p < end) {
    const char* line_start = p;
    skip_blanks(p, end);
    if (p < end && (*p == '#' || *p == '%')) {
      const char* eol = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      if (!eol) eol = end;
      if (!format.vertices) format.vertices = checked_vertex_count(declared_nodes(p, eol, path, line), path, at_line(line));
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
      while (q < end && !is_blank(*q) && *q != '\n') ++q;
      skip_blanks(q, end);
    }
    p = line_start;
    break;
  }
  if (columns != 0 && columns != 2 && columns != 3) {
    throw InputError(path, at_line(line),
                     "expected 2 columns (source target) or 3 (source target weight), found " +
                         std::to_string(columns));
  }
  if (require_weights && columns == 2) {
    throw InputError(path, at_line(line), "expected 3 columns (source target weight) in a weighted edge list");
  }
  format.weighted = require_weights || columns == 3;
  format.body_begin = uint64_t(p - file.data());
  format.first_line = line;
  if (format.vertices) {
    format.source_limit = format.target_limit = format.vertices;
  }
  return parse_with_narrowest_ids(file, format, options.id_bytes);
}

MatrixMarketGraph read_matrix_market(const MappedFile& file, const LoadOptions& options) {
  const std::string& path = file.path();
  const char* p = file.data();
  const char* end = p + file.size();
  const char* eol = static_cast<const char*>(std::memchr(p, '\n', file.size()));
  if (!eol) eol = end;
  std::string banner(p, eol);
  for (auto& c : banner) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (banner.rfind("%%matrixmarket", 0) != 0) {
    throw InputError(path, at_line(1), "expected the banner '%%MatrixMarket matrix coordinate ...'");
  }
  char object[32] = {}, layout[32] = {}, field[32] = {}, symmetry[32] = {};
  if (std::sscanf(banner.c_str(), "%%%%matrixmarket %31s %31s %31s %31s", object, layout, field, symmetry) != 4) {
    throw InputError(path, at_line(1), "expected 4 words after %%MatrixMarket: matrix coordinate FIELD SYMMETRY");
  }
  if (std::string(object) != "matrix") throw InputError(path, at_line(1), "expected object 'matrix'");
  if (std::string(layout) != "coordinate") {
    throw InputError(path, at_line(1), "expected 'coordinate' layout (dense 'array' matrices are not graphs)");
  }
  std::string f(field), s(symmetry);
  if (f != "pattern" && f != "integer" && f != "real") {
    throw InputError(path, at_line(1), "expected field pattern, integer or real, found '" + f + "'");
  }
  if (s != "general" && s != "symmetric") {
    throw InputError(path, at_line(1), "expected symmetry general or symmetric, found '" + s + "'");
  }

  // Comments, then the size line "rows cols entries".
  p = eol < end ? eol + 1 : end;
  uint64_t line = 2;
  while (p < end && (*p == '%' || *p == '\n')) {
    skip_line(p, end);
    ++line;
  }
  uint64_t rows = 0, cols = 0, entries = 0;
  skip_blanks(p, end);
  bool ok = parse_unsigned(p, end, rows) == ParseStatus::ok;
  skip_blanks(p, end);
  ok = ok && parse_unsigned(p, end, cols) == ParseStatus::ok;
  skip_blanks(p, end);
  ok = ok && parse_unsigned(p, end, entries) == ParseStatus::ok;
  skip_blanks(p, end);
  if (!ok || (p < end && *p != '\n')) {
    throw InputError(path, at_line(line), "expected the size line 'rows columns entries'");
  }
  if (s == "symmetric" && rows != cols) {
    throw InputError(path, at_line(line), "a symmetric matrix must be square");
  }
  if (p < end) ++p;

  EdgeLinesFormat format;
  format.body_begin = uint64_t(p - file.data());
  format.first_line = line + 1;
  format.weighted = f != "pattern";
  format.base = options.base < 0 ? 1 : options.base;
  format.source_limit = rows;
  format.target_limit = cols;
  format.limit_name = "matrix size in the header";
  format.vertices = checked_vertex_count(std::max({rows, cols, options.vertices}), path, at_line(line));
  format.expected_edges = entries;
  format.threads = options.threads;
  format.progress = options.progress;
  return {parse_with_narrowest_ids(file, format, options.id_bytes), s == "symmetric"};
}

AnyCsr build_any_csr(const AnyEdgeList& edges, const BuildOptions& options) {
  return std::visit([&](const auto& list) -> AnyCsr { return build_csr(list, options); }, edges);
}

}  // namespace sluice
