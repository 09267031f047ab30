// Reading WebGraph's instantaneous codes from a big-endian bit stream
// (most significant bit of each byte first). The buffer must be followed by
// at least 16 readable zero bytes; reading past `bits` raises an InputError
// naming the bit offset, so corrupt data can never make a decoder loop or
// read out of bounds.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "base/errors.hpp"

namespace sluice::formats {

enum class BitCode { gamma, delta, unary, zeta, nibble };

class BitReader {
 public:
  BitReader(const uint8_t* data, uint64_t bits, const std::string* path) : data_(data), bits_(bits), path_(path) {}

  uint64_t position() const { return pos_; }
  void seek(uint64_t bit) {
    if (bit > bits_) fail(bit, "offset points past the end of the data (" + std::to_string(bits_) + " bits)");
    pos_ = bit;
  }

  uint64_t read_bits(unsigned count) {
    if (count == 0) return 0;
    uint64_t value = peek() >> (64 - count);
    advance(count);
    return value;
  }

  [[gnu::always_inline]] uint64_t read_unary() {
    uint64_t word = peek();
    if (word != 0) [[likely]] {
      unsigned leading = unsigned(__builtin_clzll(word));
      advance(leading + 1);
      return leading;
    }
    return read_long_unary();
  }

  // Gamma: the position of the highest bit of x + 1 in unary, then the
  // bits below it. Codes of up to 64 bits come from one peek.
  [[gnu::always_inline]] uint64_t read_gamma() {
    uint64_t word = peek();
    if (word != 0) [[likely]] {
      unsigned msb = unsigned(__builtin_clzll(word));
      if (2 * msb + 1 <= 64) [[likely]] {
        advance(2 * msb + 1);
        return (word >> (63 - 2 * msb)) - 1;
      }
    }
    uint64_t msb = read_unary();
    if (msb > 63) fail(pos_, "gamma code longer than 64 bits");
    return ((uint64_t(1) << msb) | read_bits(unsigned(msb))) - 1;
  }

  uint64_t read_delta() {
    uint64_t msb = read_gamma();
    if (msb > 63) fail(pos_, "delta code longer than 64 bits");
    return ((uint64_t(1) << msb) | read_bits(unsigned(msb))) - 1;
  }

  // Zeta_k: h in unary, then a minimal binary code of h*k + k - 1 or
  // h*k + k bits. Codes of up to 64 bits come from one peek.
  [[gnu::always_inline]] uint64_t read_zeta(unsigned k) {
    uint64_t word = peek();
    if (word != 0) [[likely]] {
      unsigned h = unsigned(__builtin_clzll(word));
      unsigned unary = h + 1, bits = h * k + k - 1;
      if (unary + bits + 1 <= 64) [[likely]] {
        uint64_t rest = word << unary;  // unary < 64 here
        uint64_t m = bits ? rest >> (64 - bits) : 0;
        uint64_t left = uint64_t(1) << (h * k);
        if (m < left) {
          advance(unary + bits);
          return m + left - 1;
        }
        uint64_t extra = (rest << bits) >> 63;
        advance(unary + bits + 1);
        return ((m << 1) | extra) - 1;
      }
    }
    return read_long_zeta(k);
  }

 private:
  [[gnu::noinline]] uint64_t read_long_zeta(unsigned k) {
    uint64_t h = read_unary();
    if (h * k + k > 63) fail(pos_, "zeta code longer than 64 bits");
    uint64_t left = uint64_t(1) << (h * k);
    uint64_t m = read_bits(unsigned(h * k + k - 1));
    if (m < left) return m + left - 1;
    return ((m << 1) | read_bits(1)) - 1;
  }

 public:
  uint64_t read_nibble() {
    uint64_t x = 0;
    for (int groups = 0;; ++groups) {
      if (groups > 21) fail(pos_, "nibble code longer than 64 bits");
      uint64_t stop = read_bits(1);
      x = (x << 3) | read_bits(3);
      if (stop) return x;
    }
  }

  [[gnu::always_inline]] uint64_t read(BitCode code, unsigned zeta_k) {
    switch (code) {
      case BitCode::gamma: return read_gamma();
      case BitCode::zeta: return read_zeta(zeta_k);
      case BitCode::unary: return read_unary();
      case BitCode::delta: return read_delta();
      case BitCode::nibble: return read_nibble();
    }
    return 0;
  }

  [[noreturn, gnu::cold, gnu::noinline]] void fail(uint64_t bit, const std::string& what) const {
    throw base::InputError(path_ ? *path_ : std::string("bit stream"), "bit " + std::to_string(bit), what);
  }

 private:
  // The 64 bits starting at pos_ (zeros beyond the data, thanks to padding).
  [[gnu::always_inline]] uint64_t peek() const {
    const uint8_t* p = data_ + (pos_ >> 3);
    unsigned shift = unsigned(pos_ & 7);
    uint64_t hi;
    std::memcpy(&hi, p, 8);
    hi = __builtin_bswap64(hi);
    return shift ? (hi << shift) | (uint64_t(p[8]) >> (8 - shift)) : hi;
  }
  [[gnu::always_inline]] void advance(uint64_t count) {
    pos_ += count;
    if (pos_ > bits_) [[unlikely]] truncated(count);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void truncated(uint64_t count) const {
    fail(pos_ - count, "truncated: a code runs past the end of the data (" + std::to_string(bits_) + " bits)");
  }
  [[gnu::noinline]] uint64_t read_long_unary() {
    uint64_t zeros = 0;
    for (;;) {
      uint64_t word = peek();
      if (word != 0) {
        unsigned leading = unsigned(__builtin_clzll(word));
        advance(leading + 1);
        return zeros + leading;
      }
      zeros += 64;
      advance(64);
    }
  }

  const uint8_t* data_;
  uint64_t bits_;
  uint64_t pos_ = 0;
  const std::string* path_;
};

}  // namespace sluice::formats
