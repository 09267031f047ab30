// A fixed-size heap array of plain values that is not zero-filled on
// allocation: loaders overwrite every element, and zeroing gigabytes first
// would cost a pass. (Transparent huge pages were tried for the large
// arrays: with defrag=madvise, compaction made load times bimodal, 1.3 s or
// 2-3 s, against a steady 1.55 s without, on RMAT scale 22.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include <sys/mman.h>

#include "base/errors.hpp"

namespace sluice::base {

// Widens the values of type N stored from `bytes` on into values of type
// W over the same bytes, those of [first, last) alone, from the back:
// each moves into bytes at or past its own, read already (memcpy: the two
// views of one buffer alias).
template <class N, class W>
void widen_in_place(void* bytes, size_t first, size_t last) {
  static_assert(std::is_trivial_v<N> && std::is_trivial_v<W> && sizeof(W) >= sizeof(N));
  if constexpr (std::is_same_v<N, W>) return;
  char* const at = static_cast<char*>(bytes);
  for (size_t i = last; i-- > first;) {
    N narrow;
    std::memcpy(&narrow, at + i * sizeof(N), sizeof(N));
    const W wide = W(narrow);
    std::memcpy(at + i * sizeof(W), &wide, sizeof(W));
  }
}

template <class T>
class Array {
  static_assert(std::is_trivial_v<T>, "Array holds plain values");

 public:
  using value_type = T;

  Array() = default;
  explicit Array(size_t size, const char* what = "an array") : size_(size) {
    if (size == 0) return;
    // Large arrays first ask whether the memory is there: a clear error,
    // not an overcommitted allocation the OOM killer ends later.
    if (size > (size_t(8) << 20) / sizeof(T)) require_memory(size <= SIZE_MAX / sizeof(T) ? size * sizeof(T) : SIZE_MAX, what);
    void* p = size <= SIZE_MAX / sizeof(T) ? std::malloc(size * sizeof(T)) : nullptr;
    if (!p) {
      throw std::runtime_error(std::string("out of memory allocating ") + what + " (" +
                               std::to_string(size * sizeof(T) >> 20) + " MiB)");
    }
    data_.reset(static_cast<T*>(p));
  }
  // Vertex state that EDGEMAPs read or write at random (shares, parents,
  // union-find forests): on 2 MiB pages where the kernel has them
  // (MADV_HUGEPAGE), so that a random access misses the TLB less often.
  static Array random_access(size_t size, const char* what = "an array") {
    constexpr size_t huge = size_t(2) << 20;
    if (size == 0 || size > SIZE_MAX / sizeof(T) - huge || size * sizeof(T) < 2 * huge) return Array(size, what);
    const size_t bytes = (size * sizeof(T) + huge - 1) / huge * huge;
    require_memory(bytes, what);
    void* p = std::aligned_alloc(huge, bytes);
    if (!p) throw std::runtime_error(std::string("out of memory allocating ") + what + " (" + std::to_string(bytes >> 20) + " MiB)");
    madvise(p, bytes, MADV_HUGEPAGE);  // advice: without huge pages the array still works
    Array a;
    a.data_.reset(static_cast<T*>(p));
    a.size_ = size;
    return a;
  }
  // The same advice for an array filled already, that turns to random
  // access midway (PageRank's ranks once they hold the shares): its 2 MiB
  // pages whole inside it are moved onto huge pages now (MADV_COLLAPSE,
  // Linux 6.1), which costs a copy but no second array. Where the kernel
  // cannot, the array stays as it was.
  void collapse_to_huge_pages() {
    constexpr uintptr_t huge = uintptr_t(2) << 20;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data()) + huge - 1) / huge * huge;
    const uintptr_t end = reinterpret_cast<uintptr_t>(data() + size_) / huge * huge;
    if (end <= begin) return;
    void* start = reinterpret_cast<void*>(begin);
    madvise(start, end - begin, MADV_HUGEPAGE);
    constexpr int collapse = 25;  // MADV_COLLAPSE: the kernel's number; glibc's header may lack it
    madvise(start, end - begin, collapse);
  }
  // Zeroed by the allocator (calloc): a large array's pages come from the
  // kernel zeroed and are held only once written, so a sparse one (the
  // degrees of a rank's part, zero outside its range) costs what it holds.
  static Array zeros(size_t size, const char* what = "an array") {
    Array a;
    if (size == 0) return a;
    if (size > (size_t(8) << 20) / sizeof(T)) require_memory(size <= SIZE_MAX / sizeof(T) ? size * sizeof(T) : SIZE_MAX, what);
    void* p = size <= SIZE_MAX / sizeof(T) ? std::calloc(size, sizeof(T)) : nullptr;
    if (!p) {
      throw std::runtime_error(std::string("out of memory allocating ") + what + " (" +
                               std::to_string(size * sizeof(T) >> 20) + " MiB)");
    }
    a.data_.reset(static_cast<T*>(p));
    a.size_ = size;
    return a;
  }

  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  std::span<T> span() { return {data(), size_}; }
  std::span<const T> span() const { return {data(), size_}; }

  // Shrinks the logical size without reallocating (after compaction).
  void truncate(size_t size) {
    if (size < size_) size_ = size;
  }

  // The values in a wider type U. All of them: in this array's own
  // buffer, which grows while the values move from the back, each into
  // bytes already read. Where malloc took the buffer by mmap, realloc
  // remaps it and the peak is the wide array alone; one glibc served from
  // its heap (blocks up to 32 MiB once large ones were freed) it may copy,
  // the two then held at once. Only those in [first, last) (an array held
  // on an MPI rank for its own range alone): into a new array, whose other
  // values are left undefined, as this one's were (realloc copied every
  // page: on 4 ranks of uniform 22, 42% of the pages BFS's rank touched).
  template <class U>
  Array<U> widened(const char* what, size_t first = 0, size_t last = SIZE_MAX) && {
    static_assert(std::is_trivial_v<U> && sizeof(U) >= sizeof(T));
    Array<U> wide;
    if (size_ == 0) return wide;
    last = std::min(last, size_);
    if (first > 0 || last < size_) {
      wide = Array<U>(size_, what);
      for (size_t i = first; i < last; ++i) wide.data_[i] = U(data_[i]);
      *this = Array();
      return wide;
    }
    require_memory(size_ * (sizeof(U) - sizeof(T)), what);
    void* grown = std::realloc(data_.get(), size_ * sizeof(U));
    if (!grown) throw std::runtime_error(std::string("out of memory widening ") + what);
    data_.release();
    widen_in_place<T, U>(grown, 0, size_);
    wide.data_.reset(static_cast<U*>(grown));
    wide.size_ = std::exchange(size_, 0);
    return wide;
  }

 private:
  template <class>
  friend class Array;
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

}  // namespace sluice::base
