// Gap-coded edge pages (layout/compressed_pages.hpp): the encoder and both
// decoders against the lists they were given, values of every byte length,
// pages that are not whole, and damage found by the layout's reader.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(CompressedPages, DecodeToTheListsEncoded) {
  for (uint64_t page_bytes : {512u, 4096u}) {
    // Targets below and far above their sources: first values of every length.
    const uint64_t vertices = 600;
    const auto lists = random_lists(vertices, page_bytes);
    std::vector<Page> pages;
    layout::CompressedPageEncoder encoder(page_bytes, [&](const char* page, uint64_t first_edge) {
      pages.push_back({std::vector<char>(page, page + page_bytes), first_edge});
    });
    std::vector<uint32_t> all;
    for (uint64_t v = 0; v < vertices; ++v) {
      encoder.add_list(v, lists[v].data(), lists[v].size());
      all.insert(all.end(), lists[v].begin(), lists[v].end());
    }
    encoder.finish();
    ASSERT_EQ(encoder.pages(), pages.size());
    ASSERT_GT(pages.size(), 3u);
    std::vector<uint32_t> decoded(layout::compressed_page_capacity(page_bytes)), scalar(decoded.size());
    uint64_t next = 0;
    for (size_t p = 0; p < pages.size(); ++p) {
      const layout::CompressedPageHeader header = layout::CompressedPageHeader::of(pages[p].bytes.data());
      ASSERT_EQ(pages[p].first_edge, next);
      ASSERT_GT(header.edges, 0u);
      const uint64_t largest = layout::decode_page(pages[p].bytes.data(), page_bytes, decoded.data());
      ASSERT_EQ(layout::decode_page(pages[p].bytes.data(), page_bytes, scalar.data(), false), largest);
      ASSERT_EQ(largest, *std::max_element(all.begin() + int64_t(next), all.begin() + int64_t(next + header.edges)));
      for (uint64_t i = 0; i < header.edges; ++i) {
        ASSERT_EQ(decoded[i], all[next + i]) << "page " << p << " edge " << i;
        ASSERT_EQ(scalar[i], all[next + i]) << "page " << p << " edge " << i;
      }
      next += header.edges;
    }
    EXPECT_EQ(next, all.size());
  }
}

TEST(CompressedPages, RefuseWhatCannotBeAPage) {
  const uint64_t page_bytes = 512;
  std::vector<char> page(page_bytes, 0);
  std::vector<uint32_t> out(layout::compressed_page_capacity(page_bytes));
  // More edges than a page holds.
  uint32_t count = uint32_t(layout::compressed_page_capacity(page_bytes) + 1);
  std::memcpy(page.data(), &count, 4);
  EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data()), UINT64_MAX);
  // Control bytes claiming four bytes a value: past the page's end.
  count = 200;
  std::memcpy(page.data(), &count, 4);
  std::memset(page.data() + 8, 0xff, 50);
  EXPECT_EQ(layout::decode_page(page.data(), page_bytes, out.data()), UINT64_MAX);
  // Ids from 2^31 up are refused when encoding.
  layout::CompressedPageEncoder encoder(page_bytes, [](const char*, uint64_t) {});
  const uint32_t big[] = {5, uint32_t(layout::compressed_max_vertices)};
  EXPECT_THROW(encoder.add_list(layout::compressed_max_vertices, big, 1), std::invalid_argument);
  EXPECT_THROW(encoder.add_list(0, big, 2), std::invalid_argument);
}

// A layout written with --compress reads back through the block API as
// the lists given (sorted), and a damaged page is reported with its file.
TEST(CompressedPages, LayoutRoundTripAndDamage) {
  TempDir dir;
  for (RefGraph g : graph_shapes(false)) {
    const std::string path = layout_on_drives(dir, g, 2, true, true);
    const RefGraph csr = g.csr_order();
    auto read = BlockGraph::open(path);
    ASSERT_EQ(read->info().edges, g.edges.size()) << g.name;
    std::vector<uint64_t> offsets(g.n + 1);
    read->source().read_offsets(0, g.n, offsets.data());
    std::vector<uint32_t> targets(g.edges.size());
    read->source().read_edges(0, g.n, targets.data(), nullptr);
    for (uint64_t v = 0; v < g.n; ++v) {
      std::vector<uint32_t> expected;
      for (const Edge& e : csr.edges) {
        if (e.u == v) expected.push_back(uint32_t(e.v));
      }
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(std::vector<uint32_t>(targets.begin() + int64_t(offsets[v]), targets.begin() + int64_t(offsets[v + 1])), expected)
          << g.name << " vertex " << v;
    }
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
  std::vector<uint32_t> out(layout::compressed_page_capacity(4096));
  expect_error_with([&] { damaged.out().decode_page(1, page.data(), out.data()); }, {drive, "byte " + std::to_string(at), "does not decode"});
  expect_error_with([&] { damaged.verify(); }, {drive, "checksum"});
}
