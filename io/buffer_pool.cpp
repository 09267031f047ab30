#include "io/buffer_pool.hpp"

#include <stdexcept>

namespace sluice::io {

BufferPool::BufferPool(unsigned count, uint64_t bytes) : bytes_(bytes) {
  if (count == 0) throw std::invalid_argument("an IO buffer pool needs at least one buffer");
  buffers_.reserve(count);
  for (unsigned b = 0; b < count; ++b) {
    buffers_.emplace_back(bytes);
    free_.enqueue(int(b));
  }
}

}  // namespace sluice::io
