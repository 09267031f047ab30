// Reading WebGraph's instantaneous codes from a big-endian bit stream
// (most significant bit of each byte first). The buffer must be followed by
// at least 16 readable zero bytes; reading past `bits` raises an InputError
// naming the bit offset, so corrupt data can never make a decoder loop or
// read out of bounds.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "formats/errors.hpp"

namespace sluice {

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

  uint64_t read_unary() {
    uint64_t zeros = 0;
    for (;;) {
      uint64_t word = peek();
      if (word != 0) {
        unsigned leading = unsigned(__builtin_clzll(word));
        zeros += leading;
        advance(leading + 1);
        return zeros;
      }
      zeros += 64;
      advance(64);
    }
  }

  uint64_t read_gamma() {
    uint64_t msb = read_unary();
    if (msb > 63) fail(pos_, "gamma code longer than 64 bits");
    return ((uint64_t(1) << msb) | read_bits(unsigned(msb))) - 1;
  }

  uint64_t read_delta() {
    uint64_t msb = read_gamma();
    if (msb > 63) fail(pos_, "delta code longer than 64 bits");
    return ((uint64_t(1) << msb) | read_bits(unsigned(msb))) - 1;
  }

  uint64_t read_zeta(unsigned k) {
    uint64_t h = read_unary();
    if (h * k + k > 63) fail(pos_, "zeta code longer than 64 bits");
    uint64_t left = uint64_t(1) << (h * k);
    uint64_t m = read_bits(unsigned(h * k + k - 1));
    if (m < left) return m + left - 1;
    return ((m << 1) | read_bits(1)) - 1;
  }

  uint64_t read_nibble() {
    uint64_t x = 0;
    for (int groups = 0;; ++groups) {
      if (groups > 21) fail(pos_, "nibble code longer than 64 bits");
      uint64_t stop = read_bits(1);
      x = (x << 3) | read_bits(3);
      if (stop) return x;
    }
  }

  uint64_t read(BitCode code, unsigned zeta_k) {
    switch (code) {
      case BitCode::gamma: return read_gamma();
      case BitCode::delta: return read_delta();
      case BitCode::unary: return read_unary();
      case BitCode::zeta: return read_zeta(zeta_k);
      case BitCode::nibble: return read_nibble();
    }
    return 0;
  }

  [[noreturn]] void fail(uint64_t bit, const std::string& what) const {
    throw InputError(path_ ? *path_ : std::string("bit stream"), "bit " + std::to_string(bit), what);
  }

 private:
  // The 64 bits starting at pos_ (zeros beyond the data, thanks to padding).
  uint64_t peek() const {
    uint64_t byte = pos_ >> 3;
    unsigned shift = unsigned(pos_ & 7);
    const uint8_t* p = data_ + byte;
    uint64_t hi;
    std::memcpy(&hi, p, 8);
    hi = __builtin_bswap64(hi);
    return shift ? (hi << shift) | (uint64_t(p[8]) >> (8 - shift)) : hi;
  }
  void advance(uint64_t count) {
    pos_ += count;
    if (pos_ > bits_) fail(pos_ - count, "truncated: a code runs past the end of the data (" + std::to_string(bits_) + " bits)");
  }

  const uint8_t* data_;
  uint64_t bits_;
  uint64_t pos_ = 0;
  const std::string* path_;
};

}  // namespace sluice
