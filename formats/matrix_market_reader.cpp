// Matrix Market coordinate files: the banner and size line are read here,
// the entries by the parallel edge-line parser.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "base/number_parsing.hpp"
#include "formats/edge_lines_parser.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

namespace {

// The banner and the size line; `symmetric` when the file stores one triangle.
EdgeLinesFormat matrix_market_format(const base::MappedFile& file, const LoadOptions& options, bool& symmetric) {
  const std::string& path = file.path();
  const char* p = file.data();
  const char* end = p + file.size();
  const char* eol = static_cast<const char*>(std::memchr(p, '\n', file.size()));
  if (!eol) eol = end;
  std::string banner(p, eol);
  for (auto& c : banner) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (banner.rfind("%%matrixmarket", 0) != 0) {
    throw base::InputError(path, base::at_line(1), "expected the banner '%%MatrixMarket matrix coordinate ...'");
  }
  char object[32] = {}, layout[32] = {}, field[32] = {}, symmetry[32] = {};
  if (std::sscanf(banner.c_str(), "%%%%matrixmarket %31s %31s %31s %31s", object, layout, field, symmetry) != 4) {
    throw base::InputError(path, base::at_line(1), "expected 4 words after %%MatrixMarket: matrix coordinate FIELD SYMMETRY");
  }
  if (std::string(object) != "matrix") throw base::InputError(path, base::at_line(1), "expected object 'matrix'");
  if (std::string(layout) != "coordinate") {
    throw base::InputError(path, base::at_line(1), "expected 'coordinate' layout (dense 'array' matrices are not graphs)");
  }
  std::string f(field), s(symmetry);
  if (f != "pattern" && f != "integer" && f != "real") {
    throw base::InputError(path, base::at_line(1), "expected field pattern, integer or real, found '" + f + "'");
  }
  if (s != "general" && s != "symmetric") {
    throw base::InputError(path, base::at_line(1), "expected symmetry general or symmetric, found '" + s + "'");
  }

  // Comments, then the size line "rows cols entries".
  p = eol < end ? eol + 1 : end;
  uint64_t line = 2;
  while (p < end && (*p == '%' || *p == '\n')) {
    base::skip_line(p, end);
    ++line;
  }
  uint64_t rows = 0, cols = 0, entries = 0;
  base::skip_blanks(p, end);
  bool ok = base::parse_unsigned(p, end, rows) == base::ParseStatus::ok;
  base::skip_blanks(p, end);
  ok = ok && base::parse_unsigned(p, end, cols) == base::ParseStatus::ok;
  base::skip_blanks(p, end);
  ok = ok && base::parse_unsigned(p, end, entries) == base::ParseStatus::ok;
  base::skip_blanks(p, end);
  if (!ok || (p < end && *p != '\n')) {
    throw base::InputError(path, base::at_line(line), "expected the size line 'rows columns entries'");
  }
  if (s == "symmetric" && rows != cols) {
    throw base::InputError(path, base::at_line(line), "a symmetric matrix must be square");
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
  format.vertices = base::checked_vertex_count(std::max({rows, cols, options.vertices}), path, base::at_line(line));
  format.expected_edges = entries;
  format.threads = options.threads;
  format.progress = options.progress;
  symmetric = s == "symmetric";
  return format;
}

}  // namespace

MatrixMarketGraph read_matrix_market(const base::MappedFile& file, const LoadOptions& options) {
  bool symmetric = false;
  const EdgeLinesFormat format = matrix_market_format(file, options, symmetric);
  return {parse_edge_lines_narrowest(file, format, options.id_bytes), symmetric};
}

WindowedRead read_matrix_market(const base::MappedFile& file, const LoadOptions& options, const EdgeWindows& windows) {
  bool symmetric = false;
  const EdgeLinesFormat format = matrix_market_format(file, options, symmetric);
  return {parse_edge_lines_in_windows(file, format, windows.window_bytes, windows.consume), format.weighted, symmetric};
}

}  // namespace sluice::formats
