// A/B of the edge-list parser's number parsing: sluice's parse_unsigned
// (digit loop) and parse_unsigned_fast (SWAR, up to 7 digits at once)
// against std::from_chars, on the ids of a real edge-list file, one
// thread, rounds alternating. Every parser must produce the same sum.
//   experiments/number_parsing_ab FILE.el [ROUNDS]
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/mapped_file.hpp"
#include "base/number_parsing.hpp"

using namespace sluice;

namespace {

template <class Parse>
uint64_t sum_ids(const char* const begin, const char* end, Parse parse, uint64_t& count) {
  const char* p = begin;
  uint64_t sum = 0;
  count = 0;
  while (p < end) {
    if (*p == '#' || *p == '%') {
      base::skip_line(p, end);
      continue;
    }
    uint64_t v = 0;
    if (!parse(p, end, v)) {
      std::fprintf(stderr, "not a number at byte %td\n", p - begin);
      std::exit(1);
    }
    sum += v, ++count;
    while (p < end && (base::is_blank(*p) || *p == '\n')) ++p;
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: number_parsing_ab FILE.el [ROUNDS]\n");
    return 2;
  }
  base::MappedFile file(argv[1]);
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const char* begin = file.data();
  const char* end = begin + file.size();
  struct Parser {
    const char* name;
    bool (*parse)(const char*&, const char*, uint64_t&);
    std::vector<double> seconds;
  };
  std::vector<Parser> parsers = {
      {"from_chars", [](const char*& p, const char* e, uint64_t& v) {
         auto r = std::from_chars(p, e, v);
         p = r.ptr;
         return r.ec == std::errc();
       }, {}},
      {"parse_unsigned", [](const char*& p, const char* e, uint64_t& v) { return base::parse_unsigned(p, e, v) == base::ParseStatus::ok; }, {}},
      {"parse_unsigned_fast", [](const char*& p, const char* e, uint64_t& v) { return base::parse_unsigned_fast(p, e, v) == base::ParseStatus::ok; }, {}},
  };
  uint64_t expected = 0, count = 0;
  for (int round = 0; round < rounds; ++round) {
    for (auto& parser : parsers) {
      const auto start = std::chrono::steady_clock::now();
      const uint64_t sum = sum_ids(begin, end, parser.parse, count);
      parser.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (expected == 0) expected = sum;
      if (sum != expected) {
        std::fprintf(stderr, "%s disagrees: %llu vs %llu\n", parser.name, (unsigned long long)sum, (unsigned long long)expected);
        return 1;
      }
    }
  }
  std::printf("%llu numbers, %.1f MB, %d alternating rounds, 1 thread; medians:\n", (unsigned long long)count,
              double(file.size()) / 1e6, rounds);
  double base = 0;
  for (auto& parser : parsers) {
    std::sort(parser.seconds.begin(), parser.seconds.end());
    const double median = parser.seconds[parser.seconds.size() / 2];
    if (base == 0) base = median;
    std::printf("  %-20s %.3f s  %6.1f M numbers/s  %5.1f MB/s  %.2fx from_chars\n", parser.name, median,
                double(count) / median / 1e6, double(file.size()) / median / 1e6, base / median);
  }
  return 0;
}
