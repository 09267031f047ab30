// Hand-written parsers for the hot loops of text loading. They work on a
// [p, end) window of a mapped file, never read past `end`, and report
// failure instead of throwing so that parallel loops stay exception-free.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>

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

// Unsigned decimal integer; stops at the first non-digit. Overflow is
// checked once per number (by its digit count), not once per digit.
inline ParseStatus parse_unsigned(const char*& p, const char* end, uint64_t& value) {
  if (p >= end || !is_digit(*p)) return ParseStatus::not_a_number;
  while (p + 1 < end && *p == '0' && is_digit(p[1])) ++p;  // leading zeros
  const char* start = p;
  uint64_t v = 0;
  do {
    v = v * 10 + uint64_t(*p - '0');
    ++p;
  } while (p < end && is_digit(*p));
  size_t digits = size_t(p - start);
  if (digits >= 20) {
    static const char max_text[] = "18446744073709551615";
    if (digits > 20 || std::memcmp(start, max_text, 20) > 0) return ParseStatus::too_large;
  }
  value = v;
  return ParseStatus::ok;
}

// The same, parsing up to 7 digits at once with SWAR arithmetic when 16
// bytes can be read (the common case for vertex ids); falls back to
// parse_unsigned for longer numbers and near the end of the data.
inline ParseStatus parse_unsigned_fast(const char*& p, const char* end, uint64_t& value) {
  if (end - p < 16) return parse_unsigned(p, end, value);
  uint64_t chunk;
  std::memcpy(&chunk, p, 8);
  uint64_t x = chunk - 0x3030303030303030ULL;
  // High bit set in every byte that is not a digit ('0'..'9').
  uint64_t non_digit = (x | (x + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
  if (non_digit == 0) return parse_unsigned(p, end, value);  // 8 digits or more
  unsigned digits = unsigned(__builtin_ctzll(non_digit)) / 8;
  if (digits == 0) return ParseStatus::not_a_number;
  x <<= 8 * (8 - digits);  // the digits to the top, zeros (leading zeros) below
  x = (x * 10) + (x >> 8);
  x = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
       (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
  value = x;
  p += digits;
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
