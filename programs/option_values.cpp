#include "programs/option_values.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>

namespace sluice::programs {

uint64_t parse_byte_size(const std::string& text) {
  size_t used = 0;
  unsigned long long value = 0;
  bool ok = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
  if (ok) {
    try {
      value = std::stoull(text, &used);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  std::string unit = ok ? text.substr(used) : "";
  for (auto& c : unit) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && (unit.back() == 'b')) unit.pop_back();            // kb, kib
  if (unit.size() > 1 && (unit.back() == 'i')) unit.pop_back();            // ki
  const std::string units = "kmgt";
  const size_t power = unit.empty() ? 0 : unit.size() == 1 && units.find(unit[0]) != std::string::npos ? units.find(unit[0]) + 1 : 99;
  if (!ok || power == 99 || (power && value > (~0ull >> (10 * power)))) {
    throw po::error("'" + text + "' is not a size in bytes (e.g. 4096, 64k, 1M, 2G)");
  }
  return value << (10 * power);
}

po::typed_value<ByteSize>* byte_size_value(const char* default_text) {
  return po::value<ByteSize>()->default_value(ByteSize{parse_byte_size(default_text)}, default_text);
}

void validate(boost::any& value, const std::vector<std::string>& tokens, ByteSize*, int) {
  po::validators::check_first_occurrence(value);
  const std::string& text = po::validators::get_single_string(tokens);
  try {
    value = ByteSize{parse_byte_size(text)};
  } catch (const po::error&) {
    // Boost fills in the option's name.
    po::error_with_option_name e("the argument ('%value%') for option '%canonical_option%' is not a size in bytes "
                                 "(e.g. 4096, 64k, 1M, 2G)");
    e.set_substitute("value", text);
    throw e;
  }
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}
std::vector<std::string> split_values(const std::string& text, const char* option) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma == start) throw po::error(std::string(option) + " was given an empty value ('" + text + "')");
    parts.push_back(text.substr(start, comma - start));
    if (comma == text.size()) return parts;
    start = comma + 1;
  }
}

uint64_t parse_vertex_id(const std::string& text, const char* option) {
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw po::error(std::string(option) + ": '" + text + "' is not a vertex id (a number from 0 to 2^64 - 1)");
  }
  return id;
}

engine::SkipThreshold parse_skip_threshold(const std::string& text) {
  if (text == "inf" || text == "infinity") return engine::SkipThreshold::infinity();
  try {
    return engine::SkipThreshold::of(parse_byte_size(text));
  } catch (const po::error&) {
    throw po::error("skip threshold '" + text + "': expected bytes (e.g. 0, 65536, 64k, 1m) or inf");
  }
}

engine::Direction parse_direction(const std::string& text) {
  if (text == "auto") return engine::Direction::automatic;
  if (text == "push") return engine::Direction::push;
  if (text == "pull") return engine::Direction::pull;
  throw po::error("unknown direction '" + text + "' (expected auto, push or pull)");
}

engine::EdgeMapVariant parse_edgemap(const std::string& text) {
  if (text == "binning") return engine::EdgeMapVariant::binning;
  if (text == "atomic") return engine::EdgeMapVariant::atomic;
  throw po::error("--edgemap must be binning or atomic, not '" + text + "'");
}

io::BackendKind parse_backend(const std::string& name) {
  if (name == "auto") return io::BackendKind::automatic;
  if (name == "uring") return io::BackendKind::uring;
  if (name == "aio") return io::BackendKind::aio;
  if (name == "psync") return io::BackendKind::psync;
  if (name == "memory") return io::BackendKind::memory;
  throw po::error("--io must be auto, uring, aio, psync or memory, not '" + name + "'");
}

algorithms::PageRankMethod parse_pagerank_method(const std::string& text) {
  if (text == "auto") return algorithms::PageRankMethod::automatic;
  if (text == "delta") return algorithms::PageRankMethod::delta;
  if (text == "classic") return algorithms::PageRankMethod::classic;
  throw po::error("unknown PageRank method '" + text + "' (expected auto, delta or classic)");
}

algorithms::PageRankShares parse_pagerank_shares(const std::string& text) {
  if (text == "auto") return algorithms::PageRankShares::automatic;
  if (text == "double") return algorithms::PageRankShares::float64;
  if (text == "float") return algorithms::PageRankShares::float32;
  throw po::error("unknown share type '" + text + "' for --shares (expected auto, double or float)");
}

algorithms::Dangling parse_dangling(const std::string& text) {
  if (text == "drop") return algorithms::Dangling::drop;
  if (text == "spread") return algorithms::Dangling::spread;
  throw po::error("unknown dangling rule '" + text + "' (expected drop or spread)");
}

}  // namespace sluice::programs
