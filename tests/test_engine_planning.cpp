// The engine's view of a disk graph and its chunk planner, against brute
// force: the page-to-vertex map, frontiers, and plans that never skip a
// needed page and merge exactly the gaps shorter than λ.
#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "engine/chunk_planner.hpp"
#include "engine/page_stream.hpp"
#include "engine/reads_while_planning.hpp"
#include "formats/csr_builder.hpp"
#include "formats/generators.hpp"
#include "formats/writers.hpp"
#include "programs/algorithm_run.hpp"
#include "programs/option_values.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

using namespace sluice::engine;

// Writes an RMAT graph (weighted or not) as a sluice layout on `drives` drives.
std::string write_layout(const TempDir& dir, unsigned drives, bool weighted, unsigned scale = 13) {
  GeneratorOptions gen;
  gen.scale = scale;
  gen.edge_factor = 8;
  gen.weighted = weighted;
  Csr<uint32_t> csr = build_csr(generate_edge_list<uint32_t>(gen), BuildOptions{});
  BlockGraph graph(std::make_unique<InMemorySource<uint32_t>>(std::move(csr), "rmat"), BlockOptions{});
  WriteOptions options;
  for (unsigned d = 0; d < drives; ++d) {
    std::string drive = dir / ("d" + std::to_string(drives) + std::to_string(weighted) + "-" + std::to_string(d));
    std::filesystem::create_directories(drive);
    options.drive_dirs.push_back(drive);
  }
  std::string path = dir / ("g" + std::to_string(drives) + std::to_string(weighted) + ".sluice");
  write_graph(graph, path, "sluice", options);
  return path;
}

TEST(DiskGraph, PageToVertexMapMatchesBruteForce) {
  TempDir dir;
  for (unsigned drives : {1u, 3u}) {
    for (bool weighted : {false, true}) {
      DiskGraph g(write_layout(dir, drives, weighted));
      auto reference = BlockGraph::open(g.layout().path());
      std::vector<uint64_t> offsets = reference->offsets(0, g.vertices());
      const uint64_t per_page = g.page_bytes() / g.record_bytes();
      EXPECT_EQ(g.pages(), (g.edges() + per_page - 1) / per_page);
      for (uint64_t p = 0; p < g.pages(); ++p) {
        uint64_t e = p * per_page;
        uint64_t owner = uint64_t(std::upper_bound(offsets.begin(), offsets.end(), e) - offsets.begin()) - 1;
        ASSERT_EQ(g.first_vertex_of_page(p), owner) << "page " << p;
        ASSERT_GT(g.degree(owner), 0u);
      }
      for (uint64_t v = 0; v < g.vertices(); ++v) {
        ASSERT_EQ(g.offset(v), offsets[v]);
        uint64_t first = 0, last = 0;
        bool has = g.page_range(v, first, last);
        ASSERT_EQ(has, offsets[v + 1] > offsets[v]);
        if (has) {
          EXPECT_EQ(first, offsets[v] / per_page);
          EXPECT_EQ(last, (offsets[v + 1] - 1) / per_page);
        }
      }
      EXPECT_LT(g.memory_bytes(), g.vertices() * 5 + g.pages() * 8 + 64);
    }
  }
}

TEST(IndexedBitmap, AgreesWithASet) {
  std::mt19937_64 random(3);
  for (uint64_t size : {1ull, 63ull, 512ull, 5000ull, 100000ull}) {
    IndexedBitmap bitmap(size);
    std::set<uint64_t> expected;
    for (int i = 0; i < 300; ++i) {
      uint64_t v = random() % size;
      expected.insert(v);
      if (i % 2) bitmap.set(v);
      else bitmap.set_atomic(v);
    }
    std::vector<uint64_t> seen;
    bitmap.for_each([&](uint64_t v) { seen.push_back(v); });
    EXPECT_EQ(seen, std::vector<uint64_t>(expected.begin(), expected.end()));
    EXPECT_EQ(bitmap.count(), expected.size());
    // any_in: from any block start to any end, the set's answer.
    for (uint64_t begin = 0; begin < size; begin += IndexedBitmap::block_bits) {
      for (uint64_t end = begin + 1; end <= size; end += 1 + random() % 97) {
        EXPECT_EQ(bitmap.any_in(begin, end), expected.lower_bound(begin) != expected.lower_bound(end)) << size << " " << begin << " " << end;
      }
    }
    // for_each_in: from any begin to any end, the set's members between.
    for (int i = 0; i < 50; ++i) {
      const uint64_t begin = random() % size, end = begin + random() % (size - begin + 1);
      std::vector<uint64_t> in_range;
      bitmap.for_each_in(begin, end, [&](uint64_t v) { in_range.push_back(v); });
      EXPECT_EQ(in_range, std::vector<uint64_t>(expected.lower_bound(begin), expected.lower_bound(end))) << size << " " << begin << " " << end;
      // for_each_some: the same members, `most` at a time, each walk on
      // from where the last stopped (the rank exchange's rounds).
      const uint64_t most = 1 + random() % 7;
      std::vector<uint64_t> walked;
      uint64_t at = begin, walks = 0;
      while (at < end) {
        const size_t before = walked.size();
        at = bitmap.for_each_some(at, end, most, [&](uint64_t v) { walked.push_back(v); });
        ASSERT_LE(walked.size() - before, most);
        ASSERT_LT(walks++, size + 1) << "no progress";
      }
      EXPECT_EQ(walked, in_range) << size << " " << begin << " " << end << " " << most;
      EXPECT_EQ(bitmap.for_each_some(begin, end, 0, [](uint64_t) { FAIL(); }), begin);
    }
    bitmap.clear();
    EXPECT_EQ(bitmap.count(), 0u);
    EXPECT_FALSE(bitmap.test(*expected.begin()));
  }
}

// set_all fills whole words: no bit past the end, every block indexed.
TEST(IndexedBitmap, SetAllSetsExactlyEveryBit) {
  for (uint64_t size : {0ull, 1ull, 63ull, 64ull, 65ull, 511ull, 512ull, 513ull, 32768ull, 32768ull + 512 * 3 + 5}) {
    IndexedBitmap bitmap(size);
    bitmap.set_all();
    uint64_t next = 0;
    bitmap.for_each([&](uint64_t v) { EXPECT_EQ(v, next++) << size; });
    EXPECT_EQ(next, size);
    EXPECT_EQ(bitmap.count(), size);
    uint64_t in_last_block = 0;
    const uint64_t last_block = size ? (size - 1) / IndexedBitmap::block_bits * IndexedBitmap::block_bits : 0;
    bitmap.for_each_in(last_block, size, [&](uint64_t) { ++in_last_block; });
    EXPECT_EQ(in_last_block, size - last_block) << size;
  }
}

TEST(VertexSubset, SwitchesByDensityAndKeepsItsMembers) {
  VertexSubset few = VertexSubset::from_ids(1000, {5, 3, 5, 999});
  EXPECT_FALSE(few.is_dense());
  EXPECT_EQ(few.size(), 3u);
  std::vector<uint64_t> many;
  for (uint64_t v = 0; v < 1000; v += 7) many.push_back(v);
  VertexSubset dense = VertexSubset::from_ids(1000, many);
  EXPECT_TRUE(dense.is_dense());  // 143 > 1000 / 20
  EXPECT_TRUE(dense.contains(994));
  EXPECT_FALSE(dense.contains(995));
  dense.to_sparse();
  EXPECT_EQ(dense.ids(), many);
  dense.to_dense();
  std::vector<uint64_t> back;
  dense.for_each([&](uint64_t v) { back.push_back(v); });
  EXPECT_EQ(back, many);
  EXPECT_EQ(VertexSubset::all(10).size(), 10u);
  EXPECT_THROW(VertexSubset::from_ids(10, {10}), std::out_of_range);
}

// A program's result may be any of the value types a kernel keeps
// (issue 23, 10: float once failed at link time).
TEST(Programs, OutputsWriteEveryValueType) {
  TempDir dir;
  namespace po = boost::program_options;
  po::variables_map v;
  v.emplace("output", po::variable_value(std::string(dir / "out.txt"), false));
  v.emplace("stats", po::variable_value(std::string(), true));
  v.emplace("output-format", po::variable_value(std::string("text"), true));
  programs::ProgramOutputs outputs(v, {});
  const std::vector<float> floats = {0.5f, 1e-3f, -2.0f};
  const std::vector<int32_t> ints = {-1, 7};
  const std::vector<uint32_t> counts = {3};
  outputs.values(dir / "out.txt", std::span<const float>(floats));
  outputs.values(dir / "ints.txt", std::span<const int32_t>(ints));
  outputs.values(dir / "counts.txt", std::span<const uint32_t>(counts));
  outputs.commit();
  auto text = [&](const std::string& name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(text("out.txt"), "0.5\n0.001\n-2\n");
  EXPECT_EQ(text("ints.txt"), "-1\n7\n");
  EXPECT_EQ(text("counts.txt"), "3\n");
  auto finish_floats = &programs::AlgorithmRun::finish<float>;  // links
  EXPECT_NE(finish_floats, nullptr);
}

TEST(OptionValues, OneSizeParserForEverySize) {
  using programs::parse_byte_size;
  using programs::parse_skip_threshold;
  EXPECT_TRUE(parse_skip_threshold("inf").infinite);
  EXPECT_EQ(parse_skip_threshold("0").bytes, 0u);
  EXPECT_EQ(parse_skip_threshold("64k").bytes, 65536u);
  EXPECT_EQ(parse_skip_threshold("2M").bytes, 2u << 20);
  EXPECT_EQ(parse_skip_threshold("1g").bytes, 1u << 30);  // as --bin-space 1g
  EXPECT_EQ(parse_skip_threshold("64KiB").bytes, parse_byte_size("64KiB"));
  EXPECT_THROW(parse_skip_threshold("fast"), boost::program_options::error);
  EXPECT_THROW(parse_skip_threshold("-1"), boost::program_options::error);
  EXPECT_THROW(parse_byte_size("1x"), boost::program_options::error);
  EXPECT_EQ(programs::parse_direction("pull"), Direction::pull);
  EXPECT_THROW(programs::parse_direction("sideways"), boost::program_options::error);
}

// The plan a brute force makes: needed pages per drive, merged when the gap
// is shorter than λ.
std::vector<std::vector<Chunk>> brute_force_plan(const DiskGraph& g, const std::vector<uint64_t>& active, uint64_t lambda) {
  std::vector<std::set<uint64_t>> pages(g.drives());
  for (uint64_t v : active) {
    uint64_t first, last;
    if (!g.page_range(v, first, last)) continue;
    for (uint64_t p = first; p <= last; ++p) pages[g.drive_of(p)].insert(p / g.drives());
  }
  std::vector<std::vector<Chunk>> plan(g.drives());
  for (unsigned d = 0; d < g.drives(); ++d) {
    for (uint64_t p : pages[d]) {
      auto& chunks = plan[d];
      if (!chunks.empty()) {
        uint64_t end = chunks.back().first_page + chunks.back().pages;
        if (p == end || (p - end) * g.page_bytes() < lambda) {
          chunks.back().pages = p - chunks.back().first_page + 1;
          continue;
        }
      }
      chunks.push_back({p, 1});
    }
  }
  return plan;
}

TEST(ChunkPlanner, NeverSkipsANeededPageAndMergesExactlyTheShortGaps) {
  TempDir dir;
  std::mt19937_64 random(11);
  for (unsigned drives : {1u, 2u, 4u}) {
    DiskGraph g(write_layout(dir, drives, drives == 2, 14));
    ChunkPlanner planner(g);
    for (double density : {0.0, 0.0001, 0.002, 0.01, 0.05, 0.3, 1.0}) {
      std::vector<uint64_t> active;
      for (uint64_t v = 0; v < g.vertices(); ++v) {
        if (double(random() % 1000000) / 1e6 < density) active.push_back(v);
      }
      if (density > 0 && active.empty()) active.push_back(random() % g.vertices());
      VertexSubset frontier = VertexSubset::from_ids(g.vertices(), active);
      uint64_t active_edges = 0;
      for (uint64_t v : active) active_edges += g.degree(v);
      for (const char* lambda_text : {"0", "4k", "8k", "64k", "inf"}) {
        SkipThreshold lambda = programs::parse_skip_threshold(lambda_text);
        ChunkPlan plan = planner.plan(frontier, lambda);
        std::string context = std::to_string(drives) + " drives, density " + std::to_string(density) + ", λ " + lambda_text;
        bool expect_full = lambda.infinite || (active_edges > 0 && double(active_edges) >= 0.5 * double(g.edges()));
        ASSERT_EQ(plan.full_scan, expect_full) << context;
        if (plan.full_scan) {
          for (unsigned d = 0; d < drives; ++d) {
            ASSERT_EQ(plan.chunks[d].size(), g.pages_on_drive(d) ? 1u : 0u) << context;
            if (g.pages_on_drive(d)) {
              EXPECT_EQ(plan.chunks[d][0].pages, g.pages_on_drive(d)) << context;
            }
          }
          continue;
        }
        auto expected = brute_force_plan(g, active, lambda.bytes);
        for (unsigned d = 0; d < drives; ++d) {
          ASSERT_EQ(plan.chunks[d].size(), expected[d].size()) << context << " drive " << d;
          for (size_t c = 0; c < expected[d].size(); ++c) {
            EXPECT_EQ(plan.chunks[d][c].first_page, expected[d][c].first_page) << context;
            EXPECT_EQ(plan.chunks[d][c].pages, expected[d][c].pages) << context;
          }
        }
        if (std::string(lambda_text) == "0") {
          EXPECT_EQ(plan.read_pages, plan.active_pages) << context;
        }
        EXPECT_GE(plan.read_pages, plan.active_pages) << context;
      }
    }
  }
}

// A pull's reads queued while it plans (reads_while_planning.hpp): units
// finished out of order on several threads; every needed page is read
// once, no page that the whole plan would not read is, and the stream has
// nothing left over afterwards. discard() drops what a failed plan queued.
TEST(EngineThreads, ReadsWhilePlanningReadEveryNeededPageOnce) {
  TempDir dir;
  std::mt19937_64 random(5);
  for (unsigned drives : {1u, 3u}) {
    DiskGraph g(write_layout(dir, drives, false, 14));
    for (io::BackendKind backend : {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync}) {
      io::IoOptions io;
      io.backend = backend;
      PageStream stream(g, io, 2, true);
      ChunkPlanner& planner = stream.planner();
      // Every page the stream delivers, counted; false if it fails.
      auto delivered = [&] {
        std::vector<int> seen(g.pages(), 0);
        base::FirstError error;
        uint64_t busy = 0;
        while (stream.next(error, busy, [&](uint64_t page, const char*, PageCheck) { ++seen[page]; })) {
        }
        error.rethrow();
        return seen;
      };
      for (uint64_t unit : {512ull, 1000ull, 1ull << 20}) {
        for (double density : {0.0, 0.001, 0.05, 0.6}) {
          std::vector<uint64_t> active;
          std::vector<bool> is_active(g.vertices(), false);
          for (uint64_t v = 0; v < g.vertices(); ++v) {
            if (double(random() % 1000000) / 1e6 < density) {
              active.push_back(v);
              is_active[v] = true;
            }
          }
          for (const char* lambda_text : {"0", "8k", "64k"}) {
            const std::string context = std::to_string(drives) + " drives, " + io::backend_name(backend) + ", unit " +
                                        std::to_string(unit) + ", density " + std::to_string(density) + ", λ " + lambda_text;
            const SkipThreshold lambda = programs::parse_skip_threshold(lambda_text);
            planner.clear_marks();
            ReadsWhilePlanning reads(g, planner, stream, lambda, unit);
            std::vector<uint64_t> order(reads.units());
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), random);
            std::atomic<size_t> next{0};
            auto plan_units = [&] {
              for (size_t i; (i = next.fetch_add(1)) < order.size();) {
                const uint64_t u = order[i];
                for (uint64_t v = u * unit; v < std::min(g.vertices(), (u + 1) * unit); ++v) {
                  uint64_t first, last;
                  if (is_active[v] && g.page_range(v, first, last)) planner.mark(first, last);
                }
                reads.unit_done(u);
              }
            };
            {
              std::vector<std::jthread> threads;
              for (int t = 0; t < 3; ++t) threads.emplace_back(plan_units);
            }
            const ChunkPlan plan = reads.take();
            ASSERT_TRUE(plan.queued) << context;
            EXPECT_FALSE(plan.full_scan) << context;
            stream.start(plan);  // queues nothing more
            const std::vector<int> seen = delivered();

            const auto whole = brute_force_plan(g, active, lambda.bytes);
            uint64_t whole_pages = 0;
            for (auto& chunks : whole) {
              for (const Chunk& c : chunks) whole_pages += c.pages;
            }
            EXPECT_LE(plan.read_pages, whole_pages) << context;
            EXPECT_GE(plan.read_pages, plan.active_pages) << context;
            std::vector<bool> needed(g.pages(), false), in_whole(g.pages(), false);
            uint64_t needed_pages = 0;
            for (uint64_t v : active) {
              uint64_t first, last;
              if (!g.page_range(v, first, last)) continue;
              for (uint64_t p = first; p <= last; ++p) needed_pages += needed[p] ? 0 : 1, needed[p] = true;
            }
            EXPECT_EQ(plan.active_pages, needed_pages) << context;
            for (unsigned d = 0; d < drives; ++d) {
              for (const Chunk& c : whole[d]) {
                for (uint64_t k = 0; k < c.pages; ++k) in_whole[(c.first_page + k) * drives + d] = true;
              }
            }
            uint64_t read = 0;
            for (uint64_t p = 0; p < g.pages(); ++p) {
              ASSERT_LE(seen[p], 1) << context << ", page " << p;
              if (needed[p]) {
                ASSERT_EQ(seen[p], 1) << context << ", page " << p;
              }
              if (seen[p]) {
                ASSERT_TRUE(in_whole[p]) << context << ", page " << p;
              }
              read += uint64_t(seen[p]);
            }
            EXPECT_EQ(read, plan.read_pages) << context;
          }
        }
      }
      // A plan that failed after queueing its first segment: discard()
      // takes those reads, and the next plan's pages come alone.
      planner.clear_marks();
      {
        ReadsWhilePlanning reads(g, planner, stream, SkipThreshold::of(0), g.vertices() / 4 + 1);
        planner.mark(0, g.pages() - 1);
        reads.unit_done(0);
        ASSERT_GT(reads.units(), 1u);
      }
      stream.discard();
      ChunkPlan last;
      last.chunks.resize(drives);
      last.chunks[0].push_back({0, 1});
      last.read_pages = 1;
      stream.start(last);
      const std::vector<int> seen = delivered();
      EXPECT_EQ(std::accumulate(seen.begin(), seen.end(), 0), 1) << io::backend_name(backend);
      EXPECT_EQ(seen[0], 1) << io::backend_name(backend);
    }
  }
}

}  // namespace
}  // namespace sluice::test
