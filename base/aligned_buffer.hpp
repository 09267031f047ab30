// Page-aligned memory for O_DIRECT reads and writes, owned.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace sluice::base {

inline constexpr size_t io_alignment = 4096;

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t bytes) : size_(bytes) {
    if (bytes == 0) return;
    void* p = nullptr;
    if (::posix_memalign(&p, io_alignment, (bytes + io_alignment - 1) / io_alignment * io_alignment) != 0) {
      throw std::runtime_error("out of memory allocating an IO buffer of " + std::to_string(bytes) + " bytes");
    }
    data_ = static_cast<char*>(p);
  }
  AlignedBuffer(AlignedBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() { std::free(data_); }

  char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace sluice::base
