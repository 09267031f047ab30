// Redio's indexed bitmap: one bit per vertex, plus one index bit per block
// of 512 bits (a cache line of words) saying whether the block has any bit
// set, so an almost-empty bitmap is scanned in O(active blocks), not O(n).
#pragma once

#include <atomic>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace sluice::engine {

class IndexedBitmap {
 public:
  static constexpr uint64_t block_bits = 512;
  static constexpr uint64_t words_per_block = block_bits / 64;

  explicit IndexedBitmap(uint64_t size = 0)
      : size_(size), words_((size + 63) / 64, 0), index_(((size + block_bits - 1) / block_bits + 63) / 64, 0) {}

  uint64_t size() const { return size_; }
  bool test(uint64_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void prefetch(uint64_t i) const { __builtin_prefetch(words_.data() + i / 64); }
  uint64_t word(uint64_t w) const { return words_[w]; }  // bits w*64 ... w*64+63
  // Not thread-safe; see set_atomic.
  void set(uint64_t i) {
    words_[i / 64] |= uint64_t(1) << (i % 64);
    uint64_t block = i / block_bits;
    index_[block / 64] |= uint64_t(1) << (block % 64);
  }
  // Safe against concurrent set_atomic calls; returns true if the bit was clear.
  bool set_atomic(uint64_t i) { return set_word_atomic(i / 64, uint64_t(1) << (i % 64)) != 0; }
  // Sets the bits of word w (bits w*64 ... w*64+63) that `bits` has, and
  // its block's index bit. Not thread-safe: for a thread that owns whole
  // index words (64 blocks, 32768 bits).
  void set_word(uint64_t w, uint64_t bits) {
    if (!bits) return;
    words_[w] |= bits;
    const uint64_t block = w / words_per_block;
    index_[block / 64] |= uint64_t(1) << (block % 64);
  }
  // Sets the bits of word w that `bits` has, safe against concurrent
  // set_atomic and set_word_atomic calls; returns those that were clear.
  uint64_t set_word_atomic(uint64_t w, uint64_t bits) {
    const uint64_t before = std::atomic_ref<uint64_t>(words_[w]).fetch_or(bits, std::memory_order_relaxed);
    if (!(bits & ~before)) return 0;  // all set before: so is the index bit
    // The index bit is usually set already: a load costs less than a locked or.
    const uint64_t block = w / words_per_block, mark = uint64_t(1) << (block % 64);
    std::atomic_ref<uint64_t> index(index_[block / 64]);
    if (!(index.load(std::memory_order_relaxed) & mark)) index.fetch_or(mark, std::memory_order_relaxed);
    return bits & ~before;
  }
  // Sets every bit (and every index bit), a word at a time.
  void set_all() {
    if (!size_) return;
    std::fill(words_.begin(), words_.end(), ~uint64_t(0));
    if (size_ % 64) words_.back() = (uint64_t(1) << (size_ % 64)) - 1;  // none past the end
    const uint64_t blocks = (size_ + block_bits - 1) / block_bits;
    std::fill(index_.begin(), index_.end(), ~uint64_t(0));
    if (blocks % 64) index_.back() = (uint64_t(1) << (blocks % 64)) - 1;
  }
  // Clears one bit; its block's index bit stays (see clear_index).
  void reset(uint64_t i) { words_[i / 64] &= ~(uint64_t(1) << (i % 64)); }
  // Once every bit has been reset: the index says so too.
  void clear_index() { std::fill(index_.begin(), index_.end(), 0); }
  void clear() {
    // Only the blocks the index marks can hold bits.
    for_each_block([&](uint64_t block) {
      for (uint64_t w = block * words_per_block; w < std::min<uint64_t>(words_.size(), (block + 1) * words_per_block); ++w) words_[w] = 0;
    });
    std::fill(index_.begin(), index_.end(), 0);
  }
  uint64_t count() const {
    uint64_t c = 0;
    for_each_block([&](uint64_t block) {
      for (uint64_t w = block * words_per_block; w < std::min<uint64_t>(words_.size(), (block + 1) * words_per_block); ++w) {
        c += uint64_t(std::popcount(words_[w]));
      }
    });
    return c;
  }
  // Calls f(i) for every set bit, ascending.
  template <class F>
  void for_each(F&& f) const {
    for_each_block([&](uint64_t block) {
      for (uint64_t w = block * words_per_block; w < std::min<uint64_t>(words_.size(), (block + 1) * words_per_block); ++w) {
        for (uint64_t bits = words_[w]; bits; bits &= bits - 1) f(w * 64 + uint64_t(std::countr_zero(bits)));
      }
    });
  }
  // Calls f(i) for every set bit in [begin, end), ascending.
  template <class F>
  void for_each_in(uint64_t begin, uint64_t end, F&& f) const {
    walk_in<false>(begin, end, f);
  }
  // for_each_in while other threads may set_atomic bits outside [begin,
  // end), in the same words: its loads are atomic too.
  template <class F>
  void for_each_in_while_set(uint64_t begin, uint64_t end, F&& f) const {
    walk_in<true>(begin, end, f);
  }
  // Calls f(i) for the first `most` set bits in [begin, end), ascending;
  // returns where a walk for the next ones starts (end when none are left).
  template <class F>
  uint64_t for_each_some(uint64_t begin, uint64_t end, uint64_t most, F&& f) const {
    if (!most) return begin;
    for (uint64_t block = begin / block_bits; most && block * block_bits < end; ++block) {
      if (!((index_[block / 64] >> (block % 64)) & 1)) continue;
      const uint64_t last = std::min<uint64_t>(words_.size(), (block + 1) * words_per_block);
      for (uint64_t w = std::max(block * words_per_block, begin / 64); w < last; ++w) {
        const uint64_t below = w == begin / 64 ? (uint64_t(1) << (begin % 64)) - 1 : 0;
        for (uint64_t bits = words_[w] & ~below; bits; bits &= bits - 1) {
          const uint64_t i = w * 64 + uint64_t(std::countr_zero(bits));
          if (i >= end) return end;
          f(i);
          if (--most == 0) return i + 1;
        }
      }
    }
    return end;
  }
  // Whether any bit in [begin, end) is set; begin a multiple of
  // block_bits. Stops at the first word holding one.
  bool any_in(uint64_t begin, uint64_t end) const {
    for (uint64_t block = begin / block_bits; block * block_bits < end; ++block) {
      if (!((index_[block / 64] >> (block % 64)) & 1)) continue;
      const uint64_t last = std::min<uint64_t>({words_.size(), (block + 1) * words_per_block, (end + 63) / 64});
      for (uint64_t w = block * words_per_block; w < last; ++w) {
        const uint64_t bits = (w + 1) * 64 > end ? words_[w] & ((uint64_t(1) << (end % 64)) - 1) : words_[w];
        if (bits) return true;
      }
    }
    return false;
  }
  // Calls keep(w, bits) for every nonzero word w holding bits of [begin,
  // end), ascending (begin a multiple of block_bits), and clears the bits
  // it does not return (their block's index bit stays, as reset's). Not
  // thread-safe: for a thread that owns whole index words, as set_word.
  template <class F>
  void filter_words_in(uint64_t begin, uint64_t end, F&& keep) {
    for (uint64_t block = begin / block_bits; block * block_bits < end; ++block) {
      if (!((index_[block / 64] >> (block % 64)) & 1)) continue;
      const uint64_t last = std::min<uint64_t>({words_.size(), (block + 1) * words_per_block, (end + 63) / 64});
      for (uint64_t w = block * words_per_block; w < last; ++w) {
        if (words_[w]) words_[w] &= keep(w, words_[w]);
      }
    }
  }
  // Calls f(block) for every block whose index bit is set, ascending.
  template <class F>
  void for_each_block(F&& f) const {
    for (uint64_t i = 0; i < index_.size(); ++i) {
      for (uint64_t bits = index_[i]; bits; bits &= bits - 1) f(i * 64 + uint64_t(std::countr_zero(bits)));
    }
  }
  uint64_t memory_bytes() const { return (words_.size() + index_.size()) * 8; }

 private:
  template <bool Atomic>
  static uint64_t load(const uint64_t& word) {
    if constexpr (Atomic) return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(word)).load(std::memory_order_relaxed);
    else return word;
  }
  template <bool Atomic, class F>
  void walk_in(uint64_t begin, uint64_t end, F& f) const {
    for (uint64_t block = begin / block_bits; block * block_bits < end; ++block) {
      if (!((load<Atomic>(index_[block / 64]) >> (block % 64)) & 1)) continue;
      const uint64_t last = std::min<uint64_t>(words_.size(), (block + 1) * words_per_block);
      for (uint64_t w = std::max(block * words_per_block, begin / 64); w < last; ++w) {
        const uint64_t below = w == begin / 64 ? (uint64_t(1) << (begin % 64)) - 1 : 0;  // bits before begin
        for (uint64_t bits = load<Atomic>(words_[w]) & ~below; bits; bits &= bits - 1) {
          const uint64_t i = w * 64 + uint64_t(std::countr_zero(bits));
          if (i >= end) return;
          f(i);
        }
      }
    }
  }

  uint64_t size_;
  std::vector<uint64_t> words_;
  std::vector<uint64_t> index_;
};

}  // namespace sluice::engine
