// The engine's concurrency pieces on their own: the worker pool (every
// job on every thread, errors back to the caller, pieces covering a range
// once) and the bins (every record gathered exactly once, never two
// gathers of one bin at a time, also when the block pool runs dry).
#include <atomic>
#include <random>
#include <stdexcept>

#include "engine/bins.hpp"
#include "engine/worker_pool.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

using namespace sluice::engine;

TEST(EngineThreads, WorkerPoolRunsEveryThreadAndRethrows) {
  for (int threads : {1, 2, 5}) {
    WorkerPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    for (int round = 0; round < 50; ++round) {
      std::vector<std::atomic<int>> calls(static_cast<size_t>(threads));
      pool.run([&](int t) { calls[size_t(t)]++; });
      for (auto& c : calls) ASSERT_EQ(c.load(), 1);
    }
    EXPECT_THROW(pool.run([&](int t) {
      if (t == threads - 1) throw std::runtime_error("worker failed");
    }), std::runtime_error);
    std::atomic<int> after{0};
    pool.run([&](int) { after++; });  // usable after an error
    EXPECT_EQ(after.load(), threads);
    for (uint64_t count : {0ull, 1ull, 511ull, 512ull, 100000ull}) {
      std::vector<std::atomic<int>> seen(count);
      pool.parallel_for(count, 512, [&](int, uint64_t begin, uint64_t end) {
        EXPECT_EQ(begin % 512, 0u);
        for (uint64_t i = begin; i < end; ++i) seen[i]++;
      });
      for (auto& s : seen) ASSERT_EQ(s.load(), 1);
    }
  }
}

TEST(EngineThreads, BinsGatherEveryRecordOnceAndOneBinAtATime) {
  const uint64_t vertices = 10000;
  for (uint32_t bin_count : {1u, 7u, 64u}) {
    // The smallest pool with bins that never fill (the pool runs dry and
    // take() must gather), the smallest pool, and a roomy one.
    for (auto [space, gather_blocks] : {std::pair<uint64_t, uint32_t>{1, 1u << 30}, {1, 0}, {uint64_t(1) << 22, 0}}) {
      const int threads = 4;
      WorkerPool pool(threads);
      const BinGeometry geometry = BinGeometry::of(vertices, bin_count);
      Bins<uint32_t> bins(geometry, threads, space, gather_blocks);
      std::vector<uint64_t> received(vertices, 0);  // written by the gathers alone: no atomics
      std::vector<std::atomic<int>> gathering(geometry.count);
      std::atomic<bool> overlapped{false};
      std::atomic<uint64_t> records{0};
      auto gatherer = [&] {
        return [&](const BinBlock<uint32_t>* list, uint64_t base) {
          const uint32_t b = uint32_t(base >> geometry.shift);
          if (gathering[b]++ != 0) overlapped = true;
          for (const auto* block = list; block; block = block->next) {
            for (uint32_t i = 0; i < block->count; ++i) {
              received[base + block->offsets[i]] += block->values[i];
              records++;
            }
          }
          gathering[b]--;
        };
      };
      const uint64_t per_thread = 200000;
      for (int round = 0; round < 3; ++round) {
        std::fill(received.begin(), received.end(), 0);
        records = 0;
        pool.run([&](int t) {
          auto gather = gatherer();
          bins.begin(t, gather);
          std::mt19937_64 random(uint64_t(t) * 7 + uint64_t(round));
          for (uint64_t i = 0; i < per_thread; ++i) bins.put(t, random() % vertices, 1u, gather);
          bins.flush(t);
        });
        bins.reset_sweep();
        pool.run([&](int t) {
          auto gather = gatherer();
          bins.gather_all(t, gather);
        });
        ASSERT_FALSE(overlapped) << "two gathers of one bin at once";
        ASSERT_EQ(records.load(), threads * per_thread) << "bins " << bin_count << " space " << space;
        std::vector<uint64_t> expected(vertices, 0);
        for (int t = 0; t < threads; ++t) {
          std::mt19937_64 random(uint64_t(t) * 7 + uint64_t(round));
          for (uint64_t i = 0; i < per_thread; ++i) expected[random() % vertices]++;
        }
        ASSERT_EQ(received, expected);
      }
    }
  }
}

}  // namespace
}  // namespace sluice::test
