// Every option's text to its value, in one place: byte sizes (one parser,
// λ's too), lists, vertex ids, and the names of directions, EDGEMAP
// variants, IO backends and PageRank's choices. The layers below take
// values; an unreadable text is a po::error (a usage error, exit 2).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "engine/engine.hpp"
#include "io/read_backend.hpp"

namespace sluice::programs {

namespace po = boost::program_options;

// A byte count given as 4096, 64k, 1M, 2G or 1T (powers of 1024; "KiB",
// "MB" and the like read the same); refused when negative or unreadable.
uint64_t parse_byte_size(const std::string& text);
// A byte size as an option's value: po::value<ByteSize>() with a default
// shown as typed (byte_size_value), checked as it is parsed.
struct ByteSize {
  uint64_t bytes = 0;
};
po::typed_value<ByteSize>* byte_size_value(const char* default_text);
void validate(boost::any& value, const std::vector<std::string>& tokens, ByteSize*, int);

// "a,b,,c" -> {"a", "b", "c"}
std::vector<std::string> split_list(const std::string& text);
// "a,b,c" -> {"a", "b", "c"}; an empty text or item ("", ",5", "5,,6":
// an unset shell variable) is refused, naming `option`, so that it never
// silently stands for a default.
std::vector<std::string> split_values(const std::string& text, const char* option);
// A vertex id as typed ("17"): every digit, no sign, within 64 bits.
uint64_t parse_vertex_id(const std::string& text, const char* option);

// λ: "inf", or a byte size as parse_byte_size reads it.
engine::SkipThreshold parse_skip_threshold(const std::string& text);
engine::Direction parse_direction(const std::string& text);     // auto, push, pull
engine::EdgeMapVariant parse_edgemap(const std::string& text);  // binning, atomic
io::BackendKind parse_backend(const std::string& name);         // auto, uring, aio, psync, memory
algorithms::PageRankMethod parse_pagerank_method(const std::string& text);  // auto, delta, classic
algorithms::Dangling parse_dangling(const std::string& text);               // drop, spread
algorithms::PageRankShares parse_pagerank_shares(const std::string& text);  // auto, double, float

}  // namespace sluice::programs
