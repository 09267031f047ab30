// The compact exchange of labelled vertices (engine/labelled_exchange.hpp)
// and the varints under it: what goes in comes out, in fewer bytes than
// raw records where labels repeat, and damaged bytes are an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "base/varint.hpp"
#include "engine/labelled_exchange.hpp"

namespace sluice {
namespace {

TEST(Varint, RoundTripsEdgeValuesAndRefusesTruncation) {
  const std::vector<uint64_t> values = {0, 1, 127, 128, 16383, 16384, uint64_t(1) << 32, uint64_t(1) << 63, UINT64_MAX};
  std::vector<char> bytes;
  for (uint64_t v : values) base::put_varint(bytes, v);
  EXPECT_EQ(bytes.size(), 1 + 1 + 1 + 2 + 2 + 3 + 5 + 10 + 10u);
  const char* at = bytes.data();
  for (uint64_t v : values) EXPECT_EQ(base::get_varint(at, bytes.data() + bytes.size()), v);
  EXPECT_EQ(at, bytes.data() + bytes.size());
  at = bytes.data() + bytes.size() - 1;  // UINT64_MAX's last byte alone: a varint, 1
  const char* end = bytes.data() + bytes.size();
  EXPECT_EQ(base::get_varint(at, end), 1u);
  const std::vector<char> cut(bytes.end() - 10, bytes.end() - 1);  // UINT64_MAX without its last byte
  at = cut.data();
  EXPECT_THROW(base::get_varint(at, cut.data() + cut.size()), std::runtime_error);
}

// The pair that codes in place (scratch records): the same bytes as the
// one that appends to a vector, value for value, at every length.
TEST(Varint, InPlaceCodingWritesTheSameBytesAtEveryLength) {
  std::vector<uint64_t> values;
  for (unsigned bits = 0; bits <= 64; ++bits) {
    const uint64_t top = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits);
    for (uint64_t v : {top - 1, top, top + 1}) values.push_back(v);
  }
  std::mt19937_64 random(7);
  for (int k = 0; k < 10000; ++k) values.push_back(random() >> (random() % 64));
  std::vector<char> expected;
  for (uint64_t v : values) base::put_varint(expected, v);
  std::vector<char> bytes(values.size() * 10 + 10, 0);
  char* out = bytes.data();
  for (uint64_t v : values) out = base::put_varint(out, v);
  ASSERT_EQ(uint64_t(out - bytes.data()), expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), bytes.begin()));
  const char* at = bytes.data();
  for (uint64_t v : values) ASSERT_EQ(base::get_varint_unchecked(at), v);
  EXPECT_EQ(at, out);
}

// One process sends itself every piece: what arrives is what was sent.
template <class Id>
void round_trip(const std::vector<engine::LabelledVertex<Id>>& piece) {
  engine::SingleProcess one;
  std::vector<uint64_t> from;
  const auto received = engine::exchange_labelled(one, std::vector<std::vector<engine::LabelledVertex<Id>>>{piece}, &from);
  ASSERT_EQ(received.size(), piece.size());
  for (size_t i = 0; i < piece.size(); ++i) {
    EXPECT_EQ(received[i].vertex, piece[i].vertex) << i;
    EXPECT_EQ(received[i].label, piece[i].label) << i;
  }
  EXPECT_EQ(from, std::vector<uint64_t>{piece.size()});
  std::vector<Id> labels;
  for (const auto& m : piece) labels.push_back(m.label);
  EXPECT_EQ(engine::exchange_labels(one, std::vector<std::vector<Id>>{labels}), labels);
}

TEST(LabelledExchange, RoundTripsPiecesWithFewAndManyLabels) {
  std::mt19937_64 random(3);
  for (uint64_t distinct : {uint64_t(1), uint64_t(5), uint64_t(100000)}) {
    std::vector<engine::LabelledVertex<uint32_t>> narrow;
    std::vector<engine::LabelledVertex<uint64_t>> wide;
    uint64_t vertex = 0;
    for (int i = 0; i < 20000; ++i) {
      vertex += random() % 40;  // repeated vertices too (gap 0)
      const uint64_t label = (random() % distinct) * 7919;
      narrow.push_back({uint32_t(vertex), uint32_t(label)});
      wide.push_back({vertex << 30, label << 30});
    }
    round_trip(narrow);
    round_trip(wide);
  }
  round_trip(std::vector<engine::LabelledVertex<uint32_t>>{});
  round_trip(std::vector<engine::LabelledVertex<uint32_t>>{{UINT32_MAX, UINT32_MAX}});
}

TEST(LabelledExchange, SharedLabelsTakeFarFewerBytesThanRecords) {
  std::vector<engine::LabelledVertex<uint32_t>> piece;
  for (uint32_t v = 0; v < 100000; v += 3) piece.push_back({v, v < 50000 ? 17u : 4000000u});
  std::vector<char> bytes;
  engine::labelled_codec::put_piece(bytes, std::span<const engine::LabelledVertex<uint32_t>>(piece));
  EXPECT_LT(bytes.size() * 3, piece.size() * sizeof(piece[0]));  // about 2 bytes a vertex against 8
}

TEST(LabelledExchange, RefusesUnsortedPiecesAndDamagedBytes) {
  std::vector<char> bytes;
  const std::vector<engine::LabelledVertex<uint32_t>> unsorted = {{5, 1}, {4, 1}};
  EXPECT_THROW(engine::labelled_codec::put_piece(bytes, std::span<const engine::LabelledVertex<uint32_t>>(unsorted)), std::logic_error);
  bytes.clear();
  const std::vector<engine::LabelledVertex<uint32_t>> piece = {{1, 9}, {2, 9}, {3, 9}, {8, 9}};
  engine::labelled_codec::put_piece(bytes, std::span<const engine::LabelledVertex<uint32_t>>(piece));
  std::vector<engine::LabelledVertex<uint32_t>> out;
  const char* at = bytes.data();
  EXPECT_THROW(engine::labelled_codec::get_piece(at, bytes.data() + bytes.size() - 1, out), std::runtime_error);  // cut short
  bytes.back() = 5;  // the last index past the one-label table
  at = bytes.data();
  out.clear();
  EXPECT_THROW(engine::labelled_codec::get_piece(at, bytes.data() + bytes.size(), out), std::runtime_error);
}

}  // namespace
}  // namespace sluice
