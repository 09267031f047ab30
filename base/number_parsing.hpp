// Hand-written parsers for the hot loops of text loading. They work on a
// [p, end) window of a mapped file, never read past `end`, and report
// failure instead of throwing so that parallel loops stay exception-free.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>

namespace sluice::base {

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
enum class WeightStatus { ok, not_a_number, not_finite, too_large };

// A weight as float32: any decimal or hexadecimal ("0x1.8p1", "-0x10")
// floating-point text, double precision included. A magnitude below
// float32's smallest becomes 0 (or a subnormal), as it would in a cast;
// one beyond its largest (3.4e38) is too_large; nan and inf are
// not_finite: a weight must be a real number for every algorithm. The
// token must end at a blank, a line break or `end` ("1.5kg" is not a
// number).
inline WeightStatus parse_weight(const char*& p, const char* end, float& value) {
  if (p < end && *p == '+') ++p;
  auto ends_token = [end](const char* at) { return at == end || is_blank(*at) || *at == '\n'; };
  // Hexadecimal: from_chars takes the digits without their "0x".
  const char* digits = p < end && *p == '-' ? p + 1 : p;
  const bool hex = end - digits > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  const auto fast = hex ? std::from_chars_result{p, std::errc::invalid_argument} : std::from_chars(p, end, value);
  if (fast.ec == std::errc() && value - value == 0.0f && ends_token(fast.ptr)) {  // finite: the hot path
    p = fast.ptr;
    return WeightStatus::ok;
  }
  const char* const start = hex ? digits + 2 : p;
  double wide = 0;
  const auto slow = std::from_chars(start, end, wide, hex ? std::chars_format::hex : std::chars_format::general);
  if (slow.ec == std::errc::invalid_argument || !ends_token(slow.ptr) || (hex && (*start == '-' || *start == '+'))) {
    return WeightStatus::not_a_number;
  }
  if (hex && digits != p) wide = -wide;
  p = slow.ptr;
  if (slow.ec == std::errc::result_out_of_range) {
    // Beyond double: an exponent of 309 digits or more is too large, one
    // of -324 or less underflows to 0. Tell them by the exponent's sign.
    const char* e = p;
    while (e > start && e[-1] != 'e' && e[-1] != 'E' && e[-1] != 'p' && e[-1] != 'P') --e;
    const bool negative_exponent = e < p && *e == '-';
    if (!negative_exponent) return WeightStatus::too_large;
    value = 0.0f;
    return WeightStatus::ok;
  }
  if (wide != wide || wide - wide != 0.0) return WeightStatus::not_finite;
  if (wide > 3.4028234663852886e38 || wide < -3.4028234663852886e38) return WeightStatus::too_large;
  value = static_cast<float>(wide);
  return WeightStatus::ok;
}

// The message for a weight that parse_weight refused.
inline const char* weight_error(WeightStatus status) {
  switch (status) {
    case WeightStatus::not_finite: return "the weight is nan or infinite; weights must be finite numbers";
    case WeightStatus::too_large: return "the weight is beyond float32's range (magnitude at most 3.4e38)";
    default: return "the weight is not a number (expected a decimal or hexadecimal number such as 2.5, 1e-3 or 0x1.8p1)";
  }
}

}  // namespace sluice::base
