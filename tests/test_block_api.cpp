// The block API: synchronous and asynchronous reads deliver every edge
// exactly once, whatever the buffer count and block size; errors and
// cancellation end requests cleanly; the C interface serves the same code.
#include <atomic>
#include <mutex>

#include "formats/sluice.h"
#include "formats/writers.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

RefGraph collect_async(BlockGraph& graph, uint64_t begin, uint64_t end) {
  std::mutex mutex;
  RefGraph g;
  g.n = graph.info().vertices;
  g.weighted = graph.info().weighted;
  std::vector<int> seen_blocks;
  auto id = graph.request(begin, end, [&](const EdgeBlock& block) {
    std::vector<Edge> edges;
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        uint64_t i = e - block.first_edge();
        edges.push_back({v, block.target(i), block.weights ? block.weights[i] : 1.0f});
      }
    }
    {
      std::lock_guard lock(mutex);
      g.edges.insert(g.edges.end(), edges.begin(), edges.end());
      seen_blocks.push_back(int(block.index));
    }
    graph.release(block);
  });
  graph.wait(id);
  std::sort(seen_blocks.begin(), seen_blocks.end());
  for (size_t i = 0; i < seen_blocks.size(); ++i) EXPECT_EQ(seen_blocks[i], int(i));
  // Blocks arrive in any order; a vertex is never split between blocks, so
  // a stable sort by source restores the CSR order.
  return g.csr_order();
}

TEST(BlockApi, AsyncDeliversEveryEdgeOnceForAnyBuffersAndBlockSize) {
  TempDir dir;
  for (const RefGraph& g : graph_shapes(true)) {
    auto file = open_as_edge_list(dir, g);
    RefGraph expected = read_all(*file);
    WriteOptions layout;
    for (int d = 0; d < 2; ++d) {
      std::filesystem::create_directories(dir / ("d" + std::to_string(d)));
      layout.drive_dirs.push_back(dir / ("d" + std::to_string(d)));
    }
    write_graph(*file, dir / (g.name + ".sluice"), "sluice", layout);
    for (unsigned buffers = 1; buffers <= 8; ++buffers) {
      for (uint64_t block_edges : {1ull, 7ull, 100ull, 4096ull, 1ull << 20}) {
        OpenOptions options;
        options.blocks.buffers = buffers;
        options.blocks.block_edges = block_edges;
        options.blocks.threads = int(1 + buffers % 3);
        auto graph = BlockGraph::open(dir / (g.name + ".sluice"), options);
        std::string context = g.name + " buffers " + std::to_string(buffers) + " block " + std::to_string(block_edges);
        expect_same_graph(expected, collect_async(*graph, 0, g.n), context);
      }
    }
  }
}

TEST(BlockApi, SubrangesAndBlocksRespectTheSizeLimit) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  OpenOptions options;
  options.blocks.block_edges = 50;
  auto graph = open_as_edge_list(dir, g, options);
  std::atomic<uint64_t> edges{0};
  std::atomic<bool> too_big{false};
  auto id = graph->request(100, 1900, [&](const EdgeBlock& block) {
    if (block.edges > 50 && block.end - block.begin > 1) too_big = true;
    EXPECT_GE(block.begin, 100u);
    EXPECT_LE(block.end, 1900u);
    edges += block.edges;
    graph->release(block);
  });
  graph->wait(id);
  std::vector<uint64_t> offsets = graph->offsets(100, 1900);
  EXPECT_EQ(edges.load(), offsets.back() - offsets.front());
  EXPECT_FALSE(too_big.load());
}

TEST(BlockApi, SyncReadsIntoCallerAndLibraryMemory) {
  TempDir dir;
  RefGraph g = graph_shapes(true)[4];  // duplicates, weighted
  auto graph = open_as_edge_list(dir, g);
  RefGraph expected = g.csr_order();
  EdgeBlock block = graph->read_block(0, g.n);
  ASSERT_EQ(block.edges, expected.edges.size());
  for (uint64_t i = 0; i < block.edges; ++i) {
    EXPECT_EQ(block.target(i), expected.edges[i].v);
    EXPECT_EQ(block.weights[i], expected.edges[i].w);
  }
  graph->release(block);
  EXPECT_THROW(graph->release(block), std::logic_error);
  EXPECT_THROW(graph->read_block(0, g.n + 1), std::out_of_range);
}

TEST(BlockApi, CallbackErrorsReachWaitAndStopTheRequest) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  OpenOptions options;
  options.blocks.block_edges = 10;
  auto graph = open_as_edge_list(dir, g, options);
  std::atomic<int> calls{0};
  auto id = graph->request(0, g.n, [&](const EdgeBlock& block) {
    graph->release(block);
    if (++calls == 3) throw std::runtime_error("consumer failed");
  });
  EXPECT_THROW(graph->wait(id), std::runtime_error);
  EXPECT_LT(calls.load(), 2000);  // stopped long before the ~2000 blocks
}

TEST(BlockApi, CancelAndCloseWithRequestsOutstanding) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  OpenOptions options;
  options.blocks.block_edges = 5;
  options.blocks.buffers = 2;
  {
    auto graph = open_as_edge_list(dir, g, options);
    std::atomic<int> calls{0};
    auto id = graph->request(0, g.n, [&](const EdgeBlock& block) {
      ++calls;
      graph->release(block);
    });
    graph->cancel(id);
    graph->wait(id);
    EXPECT_LT(calls.load(), 4000);
    // A second request left running when the graph closes.
    graph->request(0, g.n, [&](const EdgeBlock& block) { graph->release(block); });
  }  // destructor cancels and joins
}

TEST(BlockApi, InOrderHelperSeesBlocksInVertexOrder) {
  TempDir dir;
  RefGraph g = graph_shapes(true).back();
  OpenOptions options;
  options.blocks.block_edges = 64;
  options.blocks.buffers = 3;
  options.blocks.threads = 3;
  auto graph = open_as_edge_list(dir, g, options);
  RefGraph got;
  got.n = g.n;
  got.weighted = true;
  uint64_t next = 0;
  for_each_block_in_order(*graph, 0, g.n, [&](const EdgeBlock& block) {
    EXPECT_EQ(block.begin, next);
    next = block.end;
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        got.edges.push_back({v, block.target(e - block.first_edge()), block.weights[e - block.first_edge()]});
      }
    }
  });
  EXPECT_EQ(next, g.n);
  expect_same_graph(g.csr_order(), got);
  // An error in the consumer stops the walk and is rethrown.
  int seen = 0;
  EXPECT_THROW(for_each_block_in_order(*graph, 0, g.n, [&](const EdgeBlock&) {
    if (++seen == 2) throw std::runtime_error("stop");
  }), std::runtime_error);
}

struct CCounts {
  std::atomic<uint64_t> edges{0};
  std::atomic<uint64_t> target_sum{0};
  sluice_graph* graph;
};

void c_callback(const sluice_block* block, void* user) {
  auto* counts = static_cast<CCounts*>(user);
  uint64_t sum = 0;
  for (uint64_t i = 0; i < block->edges; ++i) sum += static_cast<const uint32_t*>(block->targets)[i];
  counts->edges += block->edges;
  counts->target_sum += sum;
  sluice_release_block(counts->graph, block);
}

TEST(BlockApi, CInterface) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  auto cxx = open_as_edge_list(dir, g);
  RefGraph expected = read_all(*cxx);
  std::string path = dir / (g.name + ".el");

  sluice_open_options options;
  sluice_default_open_options(&options);
  options.block_edges = 333;
  options.buffers = 2;
  sluice_graph* graph = sluice_open(path.c_str(), &options);
  ASSERT_NE(graph, nullptr) << sluice_last_error();
  EXPECT_EQ(sluice_vertices(graph), g.n);
  EXPECT_EQ(sluice_edges(graph), g.edges.size());
  EXPECT_EQ(sluice_weighted(graph), 0);
  EXPECT_EQ(sluice_id_bytes(graph), 4u);

  std::vector<uint64_t> offsets(g.n + 1);
  ASSERT_EQ(sluice_read_offsets(graph, 0, g.n, offsets.data()), 0);
  std::vector<uint32_t> targets(offsets.back());
  ASSERT_EQ(sluice_read_edges(graph, 0, g.n, targets.data(), nullptr), 0);
  uint64_t expected_sum = 0;
  for (size_t i = 0; i < targets.size(); ++i) {
    EXPECT_EQ(targets[i], expected.edges[i].v);
    expected_sum += targets[i];
  }

  CCounts counts;
  counts.graph = graph;
  uint64_t request = sluice_request_edges(graph, 0, g.n, c_callback, &counts);
  ASSERT_NE(request, 0u);
  ASSERT_EQ(sluice_wait(graph, request), 0);
  EXPECT_EQ(counts.edges.load(), g.edges.size());
  EXPECT_EQ(counts.target_sum.load(), expected_sum);

  sluice_block block;
  ASSERT_EQ(sluice_read_block(graph, 10, 20, &block), 0);
  EXPECT_EQ(block.edges, offsets[20] - offsets[10]);
  EXPECT_EQ(sluice_release_block(graph, &block), 0);
  EXPECT_EQ(sluice_read_offsets(graph, 0, g.n + 5, offsets.data()), -1);
  EXPECT_NE(std::string(sluice_last_error()).find("outside"), std::string::npos);
  sluice_close(graph);

  EXPECT_EQ(sluice_open((dir / "missing.el").c_str(), nullptr), nullptr);
  EXPECT_NE(std::string(sluice_last_error()).find("missing.el"), std::string::npos);
}

}  // namespace
}  // namespace sluice::test
