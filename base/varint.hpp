// Unsigned LEB128 varints: seven bits a byte, low bits first, the top bit
// set on every byte but the last. Small numbers (gaps between sorted ids,
// indexes into short tables) take one byte.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace sluice::base {

inline void put_varint(std::vector<char>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(uint8_t(value) | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

// Writes one varint at `at` (10 bytes at most); returns the byte after it.
inline char* put_varint(char* at, uint64_t value) {
  while (value >= 0x80) {
    *at++ = char(uint8_t(value) | 0x80);
    value >>= 7;
  }
  *at++ = char(value);
  return at;
}

// Reads one varint at `at`, which it moves past, from bytes a process
// wrote itself (a scratch file): it reads at most 10 bytes, which must be
// there, and checks nothing else.
inline uint64_t get_varint_unchecked(const char*& at) {
  uint64_t value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    const uint8_t byte = uint8_t(*at++);
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  return value;
}

// Reads one varint at `at`, which it moves past; throws if the bytes end
// first or run past 64 bits.
inline uint64_t get_varint(const char*& at, const char* end) {
  uint64_t value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (at == end) throw std::runtime_error("a varint runs past the end of its bytes");
    const uint8_t byte = uint8_t(*at++);
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
  }
  throw std::runtime_error("a varint runs past 64 bits");
}

}  // namespace sluice::base
