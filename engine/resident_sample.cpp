#include "engine/resident_sample.hpp"

#include <atomic>
#include <chrono>

#include "base/first_error.hpp"

namespace sluice::engine {

ResidentSample::ResidentSample(const layout::SampleFile& file, WorkerPool& pool)
    : body_(file.body_bytes(), "the sample file held in memory (--io memory)"),
      piece_stride_(file.piece_bytes(0)) {
  const auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> next{0};
  base::FirstError error;  // a damaged piece stops every thread at its next piece
  pool.run([&](int) {
    try {
      for (uint64_t p; !error.failed() && (p = next.fetch_add(1, std::memory_order_relaxed)) < file.pieces();) {
        file.read_piece(p, body_.data() + p * piece_stride_);
      }
    } catch (...) {
      error.capture();
    }
  });
  error.rethrow();
  load_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sluice::engine
