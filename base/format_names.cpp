#include "base/format_names.hpp"

#include <cctype>
#include <cstring>

namespace sluice::base {

std::string format_from_extension(const std::string& path) {
  std::string name = path;
  for (const char* compressed : {".gz", ".zst", ".zstd"}) {  // decoded on the way in
    if (name.ends_with(compressed)) name.resize(name.size() - std::strlen(compressed));
  }
  for (const char* ext : {".el", ".txt", ".edges", ".snap", ".tsv"}) {
    if (name.ends_with(ext)) return "el";
  }
  if (name.ends_with(".wel")) return "wel";
  if (name.ends_with(".mtx")) return "mtx";
  if (name.ends_with(".adj")) return "adj";
  if (name.ends_with(".bel")) return "bel";
  if (name.ends_with(".bel64")) return "bel64";
  if (name != path) return "";  // the formats below are read in place, never compressed
  if (path.ends_with(".sluice")) return "sluice";
  if (path.ends_with(".gr.index")) return "blaze";
  if (path.ends_with(".graph") || path.ends_with(".properties")) return "bv";
  return "";
}

std::string format_from_bytes(std::string_view start) {
  if (start.empty()) return "";
  if (start.starts_with("sluice-graph")) return "sluice";
  if (start.starts_with("%%MatrixMarket")) return "mtx";
  if (start.starts_with("AdjacencyGraph") || start.starts_with("WeightedAdjacencyGraph")) return "adj";
  if (std::isdigit(static_cast<unsigned char>(start[0])) || start[0] == '#') return "el";
  return "";
}

}  // namespace sluice::base
