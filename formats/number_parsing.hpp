// Hand-written parsers for the hot loops of text loading. They work on a
// [p, end) window of a mapped file, never read past `end`, and report
// failure instead of throwing so that parallel loops stay exception-free.
#pragma once

#include <charconv>
#include <cstdint>

namespace sluice {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline void skip_blanks(const char*& p, const char* end) {
  while (p < end && is_blank(*p)) ++p;
}

inline void skip_line(const char*& p, const char* end) {
  while (p < end && *p != '\n') ++p;
  if (p < end) ++p;
}

enum class ParseStatus { ok, not_a_number, too_large };

// Unsigned decimal integer; stops at the first non-digit.
inline ParseStatus parse_unsigned(const char*& p, const char* end, uint64_t& value) {
  if (p >= end || !is_digit(*p)) return ParseStatus::not_a_number;
  uint64_t v = 0;
  do {
    uint64_t digit = uint64_t(*p - '0');
    if (v > (UINT64_MAX - digit) / 10) return ParseStatus::too_large;
    v = v * 10 + digit;
    ++p;
  } while (p < end && is_digit(*p));
  value = v;
  return ParseStatus::ok;
}

// A float token, exact (round-trips with std::to_chars). Accepts a leading '+'.
inline bool parse_float(const char*& p, const char* end, float& value) {
  if (p < end && *p == '+') ++p;
  auto result = std::from_chars(p, end, value);
  if (result.ec != std::errc()) return false;
  p = result.ptr;
  return true;
}

}  // namespace sluice
