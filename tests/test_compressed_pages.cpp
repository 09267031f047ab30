// Gap-coded edge pages (layout/compressed_pages.hpp): the encoder and both
// decoders against the lists they were given, values of every byte length,
// pages that are not whole, and damage found by the layout's reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <random>

#include "engine/disk_graph.hpp"
#include "layout/compressed_pages.hpp"
#include "layout/sluice_layout.hpp"
#include "test_support.hpp"

using namespace sluice;
using namespace sluice::test;

namespace {

struct Page {
  std::vector<char> bytes;
  uint64_t first_edge;
};

// A weighted page decoded straight into the walks' (target, weight)
// records, `Id`'s width: each against the lists' edges from `next` on,
// and nothing written past the last.
template <class Id>
void expect_records(const Page& page, uint64_t page_bytes, uint64_t largest, uint64_t count, const std::vector<Id>& all,
                    const std::vector<float>& all_weights, uint64_t next, bool simd) {
  constexpr uint64_t bytes = 2 * sizeof(Id);
  std::vector<Id> targets(layout::compressed_page_capacity(page_bytes, true, sizeof(Id) == 8), 0);
  std::vector<char> records(bytes * targets.size() + bytes, 0x55);  // one past the last: untouched
  const uint64_t decoded = sizeof(Id) == 8
      ? layout::decode_wide_page_records(page.bytes.data(), page_bytes, reinterpret_cast<uint64_t*>(targets.data()), records.data(), simd)
      : layout::decode_page_records(page.bytes.data(), page_bytes, reinterpret_cast<uint32_t*>(targets.data()), records.data(), simd);
  ASSERT_EQ(decoded, largest);
  for (uint64_t i = 0; i < count; ++i) {
    Id target;
    uint32_t weight;
    std::memcpy(&target, records.data() + bytes * i, sizeof(Id));
    std::memcpy(&weight, records.data() + bytes * i + sizeof(Id), 4);
    ASSERT_EQ(target, all[next + i]) << "edge " << i << " simd " << simd;
    ASSERT_EQ(weight, std::bit_cast<uint32_t>(all_weights[next + i])) << "edge " << i << " simd " << simd;
  }
  ASSERT_EQ(records[bytes * count], char(0x55));
}

// Lists of random lengths whose targets need 1 to 4 bytes as gaps and as
// first values (below and above their source).
std::vector<std::vector<uint32_t>> random_lists(uint64_t vertices, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::vector<uint32_t>> lists(vertices);
  for (uint64_t v = 0; v < vertices; ++v) {
    const uint64_t length = random() % 5 == 0 ? 0 : random() % 4 == 0 ? random() % 3000 : random() % 40;
    const uint64_t spread = uint64_t(1) << (8 * (1 + random() % 4) - 1);  // 2^7 .. 2^31
    for (uint64_t i = 0; i < length; ++i) lists[v].push_back(uint32_t(random() % std::min<uint64_t>(spread, layout::compressed_max_vertices)));
    std::sort(lists[v].begin(), lists[v].end());
  }
  return lists;
}

}  // namespace

// Weights as a layout may hold them: none, small integers (1 to 4 bytes
// a value), or integers with here and there a fraction, a negative, -0 or
// one of 2^24 and above (the pages that hold one keep raw floats).
enum class Weights { none, integers, mixed };

float weight_for(Weights kind, std::mt19937_64& random) {
  const float integer = float(random() % 4 == 0 ? random() % (1u << 24) : 1 + random() % 255);
  if (kind == Weights::integers || random() % 200) return integer;
  const float odd[] = {0.5f, -3.0f, -0.0f, 16777216.0f, 1e30f};
  return odd[random() % 5];
}

TEST(CompressedPages, DecodeToTheListsEncoded) {
  for (Weights kind : {Weights::none, Weights::integers, Weights::mixed}) {
    for (uint64_t page_bytes : {512u, 4096u}) {
      const bool weighted = kind != Weights::none;
      // Targets below and far above their sources: first values of every length.
      const uint64_t vertices = 600;
      const auto lists = random_lists(vertices, page_bytes);
      std::mt19937_64 random(page_bytes + 7);
      std::vector<Page> pages;
      layout::CompressedPageEncoder encoder(page_bytes, weighted, [&](const char* page, uint64_t first_edge) {
        pages.push_back({std::vector<char>(page, page + page_bytes), first_edge});
      });
      std::vector<uint32_t> all;
      std::vector<float> all_weights;
      for (uint64_t v = 0; v < vertices; ++v) {
        std::vector<float> weights(lists[v].size());
        for (float& w : weights) w = weight_for(kind, random);
        encoder.add_list(v, lists[v].data(), lists[v].size(), weighted ? weights.data() : nullptr);
        all.insert(all.end(), lists[v].begin(), lists[v].end());
        all_weights.insert(all_weights.end(), weights.begin(), weights.end());
      }
      encoder.finish();
      ASSERT_EQ(encoder.pages(), pages.size());
      ASSERT_GT(pages.size(), 3u);
      std::vector<uint32_t> decoded(layout::compressed_page_capacity(page_bytes, weighted)), scalar(decoded.size());
      std::vector<float> decoded_weights(decoded.size()), scalar_weights(decoded.size());
      float* weights_out = weighted ? decoded_weights.data() : nullptr;
      float* scalar_weights_out = weighted ? scalar_weights.data() : nullptr;
      uint64_t next = 0, raw_pages = 0;
      for (size_t p = 0; p < pages.size(); ++p) {
        const layout::CompressedPageHeader header = layout::CompressedPageHeader::of(pages[p].bytes.data(), weighted);
        raw_pages += header.raw_weights;
        ASSERT_EQ(pages[p].first_edge, next);
        ASSERT_GT(header.edges, 0u);
        const uint64_t largest = layout::decode_page(pages[p].bytes.data(), page_bytes, decoded.data(), weights_out);
        ASSERT_EQ(layout::decode_page(pages[p].bytes.data(), page_bytes, scalar.data(), scalar_weights_out, false), largest);
        ASSERT_EQ(largest, *std::max_element(all.begin() + int64_t(next), all.begin() + int64_t(next + header.edges)));
        for (uint64_t i = 0; i < header.edges; ++i) {
          ASSERT_EQ(decoded[i], all[next + i]) << "page " << p << " edge " << i;
          ASSERT_EQ(scalar[i], all[next + i]) << "page " << p << " edge " << i;
          if (!weighted) continue;
          // Bit for bit: -0 stays -0.
          ASSERT_EQ(std::bit_cast<uint32_t>(decoded_weights[i]), std::bit_cast<uint32_t>(all_weights[next + i])) << "page " << p << " edge " << i;
          ASSERT_EQ(std::bit_cast<uint32_t>(scalar_weights[i]), std::bit_cast<uint32_t>(all_weights[next + i])) << "page " << p << " edge " << i;
        }
        if (weighted) {
          // Decoded straight into (target, weight) records, vector and scalar.
          for (const bool simd : {true, false}) {
            ASSERT_NO_FATAL_FAILURE(expect_records(pages[p], page_bytes, largest, header.edges, all, all_weights, next, simd)) << "page " << p;
          }
        }
        next += header.edges;
      }
      EXPECT_EQ(next, all.size());
      // Raw floats only where a page holds a weight that is not a small integer.
      if (kind == Weights::mixed) {
        EXPECT_GT(raw_pages, 0u);
        EXPECT_LT(raw_pages, pages.size());
      } else {
        EXPECT_EQ(raw_pages, 0u);
      }
    }
  }
}

// 64-bit ids: differences of 1, 2, 4 and 8 bytes, targets far above 2^32,
// with and without weights, decoded one value at a time.
TEST(CompressedPages, WidePagesDecodeToTheListsEncoded) {
  for (Weights kind : {Weights::none, Weights::integers, Weights::mixed}) {
    const bool weighted = kind != Weights::none;
    const uint64_t page_bytes = 4096, vertices = 500;
    std::mt19937_64 random(17);
    std::vector<Page> pages;
    layout::CompressedPageEncoder encoder(page_bytes, weighted, [&](const char* page, uint64_t first_edge) {
      pages.push_back({std::vector<char>(page, page + page_bytes), first_edge});
    }, true);
    std::vector<uint64_t> all;
    std::vector<float> all_weights;
    for (uint64_t v = 0; v < vertices; ++v) {
      const uint64_t source = (uint64_t(1) << 40) + v * 1000003;
      const uint64_t length = random() % 5 == 0 ? 0 : random() % 60;
      const unsigned shift = unsigned(random() % 62);  // spreads from 2 to 2^62
      std::vector<uint64_t> list(length);
      for (uint64_t& t : list) t = random() % (uint64_t(2) << shift);
      std::sort(list.begin(), list.end());
      std::vector<float> weights(length);
      for (float& w : weights) w = weight_for(kind, random);
      encoder.add_list(source, list.data(), list.size(), weighted ? weights.data() : nullptr);
      all.insert(all.end(), list.begin(), list.end());
      all_weights.insert(all_weights.end(), weights.begin(), weights.end());
    }
    encoder.finish();
    ASSERT_GT(pages.size(), 3u);
    std::vector<uint64_t> decoded(layout::compressed_page_capacity(page_bytes, weighted, true));
    std::vector<float> decoded_weights(decoded.size());
    for (const bool simd : {true, false}) {
      uint64_t next = 0;
      for (size_t p = 0; p < pages.size(); ++p) {
        const layout::CompressedPageHeader header = layout::CompressedPageHeader::of(pages[p].bytes.data(), weighted, true);
        ASSERT_EQ(pages[p].first_edge, next);
        const uint64_t largest =
            layout::decode_wide_page(pages[p].bytes.data(), page_bytes, decoded.data(), weighted ? decoded_weights.data() : nullptr, simd);
        ASSERT_EQ(largest, *std::max_element(all.begin() + int64_t(next), all.begin() + int64_t(next + header.edges)));
        for (uint64_t i = 0; i < header.edges; ++i) {
          ASSERT_EQ(decoded[i], all[next + i]) << "page " << p << " edge " << i << " simd " << simd;
          if (weighted) {
            ASSERT_EQ(std::bit_cast<uint32_t>(decoded_weights[i]), std::bit_cast<uint32_t>(all_weights[next + i]));
          }
        }
        if (weighted) {
          // Decoded straight into records of 16 bytes: target, weight, padding.
          ASSERT_NO_FATAL_FAILURE(expect_records(pages[p], page_bytes, largest, header.edges, all, all_weights, next, simd)) << "page " << p;
        }
        next += header.edges;
      }
      EXPECT_EQ(next, all.size());
    }
  }
  // Each encoder takes ids of its own width.
  layout::CompressedPageEncoder narrow(4096, false, [](const char*, uint64_t) {});
  layout::CompressedPageEncoder wide(4096, false, [](const char*, uint64_t) {}, true);
  const uint32_t small[] = {1};
  const uint64_t large[] = {1};
  EXPECT_THROW(narrow.add_list(0, large, 1), std::invalid_argument);
  EXPECT_THROW(wide.add_list(0, small, 1), std::invalid_argument);
  // Controls claiming 8 bytes a value run past the page's end.
  std::vector<char> page(512, 0);
  const uint32_t count = 100;
  std::memcpy(page.data(), &count, 4);
  std::memset(page.data() + 16, 0xff, 25);
  std::vector<uint64_t> out(layout::compressed_page_capacity(512, false, true));
  EXPECT_EQ(layout::decode_wide_page(page.data(), 512, out.data()), UINT64_MAX);
  EXPECT_EQ(layout::decode_wide_page(page.data(), 512, out.data(), nullptr, false), UINT64_MAX);
  // A first difference of -1 from vertex 0: targets of 2^64 - 1, no vertex,
  // returned as such (not as "malformed"), by the vector path and the other.
  std::vector<char> below_zero(512, 0);
  const uint32_t four = 4;
  std::memcpy(below_zero.data(), &four, 4);
  below_zero[layout::compressed_wide_page_header_bytes] = char(0xff);  // four values of 8 bytes
  below_zero[layout::compressed_wide_page_header_bytes + 1] = 1;      // zigzag(-1)
  for (const bool simd : {true, false}) {
    EXPECT_EQ(layout::decode_wide_page(below_zero.data(), 512, out.data(), nullptr, simd), UINT64_MAX - 1) << "simd " << simd;
    EXPECT_EQ(out[3], UINT64_MAX) << "simd " << simd;
  }
}

TEST(CompressedPages, RefuseWhatCannotBeAPage) {
  const uint64_t page_bytes = 512;
  for (bool weighted : {false, true}) {
    std::vector<char> page(page_bytes, 0);
    std::vector<uint32_t> out(layout::compressed_page_capacity(page_bytes, false));
    std::vector<float> weights(out.size());
    float* weights_out = weighted ? weights.data() : nullptr;
    // More edges than a page holds.
    uint32_t count = uint32_t(layout::compressed_page_capacity(page_bytes, weighted) + 1);
    std::memcpy(page.data(), &count, 4);
    EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data(), weights_out), UINT64_MAX);
    // Control bytes claiming four bytes a value: past the page's end.
    count = 150;
    std::memcpy(page.data(), &count, 4);
    std::memset(page.data() + 8, 0xff, 38);
    EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data(), weights_out), UINT64_MAX);
    // One byte a target, but the weights' control bytes claim four bytes a weight.
    count = 100;
    std::memcpy(page.data(), &count, 4);
    std::memset(page.data() + 8, 0, 38);
    std::memset(page.data() + 8 + 25 + 100, 0xff, 25);
    EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data(), weights_out), weighted ? UINT64_MAX : 0u);
    // Raw weights up to the page's end, then past it (bit 31: an unweighted page cannot have it).
    count = 80 | layout::compressed_raw_weights;
    std::memcpy(page.data(), &count, 4);
    std::memset(page.data() + 8, 0, page_bytes - 8);
    EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data(), weights_out), weighted ? 0u : UINT64_MAX);
    count = 120 | layout::compressed_raw_weights;
    std::memcpy(page.data(), &count, 4);
    EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data(), weights_out), UINT64_MAX);
  }
  // Ids from 2^31 up are refused when encoding; so are lists without the weights of a weighted layout.
  layout::CompressedPageEncoder encoder(page_bytes, false, [](const char*, uint64_t) {});
  const uint32_t big[] = {5, uint32_t(layout::compressed_max_vertices)};
  EXPECT_THROW(encoder.add_list(layout::compressed_max_vertices, big, 1), std::invalid_argument);
  EXPECT_THROW(encoder.add_list(0, big, 2), std::invalid_argument);
  layout::CompressedPageEncoder weighted(page_bytes, true, [](const char*, uint64_t) {});
  EXPECT_THROW(weighted.add_list(0, big, 1), std::invalid_argument);
}

namespace {
// The compressed layout at `path` reads back through the block API as
// g's lists, each sorted (repeated targets kept; a weighted list's by
// target, then by the weight's bits).
void expect_sorted_lists(const std::string& path, const RefGraph& g) {
  auto read = BlockGraph::open(path);
  ASSERT_EQ(read->info().edges, g.edges.size()) << g.name;
  std::vector<uint64_t> offsets(g.n + 1);
  read->source().read_offsets(0, g.n, offsets.data());
  std::vector<uint32_t> targets(g.edges.size());
  std::vector<float> weights(g.weighted ? g.edges.size() : 0);
  read->source().read_edges(0, g.n, targets.data(), g.weighted ? weights.data() : nullptr);
  using Entry = std::pair<uint32_t, uint32_t>;  // target, weight's bits
  std::vector<std::vector<Entry>> expected(g.n);
  for (const Edge& e : g.edges) expected[e.u].push_back({uint32_t(e.v), g.weighted ? std::bit_cast<uint32_t>(e.w) : 0});
  for (uint64_t v = 0; v < g.n; ++v) {
    std::sort(expected[v].begin(), expected[v].end());
    std::vector<Entry> got;
    for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) got.push_back({targets[e], g.weighted ? std::bit_cast<uint32_t>(weights[e]) : 0});
    ASSERT_EQ(got, expected[v]) << g.name << " vertex " << v;
  }
}
}  // namespace

// Unsorted lists (the writer radix-sorts those of 32 targets or more)
// come back sorted, duplicates kept, over ids of 19 bits and with the
// largest id there is.
TEST(CompressedPages, LongListsComeBackSorted) {
  TempDir dir;
  RefGraph g;
  g.name = "long";
  g.n = 300000;
  std::mt19937_64 random(7);
  for (int i = 0; i < 5000; ++i) g.edges.push_back({7, random() % g.n, 1.0f});
  for (uint64_t i = 0; i < 600; ++i) g.edges.push_back({8, g.n - 1 - i * 3, 1.0f});  // descending
  for (int i = 0; i < 700; ++i) g.edges.push_back({9, i % 2 ? g.n - 1 : 0, 1.0f});  // the extremes, alternating
  // The sort's three ways: insertion sort below 32 ids, radix digits of
  // at most 8 bits, and of at most 11 from 8192 ids on (with repeats).
  for (uint64_t i = 0; i < 31; ++i) g.edges.push_back({10, g.n - 1 - i, 1.0f});
  for (int i = 0; i < 32; ++i) g.edges.push_back({11, random() % g.n, 1.0f});
  for (int i = 0; i < 8192; ++i) g.edges.push_back({12, random() % 1000, 1.0f});
  for (int i = 0; i < 20000; ++i) g.edges.push_back({13, random() % g.n, 1.0f});
  expect_sorted_lists(layout_on_drives(dir, g, 1, false, true), g);
}

// Weighted lists of every length come back sorted by target, and equal
// targets by the weight's bits (-0 after +0, raw floats among integers),
// whatever order they were given in.
TEST(CompressedPages, WeightedListsComeBackSortedByTargetThenWeight) {
  TempDir dir;
  RefGraph g;
  g.name = "weighted ties";
  g.n = 70000;
  g.weighted = true;
  std::mt19937_64 random(11);
  const float weights[] = {1.0f, 2.0f, 255.0f, 0.0f, -0.0f, 0.5f, 1e30f, 7.0f};
  const uint64_t lengths[] = {0, 1, 2, 31, 32, 33, 500, 8192, 20000};
  for (uint64_t v = 0; v < std::size(lengths); ++v) {
    for (uint64_t i = 0; i < lengths[v]; ++i) {
      const uint64_t target = random() % 2 ? random() % 16 : random() % g.n;  // many repeats
      g.edges.push_back({v, target, weights[random() % std::size(weights)]});
    }
  }
  for (uint64_t drives : {1, 3}) expect_sorted_lists(layout_on_drives(dir, g, unsigned(drives), true, true), g);
}

// A layout written with --compress reads back through the block API as
// the lists given (sorted), and a damaged page is reported with its file.
TEST(CompressedPages, LayoutRoundTripAndDamage) {
  TempDir dir;
  for (RefGraph g : graph_shapes(false)) {
    const std::string path = layout_on_drives(dir, g, 2, true, true);
    expect_sorted_lists(path, g);
    layout::SluiceLayout(path).verify();
  }
  // A page whose edge count was changed (checksums off: the decode itself
  // must notice) and one damaged anywhere (the checksum).
  RefGraph g = graph_shapes(false).back();
  const std::string path = layout_on_drives(dir, g, 1, false, true);
  const layout::SluiceLayout whole(path);
  const std::string drive = whole.out().edges().paths()[0];
  const uint64_t at = whole.out().edges().interleaving().offset_on_drive(1);
  {
    std::fstream f(drive, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(at));
    const uint32_t wrong = 7;
    f.write(reinterpret_cast<const char*>(&wrong), 4);
  }
  const layout::SluiceLayout damaged(path);
  std::vector<char> page(4096);
  {
    std::ifstream f(drive, std::ios::binary);
    f.seekg(std::streamoff(at));
    f.read(page.data(), 4096);
  }
  std::vector<uint32_t> out(layout::compressed_page_capacity(4096, false));
  expect_error_with([&] { damaged.out().decode_page(1, page.data(), out.data(), nullptr); }, {drive, "byte " + std::to_string(at), "does not decode"});
  expect_error_with([&] { damaged.verify(); }, {drive, "checksum"});
}
