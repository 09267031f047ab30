#include "engine/resident_sample.hpp"

#include <atomic>
#include <chrono>

namespace sluice::engine {

ResidentSample::ResidentSample(const layout::SampleFile& file, WorkerPool& pool)
    : body_(file.body_bytes(), "the sample file held in memory (--io memory)"),
      piece_stride_(file.piece_bytes(0)) {
  const auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> next{0};
  pool.run([&](int) {
    for (uint64_t p; (p = next.fetch_add(1, std::memory_order_relaxed)) < file.pieces();) file.read_piece(p, body_.data() + p * piece_stride_);
  });
  load_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sluice::engine
