// Page-aligned memory for O_DIRECT reads and writes, owned: a mapping of
// its own, whatever its size, given back to the kernel when freed. From
// the heap, a block below glibc's mmap threshold (1 MiB here,
// large_blocks.hpp) stays held once freed, under what comes after it:
// IO buffers of 512 KiB from the heap (two ranks sharing a disk,
// shared_drives.hpp) put a BFS rank's peak on uniform 22 at 167 MB,
// against 145 MB as mappings. Under AddressSanitizer they come from the
// heap, where it checks their bounds.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/sanitizers.hpp"

namespace sluice::base {

inline constexpr size_t io_alignment = 4096;

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t bytes) : size_(bytes) {
    if (bytes == 0) return;
#if defined(SLUICE_ADDRESS_SANITIZER)
    void* p = nullptr;
    if (::posix_memalign(&p, io_alignment, mapped(bytes)) != 0) p = MAP_FAILED;
#else
    void* p = ::mmap(nullptr, mapped(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#endif
    if (p == MAP_FAILED) throw std::runtime_error("out of memory allocating an IO buffer of " + std::to_string(bytes) + " bytes");
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
  ~AlignedBuffer() {
#if defined(SLUICE_ADDRESS_SANITIZER)
    std::free(data_);
#else
    if (data_) ::munmap(data_, mapped(size_));
#endif
  }

  char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  static size_t mapped(size_t bytes) { return (bytes + io_alignment - 1) / io_alignment * io_alignment; }
  char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace sluice::base
