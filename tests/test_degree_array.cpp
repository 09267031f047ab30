// Degrees in a byte a vertex, the large ones kept apart (layout/degree_array.hpp),
// checked against the plain degrees they were built from.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "layout/degree_array.hpp"

namespace sluice {
namespace {

void expect_same(const layout::DegreeArray& held, const std::vector<uint32_t>& degrees) {
  ASSERT_EQ(held.size(), degrees.size());
  for (uint64_t v = 0; v < degrees.size(); ++v) ASSERT_EQ(held[v], degrees[v]) << "vertex " << v;
}

TEST(DegreeArray, EmptyAndOneVertex) {
  expect_same(layout::DegreeArray(std::vector<uint32_t>{}, "degrees"), {});
  expect_same(layout::DegreeArray(std::vector<uint32_t>{0}, "degrees"), {0});
  expect_same(layout::DegreeArray(std::vector<uint32_t>{UINT32_MAX}, "degrees"), {UINT32_MAX});
}

TEST(DegreeArray, AroundTheLargeMarkAndEveryBitOfABlock) {
  // 254 is the largest kept in its byte; 255 and up are kept apart. Whole
  // blocks of large degrees, none, and one at every position of a block.
  std::vector<uint32_t> degrees;
  for (uint32_t d : {0u, 1u, 253u, 254u, 255u, 256u, 65535u, 65536u, UINT32_MAX}) degrees.push_back(d);
  for (int i = 0; i < 64; ++i) degrees.push_back(1000u + uint32_t(i));
  for (int i = 0; i < 64; ++i) degrees.push_back(uint32_t(i % 7));
  for (int at = 0; at < 64; ++at) {
    for (int i = 0; i < 64; ++i) degrees.push_back(i == at ? 300u + uint32_t(at) : 2u);
  }
  expect_same(layout::DegreeArray(degrees, "degrees"), degrees);
}

TEST(DegreeArray, SkewedDegreesSetPieceByPieceWithGaps) {
  // As the index loader sets them: ascending pieces, all-zero pieces left
  // unset (a rank's part outside its range).
  std::mt19937_64 random(7);
  const uint64_t n = 100'003;
  std::vector<uint32_t> degrees(n);
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t draw = random() % 1000;
    degrees[v] = draw < 5 ? uint32_t(255 + random() % 100'000) : uint32_t(random() % 40);
  }
  for (uint64_t v = 20'000; v < 45'000; ++v) degrees[v] = 0;
  layout::DegreeArray held(n, "degrees");
  const uint64_t piece = 4096;
  for (uint64_t first = 0; first < n; first += piece) {
    const uint64_t count = std::min(piece, n - first);
    bool any = false;
    for (uint64_t v = first; v < first + count; ++v) any |= degrees[v] != 0;
    if (any) held.set_from(first, {degrees.data() + first, count});
  }
  expect_same(held, degrees);
  EXPECT_LT(held.memory_bytes(), n * 2);  // against 4 bytes a vertex
  EXPECT_THROW(held.set_from(0, {degrees.data(), 1}), std::logic_error);  // not after the ranges set
}

}  // namespace
}  // namespace sluice
