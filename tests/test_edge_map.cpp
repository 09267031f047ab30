// EDGEMAP and VERTEXMAP against a plain in-memory traversal: random
// frontiers of every density, bin counts from 1 to 4096, 1 to 4 threads,
// 1 to 4 drives, λ of 0, 64 KiB and infinity, both variants, push, pull
// and auto, and every IO backend; and what only pull does: early exit,
// skipping settled destinations, falling back to push without a
// transpose, the pull cache. (Whole algorithms on EDGEMAP: test_algorithms.cpp.)
#include <atomic>
#include <chrono>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <thread>

#include "base/interruption.hpp"
#include "engine/engine.hpp"
#include "formats/writers.hpp"
#include "io/device_profile.hpp"
#include "programs/option_values.hpp"
#include "tests/reference_algorithms.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

using namespace sluice::engine;

// Sums x[src] + w into every destination that passes cond (dst % 3 != 0).
struct NeighbourSum {
  const std::vector<uint64_t>& x;
  std::vector<uint64_t>& sum;
  bool cond(uint64_t dst) { return dst % 3 != 0; }
  bool scatter(uint64_t src, uint64_t, float w, uint64_t& out) {
    out = x[src] + uint64_t(w);
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& value) {
    sum[dst] += value;
    return true;
  }
  bool gather_atomic(uint64_t dst, const uint64_t& value) {
    std::atomic_ref<uint64_t>(sum[dst]).fetch_add(value, std::memory_order_relaxed);
    return true;
  }
};

// The same sums, gathered once per page piece (combine).
struct CombinedNeighbourSum : NeighbourSum {
  static uint64_t combine(uint64_t a, uint64_t b) { return a + b; }
};

// A frontier holding each vertex with probability `density`.
VertexSubset random_frontier(uint64_t n, double density, std::mt19937_64& random) {
  std::vector<uint64_t> ids;
  for (uint64_t v = 0; v < n; ++v) {
    if (double(random() % 1000) / 1000 < density) ids.push_back(v);
  }
  return VertexSubset::from_ids(n, ids);
}

struct Config {
  EdgeMapVariant variant;
  uint32_t bins;
  int threads;
  const char* lambda;
  io::BackendKind backend;
  Direction direction;
};

TEST(EdgeMap, MatchesAPlainTraversal) {
  TempDir dir;
  std::vector<RefGraph> shapes = graph_shapes(true);
  const uint32_t bin_counts[] = {1, 7, 1024, 4096};
  const int thread_counts[] = {1, 2, 4};
  const char* lambdas[] = {"0", "64k", "inf"};
  const io::BackendKind backends[] = {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync};
  std::mt19937_64 random(5);
  int round = 0;
  for (const RefGraph& g : shapes) {
    RefGraph csr = g.csr_order();
    for (unsigned drives : {1u, 2u, 3u, 4u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives, true));
      for (int k = 0; k < 3; ++k, ++round) {
        Config c{round % 2 ? EdgeMapVariant::atomic : EdgeMapVariant::binning, bin_counts[round % 4],
                 thread_counts[(round / 2) % 3], lambdas[(round / 3) % 3], backends[(round / 5) % 3],
                 Direction(k)};
        EngineOptions options;
        options.direction = c.direction;
        options.variant = c.variant;
        options.bins = c.bins;
        options.threads = c.threads;
        options.skip = programs::parse_skip_threshold(c.lambda);
        options.io.backend = c.backend;
        options.io.queue_depth = 8;
        Engine engine(graph, options);
        std::vector<uint64_t> x(g.n);
        for (auto& value : x) value = random() % 1000;
        for (double density : {0.0, 0.01, 0.2, 1.0}) {
          VertexSubset frontier = random_frontier(g.n, density, random);
          std::vector<uint64_t> sum(g.n, 0), expected(g.n, 0);
          std::vector<bool> reached(g.n, false);
          for (const Edge& e : csr.edges) {
            if (!frontier.contains(e.u) || e.v % 3 == 0) continue;
            expected[e.v] += x[e.u] + uint64_t(e.w);
            reached[e.v] = true;
          }
          NeighbourSum f{x, sum};
          CombinedNeighbourSum combined{{x, sum}};
          const bool combine = round % 3 == 0;
          VertexSubset next = combine ? engine.edge_map<uint64_t>(frontier, combined) : engine.edge_map<uint64_t>(frontier, f);
          std::string context = g.name + " drives " + std::to_string(drives) + " bins " + std::to_string(c.bins) +
                                " threads " + std::to_string(c.threads) + " λ " + c.lambda + " " +
                                io::backend_name(c.backend) + (c.variant == EdgeMapVariant::atomic ? " atomic " : " binning ") +
                                direction_name(c.direction) + (combine ? " combine" : "") + " density " + std::to_string(density);
          if (c.direction != Direction::automatic && !frontier.empty()) {
            EXPECT_EQ(engine.last_stats().direction, c.direction) << context;
          }
          ASSERT_EQ(sum, expected) << context;
          uint64_t count = 0;
          for (uint64_t v = 0; v < g.n; ++v) {
            ASSERT_EQ(next.contains(v), bool(reached[v])) << context << " vertex " << v;
            count += reached[v];
          }
          EXPECT_EQ(next.size(), count) << context;
          EXPECT_EQ(engine.last_stats().active_vertices, frontier.size());
          if (std::string(c.lambda) == "inf" && !frontier.empty()) {
            EXPECT_TRUE(engine.last_stats().full_scan);
            EXPECT_EQ(engine.last_stats().bytes_skipped, 0u);
          }
        }
      }
    }
  }
}

// edge_map_first (Afforest's sampling) over the first k edges of each
// list: served from the layout's sample file when it holds k targets a
// vertex (then no page is read, only the file), from the pages otherwise;
// the same sums either way, against a plain traversal of each list's first
// k edges in stored order (sorted, on compressed pages), binned and atomic.
TEST(EdgeMap, FirstEdgesFromTheSampleFileMatchThePages) {
  TempDir dir;
  std::mt19937_64 random(11);
  int round = 0;
  for (const RefGraph& g : graph_shapes(false)) {
    for (bool compress : {false, true}) {
      RefGraph stored = g.csr_order();
      if (compress) {
        std::stable_sort(stored.edges.begin(), stored.edges.end(), [](const Edge& a, const Edge& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; });
      }
      for (uint32_t sample : {0u, 2u}) {
        DiskGraph graph(layout_on_drives(dir, g, 1 + 2 * (round % 2), false, compress, sample));
        for (uint64_t k : {1u, 2u, 3u}) {
          ++round;
          EngineOptions options;
          options.variant = round % 2 ? EdgeMapVariant::atomic : EdgeMapVariant::binning;
          options.threads = 1 + round % 3;
          options.io.backend = round % 4 < 2 ? io::BackendKind::memory : io::BackendKind::automatic;
          options.hold_samples = round % 4 == 1;  // in memory: walked in place, loaded with the pages
          Engine engine(graph, options);
          const bool resident = options.hold_samples && sample > 0;
          if (resident) {
            EngineOptions without = options;
            without.hold_samples = false;
            EXPECT_EQ(engine.budget().io_buffers - MemoryBudget::of(graph, nullptr, without).io_buffers, g.n * sample * 4);
          }
          std::vector<uint64_t> x(g.n);
          for (auto& value : x) value = random() % 1000;
          for (double density : {0.3, 1.0}) {
            VertexSubset drawn = random_frontier(g.n, density, random);
            VertexSubset frontier = density == 1.0 ? VertexSubset::all(g.n) : std::move(drawn);
            std::vector<uint64_t> sum(g.n, 0), expected(g.n, 0), taken(g.n, 0);
            for (const Edge& e : stored.edges) {
              if (taken[e.u]++ >= k || !frontier.contains(e.u) || e.v % 3 == 0) continue;
              expected[e.v] += x[e.u] + 1;
            }
            NeighbourSum f{x, sum};
            engine.edge_map_first<uint64_t>(frontier, f, k, false);
            const std::string context = g.name + (compress ? " compressed" : "") + " sample " + std::to_string(sample) + " k " +
                                        std::to_string(k) + " density " + std::to_string(density);
            ASSERT_EQ(sum, expected) << context;
            if (frontier.empty()) continue;
            const bool served = k <= sample;
            // In memory the walk reads no header or table: the pieces it walked.
            const uint64_t sample_bytes = resident ? g.n * sample * 4 : sample_file_bytes(g.n, sample);
            EXPECT_EQ(engine.last_stats().active_pages == 0 && engine.last_stats().bytes_read == sample_bytes, served) << context;
            if (served) {
              EXPECT_EQ(engine.last_stats().requests == 0, resident) << context;
            }
          }
        }
      }
    }
  }
}

// Gap-coded pages (convert --compress): the same sums through every
// backend, direction and thread count, decoded by every compute thread.
TEST(EdgeMap, MatchesAPlainTraversalOnCompressedPages) {
  TempDir dir;
  const io::BackendKind backends[] = {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync, io::BackendKind::memory};
  std::mt19937_64 random(11);
  int round = 0;
  for (const RefGraph& g : graph_shapes(false)) {
    const RefGraph csr = g.csr_order();
    for (unsigned drives : {1u, 3u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives, true, true));
      for (int k = 0; k < 3; ++k, ++round) {
        EngineOptions options;
        options.direction = Direction(k);
        options.variant = round % 2 ? EdgeMapVariant::atomic : EdgeMapVariant::binning;
        options.threads = 1 + round % 3;
        options.skip = programs::parse_skip_threshold(round % 4 == 0 ? "inf" : "0");
        options.io.backend = backends[round % 4];
        options.io.queue_depth = 8;
        Engine engine(graph, options);
        std::vector<uint64_t> x(g.n);
        for (auto& value : x) value = random() % 1000;
        for (double density : {0.01, 0.3, 1.0}) {
          VertexSubset frontier = random_frontier(g.n, density, random);
          std::vector<uint64_t> sum(g.n, 0), expected(g.n, 0);
          for (const Edge& e : csr.edges) {
            if (frontier.contains(e.u) && e.v % 3 != 0) expected[e.v] += x[e.u] + 1;
          }
          NeighbourSum f{x, sum};
          engine.edge_map<uint64_t>(frontier, f);
          ASSERT_EQ(sum, expected) << g.name << " drives " << drives << " " << io::backend_name(options.io.backend) << " "
                                   << direction_name(options.direction) << " density " << density;
        }
      }
    }
  }
}

// vertex_seconds: the vertex work since the previous EDGEMAP, each piece
// once (vertex_map and parallel_sum run on parallel_for), none when
// nothing ran between two EDGEMAPs.
TEST(EdgeMap, StatsCountTheVertexWorkBetweenEdgeMaps) {
  TempDir dir;
  const RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 1));
  EngineOptions options;
  options.threads = 2;
  Engine engine(graph, options);
  std::vector<uint64_t> x(g.n, 1), sum(g.n, 0);
  NeighbourSum f{x, sum};
  const VertexSubset all = VertexSubset::all(g.n);
  const auto start = std::chrono::steady_clock::now();
  engine.vertex_map(all, [](uint64_t v) {
    if (v == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return true;
  });
  engine.parallel_sum<uint64_t>(g.n, [](uint64_t v) {
    if (v == 1) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return v;
  });
  const double between = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  engine.edge_map<uint64_t>(all, f);
  EXPECT_GE(engine.last_stats().vertex_seconds, 0.03);
  EXPECT_LE(engine.last_stats().vertex_seconds, between);
  engine.edge_map<uint64_t>(all, f);
  EXPECT_EQ(engine.last_stats().vertex_seconds, 0.0);
}

TEST(VertexMap, KeepsWhatTheFunctionAccepts) {
  TempDir dir;
  RefGraph g = graph_shapes(false)[6];  // star
  DiskGraph graph(layout_on_drives(dir, g, 1));
  Engine engine(graph, EngineOptions{});
  VertexSubset all = VertexSubset::all(g.n);
  VertexSubset even = engine.vertex_map(all, [](uint64_t v) { return v % 2 == 0; });
  EXPECT_EQ(even.size(), (g.n + 1) / 2);
  EXPECT_TRUE(even.contains(0));
  EXPECT_FALSE(even.contains(1));
}

// On dense and sparse frontiers, with 1 and 3 threads (pieces that do not
// start on an index word), the members kept are exactly those accepted,
// dense or sparse as their count calls for.
TEST(VertexMap, KeepsExactlyTheAcceptedMembersOfAnyFrontier) {
  TempDir dir;
  RefGraph g;
  g.name = "wide";
  g.n = 100003;  // not a multiple of a word
  for (uint64_t v = 0; v + 1 < g.n; v += 7) g.edges.push_back({v, v + 1, 1.0f});
  DiskGraph graph(layout_on_drives(dir, g, 1));
  std::mt19937_64 random(7);
  std::vector<uint64_t> members;
  for (uint64_t v = 0; v < g.n; ++v) {
    if (random() % 3) members.push_back(v);
  }
  for (int threads : {1, 3}) {
    EngineOptions options;
    options.threads = threads;
    Engine engine(graph, options);
    for (const VertexSubset& frontier : {VertexSubset::from_sorted_ids(g.n, members), VertexSubset::all(g.n),
                                         VertexSubset::from_sorted_ids(g.n, {0, 63, 64, 511, 512, 32767, 32768, g.n - 1})}) {
      for (uint64_t keep_one_in : {1, 2, 40, 1000000}) {
        std::vector<uint64_t> expected;
        frontier.for_each([&](uint64_t v) {
          if ((v * 2654435761u) % keep_one_in == 0) expected.push_back(v);
        });
        const VertexSubset kept = engine.vertex_map(frontier, [&](uint64_t v) { return (v * 2654435761u) % keep_one_in == 0; });
        const std::string context = std::to_string(threads) + " threads, " + std::to_string(frontier.size()) + " members, one in " +
                                    std::to_string(keep_one_in);
        ASSERT_EQ(kept.size(), expected.size()) << context;
        EXPECT_EQ(kept.is_dense(), expected.size() * VertexSubset::dense_divisor > g.n) << context;
        std::vector<uint64_t> got;
        kept.for_each([&](uint64_t v) { got.push_back(v); });
        EXPECT_EQ(got, expected) << context;
      }
    }
  }
}


TEST(EdgeMap, StatisticsAndTheSkipThresholdSources) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 2));
  EngineOptions options;
  options.skip = programs::parse_skip_threshold("0");
  Engine engine(graph, options);
  std::vector<uint64_t> x(g.n, 1), sum(g.n, 0);
  NeighbourSum f{x, sum};
  engine.edge_map<uint64_t>(VertexSubset::single(g.n, 5), f);
  const EdgeMapStats& s = engine.last_stats();
  EXPECT_EQ(s.active_vertices, 1u);
  EXPECT_FALSE(s.full_scan);
  EXPECT_EQ(s.bytes_read + s.bytes_skipped, graph.pages() * graph.page_bytes());
  nlohmann::ordered_json line;
  algorithms::add_stats(line, s);
  const std::string json = line.dump();
  for (const char* key : {"\"active_vertices\":1", "\"bytes_read\":", "\"plan_seconds\":", "\"io_seconds\":", "\"bandwidth_mb_s\":"}) {
    EXPECT_NE(json.find(key), std::string::npos) << json;
  }

  ::setenv("SLUICE_PROFILE_DIR", dir.path().c_str(), 1);
  EXPECT_FALSE(calibration_of(graph));
  EXPECT_EQ(default_skip_threshold(graph).threshold.bytes, 65536u);
  EXPECT_EQ(default_skip_threshold(graph).source, "default");
  EXPECT_EQ(Engine(graph, EngineOptions{}).options().skip->bytes, 65536u);  // the programs' default, unset
  io::DeviceProfile profile;
  profile.skip_threshold = 12288;
  profile.save(io::default_profile_path(io::DriveFile(graph.drive_paths()[0], false).device()));
  EXPECT_EQ(default_skip_threshold(graph).threshold.bytes, 12288u);
  EXPECT_EQ(Engine(graph, EngineOptions{}).options().skip->bytes, 12288u);
  EXPECT_NE(default_skip_threshold(graph).source.find(dir.path()), std::string::npos);
  EXPECT_EQ(calibration_of(graph)->profile.skip_threshold, 12288u);
  ::unsetenv("SLUICE_PROFILE_DIR");
}


TEST(Engine, RefusesWhenTheBudgetExceedsTheMemoryLimit) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 1));
  EngineOptions options;
  options.algorithm_bytes = 100 << 20;
  options.memory_limit = 64 << 20;
  try {
    Engine engine(graph, options);
    FAIL() << "no refusal";
  } catch (const std::runtime_error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("does not fit in memory"), std::string::npos) << message;
    EXPECT_NE(message.find("algorithm 100.0 MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("the limit is 64.0 MiB (the memory limit asked for)"), std::string::npos) << message;
  }
  options.memory_limit = 1ull << 40;
  Engine engine(graph, options);
  const MemoryBudget& b = engine.budget();
  EXPECT_GT(b.index, 0u);
  EXPECT_GT(b.bins, 0u);
  EXPECT_GT(b.io_buffers, 0u);
  EXPECT_EQ(b.algorithm, 100u << 20);
}

TEST(Engine, FitsTheUnsetPartsToTheMemoryLimit) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 2, true));
  const std::unique_ptr<DiskGraph> reversed = graph.reversed();
  ASSERT_TRUE(reversed);  // a pull side: a pull cache to fit
  EngineOptions options;
  options.io.max_request_bytes = 4096;  // a buffer a page: room to cut on a small graph
  options.io.queue_depth = 8;
  options.bin_space = 0;
  const FittedOptions unlimited = fit_to_memory(graph, reversed.get(), options);
  ASSERT_FALSE(unlimited.cut());
  // The floor, from a refusal below it, and a limit halfway up.
  options.memory_limit = 1;
  EXPECT_THROW(fit_to_memory(graph, reversed.get(), options), std::runtime_error);
  options.memory_limit = 1ull << 40;
  EngineOptions least = options;
  least.io.buffers = memory_floor_buffers_per_drive * graph.drives();
  least.bin_space = 1;
  least.pull_cache = 0;
  const uint64_t floor = MemoryBudget::of(graph, reversed.get(), least).total();
  const uint64_t wanted = unlimited.wanted.total();
  ASSERT_LT(floor, wanted);
  options.memory_limit = (floor + wanted) / 2;
  const FittedOptions fitted = fit_to_memory(graph, reversed.get(), options);
  EXPECT_TRUE(fitted.cut());
  EXPECT_LE(fitted.budget.total(), options.memory_limit);
  EXPECT_EQ(fitted.floor.total(), floor);
  EXPECT_LT(fitted.budget.io_buffers, fitted.wanted.io_buffers);
  // The room above the floors goes in steps, each whole before the next:
  // IO buffers to the queue depth a drive, the pull cache, then the
  // consumers' IO buffers and the bins by the same share.
  const unsigned floor_buffers = least.io.buffers, depth_buffers = options.io.queue_depth * graph.drives();
  const unsigned wanted_buffers = unsigned(io_buffers_for(graph, options.io));
  ASSERT_LT(floor_buffers, depth_buffers);
  ASSERT_LT(depth_buffers, wanted_buffers);
  EngineOptions deep = least;
  deep.io.buffers = depth_buffers;
  const uint64_t depth_step = MemoryBudget::of(graph, reversed.get(), deep).total() - floor;
  const uint64_t cache_step = unlimited.wanted.pull_cache - fitted.floor.pull_cache;
  auto fit = [&](uint64_t limit) {
    options.memory_limit = limit;
    const FittedOptions f = fit_to_memory(graph, reversed.get(), options);
    EXPECT_LE(f.budget.total(), limit);
    return f;
  };
  // Within step 1: only buffers, between the floor and the depth.
  const FittedOptions first = fit(floor + depth_step / 2);
  EXPECT_GT(first.options.io.buffers, floor_buffers);
  EXPECT_LT(first.options.io.buffers, depth_buffers);
  EXPECT_EQ(first.budget.pull_cache, first.floor.pull_cache);
  EXPECT_EQ(first.budget.bins, first.floor.bins);
  // Within step 2: the depth's buffers, part of the cache, the least bins.
  const FittedOptions second = fit(floor + depth_step + cache_step / 2);
  EXPECT_EQ(second.options.io.buffers, depth_buffers);
  EXPECT_GT(second.budget.pull_cache, second.floor.pull_cache);
  EXPECT_LT(second.budget.pull_cache, second.wanted.pull_cache);
  EXPECT_EQ(second.budget.bins, second.floor.bins);
  // Within step 3: the whole cache, and more buffers and bins.
  const FittedOptions third = fit(floor + depth_step + cache_step + (wanted - floor - depth_step - cache_step) / 2);
  EXPECT_EQ(third.budget.pull_cache, third.wanted.pull_cache);
  EXPECT_GT(third.options.io.buffers, depth_buffers);
  EXPECT_LT(third.options.io.buffers, wanted_buffers);
  EXPECT_GT(third.budget.bins, third.floor.bins);
  EXPECT_LT(third.budget.bins, third.wanted.bins);
  options.memory_limit = (floor + wanted) / 2;
  // What the caller set is never cut; the rest makes room for it.
  options.io.buffers = unsigned(io_buffers_for(graph, options.io));
  const FittedOptions kept = fit_to_memory(graph, reversed.get(), options);
  EXPECT_EQ(kept.options.io.buffers, options.io.buffers);
  EXPECT_EQ(kept.budget.io_buffers, kept.wanted.io_buffers);
  // And an engine runs with what was fitted.
  options.io.buffers = 0;
  Engine engine(graph, options);
  EXPECT_EQ(engine.budget().total(), fitted.budget.total());
  EXPECT_EQ(engine.options().io.buffers, fitted.options.io.buffers);
}

// An algorithm with a smaller way to run (PageRank's automatic method)
// gets its larger arrays where their floor fits, its smaller ones where
// only theirs does, and a refusal below both.
TEST(Engine, FitsTheSmallerArraysWhereTheLargerDoNot) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 1, true));
  const std::unique_ptr<DiskGraph> reversed = graph.reversed();
  const uint64_t larger = 24 * graph.vertices(), smaller = 16 * graph.vertices();
  EngineOptions options;
  options.io.max_request_bytes = 4096;
  options.algorithm_bytes = larger;
  options.algorithm_bytes_least = smaller;
  EngineOptions least = options;
  least.io.buffers = std::min(unsigned(io_buffers_for(graph, options.io)), memory_floor_buffers_per_drive * graph.drives());
  least.bin_space = 1;
  least.pull_cache = 0;
  const uint64_t larger_floor = MemoryBudget::of(graph, reversed.get(), least).total();
  least.algorithm_bytes = smaller;
  const uint64_t smaller_floor = MemoryBudget::of(graph, reversed.get(), least).total();
  ASSERT_EQ(larger_floor - smaller_floor, larger - smaller);
  auto fit = [&](uint64_t limit) {
    options.memory_limit = limit;
    return fit_to_memory(graph, reversed.get(), options);
  };
  const FittedOptions roomy = fit(larger_floor);
  EXPECT_FALSE(roomy.least_arrays);
  EXPECT_EQ(roomy.budget.algorithm, larger);
  const FittedOptions tight = fit(larger_floor - 1);
  EXPECT_TRUE(tight.least_arrays);
  EXPECT_EQ(tight.options.algorithm_bytes, smaller);
  EXPECT_EQ(tight.budget.algorithm, smaller);
  EXPECT_LE(tight.budget.total(), larger_floor - 1);
  EXPECT_EQ(fit(smaller_floor).floor.total(), smaller_floor);
  EXPECT_THROW(fit(smaller_floor - 1), MemoryRefused);
  // Without a smaller way, the larger floor is the least.
  options.algorithm_bytes_least = 0;
  EXPECT_THROW(fit(larger_floor - 1), MemoryRefused);
  // An engine runs with what was fitted.
  options.algorithm_bytes_least = smaller;
  options.memory_limit = larger_floor - 1;
  Engine engine(graph, options);
  EXPECT_TRUE(engine.fitted().least_arrays);
  EXPECT_EQ(engine.budget().algorithm, smaller);
}


// NeighbourSum that asks the run to stop at the first call of `cond`
// (pull plans by calling it), of `scatter` (pages stream in), or never.
struct StoppingSum : NeighbourSum {
  enum Stage { never, planning, streaming } stage;
  std::atomic<uint64_t>& scattered;
  bool cond(uint64_t dst) {
    if (stage == planning) request_interruption();
    return NeighbourSum::cond(dst);
  }
  bool scatter(uint64_t src, uint64_t dst, float w, uint64_t& out) {
    if (stage == streaming) request_interruption();
    scattered.fetch_add(1, std::memory_order_relaxed);
    return NeighbourSum::scatter(src, dst, w, out);
  }
};

// A stop requested (Ctrl-C in Python, or by a caller) ends an EDGEMAP at
// every stage of its life: asked before it starts, it reads nothing; while
// it plans, it reads nothing; while pages stream in, the buffers still to
// come are released unread; a VERTEXMAP stops at its end. Each throws
// Interrupted, and the engine then runs as if nothing had happened.
TEST(EdgeMap, InterruptionStopsAnEdgeMapAtEveryStage) {
  TempDir dir;
  RefGraph g;  // 300,000 edges: 293 pages, one per IO buffer below
  g.name = "uniform_300k";
  g.n = 20000;
  std::mt19937_64 random(7);
  for (int i = 0; i < 300000; ++i) g.edges.push_back({random() % g.n, random() % g.n, 1});
  const RefGraph csr = g.csr_order();
  DiskGraph graph(layout_on_drives(dir, g, 2, /*transpose=*/true));
  std::vector<uint64_t> x(g.n), expected(g.n, 0);
  for (uint64_t v = 0; v < g.n; ++v) x[v] = v % 7 + 1;
  for (const Edge& e : csr.edges) {
    if (e.v % 3 != 0) expected[e.v] += x[e.u] + 1;
  }
  std::vector<uint64_t> all(g.n);
  for (uint64_t v = 0; v < g.n; ++v) all[v] = v;
  const VertexSubset everyone = VertexSubset::from_ids(g.n, all);
  for (int threads : {1, 3}) {
    for (Direction direction : {Direction::push, Direction::pull}) {
      EngineOptions options;
      options.threads = threads;
      options.direction = direction;
      options.io.max_request_bytes = 4096;
      Engine engine(graph, options);
      std::vector<uint64_t> sum(g.n, 0);
      std::atomic<uint64_t> scattered{0};
      const std::string context = std::to_string(threads) + " threads, " + direction_name(direction);
      auto stops = [&](StoppingSum::Stage stage) {
        std::fill(sum.begin(), sum.end(), 0);
        scattered = 0;
        StoppingSum f{{x, sum}, stage, scattered};
        EXPECT_THROW(engine.edge_map<uint64_t>(everyone, f), Interrupted) << context;
        clear_interruption();
      };
      request_interruption();  // before the call
      stops(StoppingSum::never);
      EXPECT_EQ(scattered.load(), 0u) << context;
      if (direction == Direction::pull) {
        stops(StoppingSum::planning);
        EXPECT_EQ(scattered.load(), 0u) << context;
      }
      stops(StoppingSum::streaming);
      EXPECT_GT(scattered.load(), 0u) << context;
      EXPECT_LT(scattered.load(), csr.edges.size() / 2) << context << ": the buffers after the stop were walked";
      // VERTEXMAP: every member visited, then the stop.
      std::atomic<uint64_t> visited{0};
      EXPECT_THROW(engine.vertex_map(everyone, [&](uint64_t) {
        request_interruption();
        visited++;
        return true;
      }), Interrupted) << context;
      EXPECT_EQ(visited.load(), g.n);
      clear_interruption();
      // And all is as before.
      std::fill(sum.begin(), sum.end(), 0);
      scattered = 0;
      StoppingSum f{{x, sum}, StoppingSum::never, scattered};
      engine.edge_map<uint64_t>(everyone, f);
      EXPECT_EQ(sum, expected) << context;
      EXPECT_EQ(engine.vertex_map(everyone, [](uint64_t v) { return v % 2 == 0; }).size(), g.n / 2) << context;
    }
  }
}

// Tiny bins hand over thousands of buffers per EDGEMAP; none may be lost
// (a stop token must never overtake a full bin in the queue).
TEST(EdgeMap, BinsLoseNothingUnderPressure) {
  TempDir dir;
  RefGraph g = graph_shapes(true).back();
  RefGraph csr = g.csr_order();
  DiskGraph graph(layout_on_drives(dir, g, 2));
  EngineOptions options;
  options.threads = 4;
  options.bins = 7;
  options.bin_space = 1;  // the minimum: 64 records a buffer
  options.skip = programs::parse_skip_threshold("inf");
  Engine engine(graph, options);
  std::vector<uint64_t> x(g.n), expected(g.n, 0);
  for (uint64_t v = 0; v < g.n; ++v) x[v] = v + 1;
  for (const Edge& e : csr.edges) {
    if (e.v % 3 != 0) expected[e.v] += x[e.u] + uint64_t(e.w);
  }
  for (int round = 0; round < 25; ++round) {
    std::vector<uint64_t> sum(g.n, 0);
    NeighbourSum f{x, sum};
    engine.edge_map<uint64_t>(VertexSubset::all(g.n), f, false);
    ASSERT_EQ(sum, expected) << "round " << round;
  }
}

// The first sender wins and settles the destination (BFS's shape); counts
// the scatter calls.
struct FirstSender {
  std::vector<int64_t>& from;
  std::atomic<uint64_t>& scatters;
  bool cond(uint64_t dst) { return std::atomic_ref<int64_t>(from[dst]).load(std::memory_order_relaxed) < 0; }
  bool scatter(uint64_t src, uint64_t, float, uint64_t& out) {
    scatters.fetch_add(1, std::memory_order_relaxed);
    out = src;
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& src) {
    std::atomic_ref<int64_t>(from[dst]).store(int64_t(src), std::memory_order_relaxed);
    return true;
  }
};

// Every vertex points at vertex 0 (an in-list of 5 pages) and at one of
// seven others: pull settles each destination at its first in-edge, push
// scatters every edge.
TEST(EdgeMap, PullStopsAtTheFirstGatherThatSettles) {
  TempDir dir;
  RefGraph g;
  g.name = "fan_in";
  g.n = 5000;
  for (uint64_t v = 1; v < g.n; ++v) {
    g.edges.push_back({v, 0, 1.0f});
    g.edges.push_back({v, 1 + v % 7, 1.0f});
  }
  std::set<std::pair<uint64_t, uint64_t>> edges;
  for (const Edge& e : g.edges) edges.insert({e.u, e.v});
  DiskGraph graph(layout_on_drives(dir, g, 3, true));
  for (Direction direction : {Direction::pull, Direction::push}) {
    for (int threads : {1, 4}) {
      EngineOptions options;
      options.direction = direction;
      options.threads = threads;
      Engine engine(graph, options);
      std::vector<int64_t> from(g.n, -1);
      std::atomic<uint64_t> scatters{0};
      FirstSender f{from, scatters};
      VertexSubset next = engine.edge_map<uint64_t>(VertexSubset::all(g.n), f);
      ASSERT_EQ(engine.last_stats().direction, direction);
      EXPECT_EQ(next.size(), 8u);  // vertices 0 to 7 have in-edges
      for (uint64_t v = 0; v < 8; ++v) {
        ASSERT_GE(from[v], 0) << v;
        EXPECT_TRUE(edges.count({uint64_t(from[v]), v})) << from[v] << " -> " << v;
      }
      EXPECT_EQ(scatters.load(), direction == Direction::pull ? 8u : g.edges.size()) << direction_name(direction);
    }
  }
}

// Only the destinations whose cond holds have their in-edge pages read.
TEST(EdgeMap, PullReadsOnlyTheInPagesOfUnsettledDestinations) {
  TempDir dir;
  RefGraph g;
  g.name = "uniform_pull";
  g.n = 20000;
  std::mt19937_64 random(7);
  for (int i = 0; i < 160000; ++i) g.edges.push_back({random() % g.n, random() % g.n, 1.0f});
  const std::string layout = layout_on_drives(dir, g, 2, true);
  DiskGraph graph(layout), transpose(layout, true);
  EngineOptions options;
  options.direction = Direction::pull;
  options.skip = programs::parse_skip_threshold("0");
  Engine engine(graph, options);
  std::vector<int64_t> from(g.n, 0);
  std::set<uint64_t> pages;
  uint64_t open = 0;
  for (uint64_t v = 0; v < g.n; v += 1999) {
    from[v] = -1;
    uint64_t first, last;
    if (!transpose.page_range(v, first, last)) continue;
    ++open;
    for (uint64_t p = first; p <= last; ++p) pages.insert(p);
  }
  std::atomic<uint64_t> scatters{0};
  FirstSender f{from, scatters};
  engine.edge_map<uint64_t>(VertexSubset::all(g.n), f);
  const EdgeMapStats& s = engine.last_stats();
  EXPECT_EQ(s.destinations, open);
  EXPECT_EQ(s.active_pages, pages.size());
  EXPECT_EQ(s.bytes_read, pages.size() * transpose.page_bytes());
  EXPECT_LT(s.bytes_read, transpose.pages() * transpose.page_bytes() / 4);
  EXPECT_EQ(scatters.load(), open);
}

// The least offer a destination gets (SSSP's shape): any destination may
// still improve, so cond always holds.
struct LeastOffer {
  const std::vector<float>& distance;
  std::vector<float>& least;
  static constexpr bool cond_always_true = true;
  bool cond(uint64_t) const { return true; }
  bool scatter(uint64_t src, uint64_t, float w, float& out) const {
    out = distance[src] + w;
    return true;
  }
  bool gather(uint64_t dst, const float& offer) {
    if (!(offer < least[dst])) return false;
    least[dst] = offer;
    return true;
  }
  float combine(const float& a, const float& b) const { return std::min(a, b); }
};

// A pull whose cond always holds walks every in-edge: until automatic
// EDGEMAP has timed both directions it takes it only for a frontier with
// at least 3/4 of the out-edges (or every vertex), where Ligra's rule
// would take it from 1/20.
TEST(EdgeMap, AutomaticPullsAnAlwaysOpenDestinationOnlyForMostEdges) {
  TempDir dir;
  RefGraph g;
  g.name = "half_hub";
  g.n = 4000;
  g.weighted = true;
  // Vertex 0 holds 70% of the out-edges, vertex 1 another 10%.
  for (uint64_t v = 0; v < 2800; ++v) g.edges.push_back({0, v, 1.0f});
  for (uint64_t v = 0; v < 400; ++v) g.edges.push_back({1, v + 1000, 2.0f});
  for (uint64_t v = 2; v < 802; ++v) g.edges.push_back({v, (v * 7) % g.n, 3.0f});
  DiskGraph graph(layout_on_drives(dir, g, 1, true, true));
  EngineOptions options;
  options.direction = Direction::automatic;
  Engine engine(graph, options);
  auto run = [&](VertexSubset frontier) {
    std::vector<float> distance(g.n);
    for (uint64_t v = 0; v < g.n; ++v) distance[v] = float(v % 5);
    std::vector<float> least = distance, expected = distance;
    for (const Edge& e : g.edges) {
      if (frontier.contains(e.u)) expected[e.v] = std::min(expected[e.v], distance[e.u] + e.w);
    }
    LeastOffer f{distance, least};
    engine.edge_map<float>(frontier, f, false);
    EXPECT_EQ(least, expected);
    return engine.last_stats().direction;
  };
  EXPECT_EQ(run(VertexSubset::single(g.n, 0)), Direction::push);  // 70%: Ligra's rule would pull
  EXPECT_EQ(run(VertexSubset::from_ids(g.n, {0, 1})), Direction::pull);  // 80%
  EXPECT_EQ(run(VertexSubset::all(g.n)), Direction::pull);
}

// One BFS level as pull sees it: the first frontier source is the parent.
struct Level {
  std::vector<int64_t>& depth;
  int64_t next;
  bool cond(uint64_t dst) { return std::atomic_ref<int64_t>(depth[dst]).load(std::memory_order_relaxed) < 0; }
  bool scatter(uint64_t, uint64_t, float, uint32_t& out) {
    out = 1;
    return true;
  }
  bool gather(uint64_t dst, const uint32_t&) {
    std::atomic_ref<int64_t>(depth[dst]).store(next, std::memory_order_relaxed);
    return true;
  }
};

// A pull keeps the in-lists it leaves open, and the next pull walks them
// from DRAM: the same depths as a plain BFS with the cache, without it and
// with a budget too small for all of them; fewer bytes read with it.
TEST(EdgeMap, PullCacheWalksTheListsALevelLeftOpen) {
  TempDir dir;
  std::mt19937_64 random(11);
  std::vector<RefGraph> graphs(2);
  graphs[0].name = "rmat";
  graphs[0].n = 1 << 14;
  for (int i = 0; i < 16 << 14; ++i) {  // a = .57, b = c = .19, unscrambled
    uint64_t u = 0, v = 0;
    for (int level = 0; level < 14; ++level) {
      const double r = double(random() % 1000000) / 1e6;
      u = u * 2 + (r >= 0.76);
      v = v * 2 + ((r >= 0.57 && r < 0.76) || r >= 0.95);
    }
    graphs[0].edges.push_back({u, v, 1.0f});
  }
  graphs[1].name = "uniform";
  graphs[1].n = 20000;
  for (int i = 0; i < 60000; ++i) graphs[1].edges.push_back({random() % 20000, random() % 20000, 1.0f});
  const io::BackendKind backends[] = {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync};
  int round = 0;
  for (const RefGraph& g : graphs) {
    const std::vector<int64_t> expected = reference_bfs(g, 0);
    for (unsigned drives : {1u, 3u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives, true));
      uint64_t bytes_without = 0;
      for (std::optional<uint64_t> budget : {std::optional<uint64_t>(0), std::optional<uint64_t>(16 << 10), std::optional<uint64_t>()}) {
        EngineOptions options;
        options.direction = Direction::pull;
        options.pull_cache = budget;
        options.skip = programs::parse_skip_threshold("0");
        options.threads = 1 + round % 4;
        options.io.backend = backends[round % 3];
        ++round;
        Engine engine(graph, options);
        std::vector<int64_t> depth(g.n, -1);
        depth[0] = 0;
        VertexSubset frontier = VertexSubset::single(g.n, 0);
        uint64_t bytes = 0, cached = 0;
        for (int64_t d = 1; !frontier.empty(); ++d) {
          Level level{depth, d};
          frontier = engine.edge_map<uint32_t>(frontier, level);
          bytes += engine.last_stats().bytes_read;
          cached += engine.last_stats().cached;
          EXPECT_LE(engine.last_stats().cached, engine.last_stats().destinations);
        }
        const std::string context = g.name + " drives " + std::to_string(drives) + " budget " +
                                    (budget ? std::to_string(*budget) : "default") + " threads " +
                                    std::to_string(options.threads) + " " + io::backend_name(options.io.backend);
        ASSERT_EQ(depth, expected) << context;
        if (budget == 0) {
          EXPECT_EQ(cached, 0u) << context;
          bytes_without = bytes;
        } else {
          EXPECT_GT(cached, 0u) << context;
          EXPECT_LE(bytes, bytes_without) << context;
          if (!budget) {
            EXPECT_LT(bytes, bytes_without) << context;
          }
        }
      }
    }
  }
}

// The page cache: the same EDGEMAPs twice over (random frontiers of every
// density, push and pull, λ of 0, 64 KiB and infinity, plain and
// compressed pages, 1 and 3 drives, every backend) give a plain
// traversal's sums with no cache, one that fills after a few pages, one
// that holds every page as read and decodes some, and one that holds
// every page (decoded); a page the cache holds is never walked twice
// when a read brings it again in a merged gap. The second time round, the
// whole cache reads nothing and takes every active page from DRAM, and
// the small one reads less than no cache.
TEST(EdgeMap, PageCacheServesThePagesItHolds) {
  TempDir dir;
  std::mt19937_64 random(17);
  RefGraph g;
  g.name = "uniform";
  g.n = 20000;
  g.weighted = true;
  for (int i = 0; i < 60000; ++i) g.edges.push_back({random() % g.n, random() % g.n, float(1 + random() % 200)});
  const RefGraph csr = g.csr_order();
  const io::BackendKind backends[] = {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync};
  const char* lambdas[] = {"0", "64k", "inf"};
  std::vector<uint64_t> x(g.n);
  for (auto& value : x) value = random() % 1000;
  std::vector<VertexSubset> frontiers;
  for (double density : {0.002, 0.01, 0.2, 1.0, 0.01}) frontiers.push_back(random_frontier(g.n, density, random));
  int round = 0;
  for (bool compressed : {false, true}) {
    for (unsigned drives : {1u, 3u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives, true, compressed));
      ASSERT_EQ(graph.compressed(), compressed);
      uint64_t bytes_without[2] = {};  // push, pull
      // Both sets as read, and half of what decoding them all would add.
      const uint64_t as_read = 2 * (graph.pages() * graph.page_bytes() + graph.pages() * 24);
      const uint64_t mixed = as_read + (2 * whole_page_cache_bytes(graph) - std::min(as_read, 2 * whole_page_cache_bytes(graph))) / 2;
      for (uint64_t budget : {uint64_t(0), uint64_t(64) << 10, mixed, uint64_t(64) << 20}) {
        for (Direction direction : {Direction::push, Direction::pull}) {
          EngineOptions options;
          options.direction = direction;
          options.page_cache = budget;
          options.skip = programs::parse_skip_threshold(lambdas[round % 3]);
          options.threads = 1 + round % 3;
          options.io.backend = backends[round % 3];
          options.io.queue_depth = 8;
          ++round;
          const std::string context = std::string(compressed ? "compressed" : "plain") + " drives " + std::to_string(drives) +
                                      " budget " + std::to_string(budget) + " " + direction_name(direction) + " λ " +
                                      options.skip->text() + " " + io::backend_name(options.io.backend);
          Engine engine(graph, options);
          EXPECT_LE(engine.budget().page_cache, budget) << context;
          EXPECT_EQ(engine.budget().page_cache > 0, budget > 0) << context;
          uint64_t second_bytes = 0, second_cached = 0, second_active = 0;
          for (int pass = 0; pass < 2; ++pass) {
            for (const VertexSubset& frontier : frontiers) {
              std::vector<uint64_t> sum(g.n, 0), expected(g.n, 0);
              for (const Edge& e : csr.edges) {
                if (frontier.contains(e.u) && e.v % 3 != 0) expected[e.v] += x[e.u] + uint64_t(e.w);
              }
              NeighbourSum f{x, sum};
              engine.edge_map<uint64_t>(frontier, f, false);
              ASSERT_EQ(sum, expected) << context << " pass " << pass << " frontier of " << frontier.size();
              const EdgeMapStats& s = engine.last_stats();
              EXPECT_LE(s.cached_pages, s.active_pages) << context;
              if (budget == 0) {
                EXPECT_EQ(s.cached_pages, 0u) << context;
              }
              if (pass == 1) second_bytes += s.bytes_read, second_cached += s.cached_pages, second_active += s.active_pages;
            }
          }
          const int side = direction == Direction::pull;
          if (budget == 0) {
            bytes_without[side] = second_bytes;
          } else if (budget == (uint64_t(64) << 20)) {
            EXPECT_EQ(second_bytes, 0u) << context;
            EXPECT_EQ(second_cached, second_active) << context;
          } else {
            EXPECT_GT(second_cached, 0u) << context;
            // λ = inf reads every page whole, cached or not.
            if (!options.skip->infinite) {
              EXPECT_LT(second_bytes, bytes_without[side]) << context;
            }
          }
        }
      }
    }
  }
}

// BFS levels sharing an OpenDestinations: each pull after the first looks
// only at the destinations the previous one found open, and finds what a
// pull over every vertex finds (the same destinations, cached lists, bytes
// and depths), pushes in between or not; the set shrinks to what each pull
// found. A fresh object for a second source starts over.
TEST(EdgeMap, PullsSharingOpenDestinationsFindWhatAFullPassFinds) {
  TempDir dir;
  std::mt19937_64 random(5);
  RefGraph g;
  g.name = "rmat_open";
  g.n = 1 << 13;
  for (int i = 0; i < 8 << 13; ++i) {
    uint64_t u = 0, v = 0;
    for (int level = 0; level < 13; ++level) {
      const double r = double(random() % 1000000) / 1e6;
      u = u * 2 + (r >= 0.76);
      v = v * 2 + ((r >= 0.57 && r < 0.76) || r >= 0.95);
    }
    g.edges.push_back({u, v, 1.0f});
  }
  for (uint64_t v = 1; v < 300; ++v) g.edges.push_back({v * 17 % g.n, (v * 17 + 1) % g.n, 1.0f});  // a long tail of levels
  int round = 0;
  for (unsigned drives : {1u, 2u}) {
    DiskGraph graph(layout_on_drives(dir, g, drives, true));
    for (Direction direction : {Direction::pull, Direction::automatic}) {
      for (uint64_t source : {uint64_t(0), uint64_t(17)}) {
        const std::vector<int64_t> expected = reference_bfs(g, source);
        EngineOptions options;
        options.direction = direction;
        options.skip = programs::parse_skip_threshold("0");
        options.threads = 1 + round++ % 3;
        Engine full_engine(graph, options), open_engine(graph, options);
        std::vector<int64_t> full_depth(g.n, -1), open_depth(g.n, -1);
        full_depth[source] = open_depth[source] = 0;
        VertexSubset full_frontier = VertexSubset::single(g.n, source), open_frontier = full_frontier;
        OpenDestinations open;
        uint64_t pulls = 0;
        bool same_path = true;  // both engines took the same directions so far
        const std::string context = "drives " + std::to_string(drives) + " " + direction_name(direction) + " source " +
                                    std::to_string(source) + " threads " + std::to_string(options.threads);
        for (int64_t d = 1; !full_frontier.empty(); ++d) {
          Level full_level{full_depth, d}, open_level{open_depth, d};
          full_frontier = full_engine.edge_map<uint32_t>(full_frontier, full_level);
          open_frontier = open_engine.edge_map<uint32_t>(open_frontier, open_level, open);
          const EdgeMapStats& a = full_engine.last_stats();
          const EdgeMapStats& b = open_engine.last_stats();
          ASSERT_EQ(open_frontier.size(), full_frontier.size()) << context << " level " << d;
          if (a.direction != b.direction) {
            // Only auto, and only where the narrowed pull reads no page:
            // it is taken without planning the push (edge_map.hpp).
            ASSERT_EQ(direction, Direction::automatic) << context << " level " << d;
            ASSERT_EQ(b.direction, Direction::pull) << context << " level " << d;
            ASSERT_EQ(b.bytes_read, 0u) << context << " level " << d;
            same_path = false;  // the pull caches differ from here on
          }
          if (b.direction != Direction::pull) continue;
          ++pulls;
          EXPECT_TRUE(open.narrowed());
          EXPECT_EQ(open.count(), b.destinations) << context << " level " << d;
          if (!same_path) continue;
          EXPECT_EQ(b.destinations, a.destinations) << context << " level " << d;
          EXPECT_EQ(b.cached, a.cached) << context << " level " << d;
          EXPECT_EQ(b.bytes_read, a.bytes_read) << context << " level " << d;
        }
        ASSERT_EQ(open_depth, expected) << context;
        ASSERT_EQ(full_depth, expected) << context;
        EXPECT_GE(pulls, direction == Direction::pull ? 3u : 1u) << context;
      }
    }
  }
}

// No transpose: pull is asked for, push is done; a symmetric graph pulls
// over its own out-edges.
TEST(EdgeMap, WithoutATransposeEveryEdgeMapPushes) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();
  RefGraph csr = g.csr_order();
  std::vector<uint64_t> x(g.n, 1), expected(g.n, 0);
  for (const Edge& e : csr.edges) {
    if (e.v % 3 != 0) expected[e.v] += 2;
  }
  DiskGraph graph(layout_on_drives(dir, g, 2));
  EngineOptions options;
  options.direction = Direction::pull;
  Engine engine(graph, options);
  EXPECT_FALSE(engine.can_pull());
  std::vector<uint64_t> sum(g.n, 0);
  NeighbourSum f{x, sum};
  engine.edge_map<uint64_t>(VertexSubset::all(g.n), f);
  EXPECT_EQ(engine.last_stats().direction, Direction::push);
  EXPECT_EQ(sum, expected);

  RefGraph symmetric = g;
  for (const Edge& e : g.edges) symmetric.edges.push_back({e.v, e.u, e.w});
  symmetric.name = "rmat_symmetric";
  std::vector<uint64_t> both(g.n, 0);
  for (const Edge& e : symmetric.edges) {
    if (e.v % 3 != 0) both[e.v] += 2;
  }
  DiskGraph symmetric_graph(layout_on_drives(dir, symmetric, 2));
  options.symmetric = true;
  Engine pulling(symmetric_graph, options);
  EXPECT_TRUE(pulling.can_pull());
  std::fill(sum.begin(), sum.end(), 0);
  pulling.edge_map<uint64_t>(VertexSubset::all(g.n), f);
  EXPECT_EQ(pulling.last_stats().direction, Direction::pull);
  EXPECT_EQ(sum, both);
}

// Engine::transposed(): an engine over the transpose that shares the
// forward engine's edge sets. Its EDGEMAPs, in every direction and
// interleaved with the forward engine's, sum along the reversed edges;
// with --io memory it loads nothing of its own and its budget counts no
// pages or index twice. It refuses without a transpose of its own.
TEST(EdgeMap, TransposedEngineSharesTheEdgeSets) {
  TempDir dir;
  std::mt19937_64 random(11);
  int round = 0;
  for (const RefGraph& g : graph_shapes(true)) {
    RefGraph csr = g.csr_order();
    for (unsigned drives : {1u, 2u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives, true));
      for (io::BackendKind backend : {io::BackendKind::memory, io::BackendKind::uring}) {
        for (int k = 0; k < 3; ++k, ++round) {
          EngineOptions options;
          options.direction = Direction(k);
          options.threads = 1 + round % 3;
          options.io.backend = backend;
          options.algorithm_bytes = 1000;
          Engine forward(graph, options);
          std::unique_ptr<Engine> back = forward.transposed();
          ASSERT_TRUE(back->can_pull());
          EXPECT_EQ(back->budget().io_buffers, 0u);
          EXPECT_EQ(back->budget().index, 0u);
          EXPECT_EQ(back->budget().algorithm, 0u);
          EXPECT_EQ(back->load_seconds(), 0.0);
          if (backend == io::BackendKind::memory && graph.pages()) {
            EXPECT_GT(forward.load_seconds(), 0.0);
          }
          std::vector<uint64_t> x(g.n);
          for (auto& value : x) value = random() % 1000;
          for (double density : {0.01, 0.3, 1.0}) {
            VertexSubset frontier = random_frontier(g.n, density, random);
            std::vector<uint64_t> along(g.n, 0), against(g.n, 0), expected_along(g.n, 0), expected_against(g.n, 0);
            for (const Edge& e : csr.edges) {
              if (frontier.contains(e.u) && e.v % 3 != 0) expected_along[e.v] += x[e.u] + uint64_t(e.w);
              if (frontier.contains(e.v) && e.u % 3 != 0) expected_against[e.u] += x[e.v] + uint64_t(e.w);
            }
            NeighbourSum f_against{x, against}, f_along{x, along};
            back->edge_map<uint64_t>(frontier, f_against);
            forward.edge_map<uint64_t>(frontier, f_along);
            const std::string context = g.name + " drives " + std::to_string(drives) + " " + io::backend_name(backend) + " " +
                                        direction_name(Direction(k)) + " density " + std::to_string(density);
            EXPECT_EQ(against, expected_against) << context;
            EXPECT_EQ(along, expected_along) << context;
          }
        }
      }
    }
  }
  RefGraph g = graph_shapes(false).back();
  DiskGraph plain(layout_on_drives(dir, g, 1));
  Engine without(plain, EngineOptions{});
  EXPECT_THROW(without.transposed(), std::logic_error);
  DiskGraph with_transpose(layout_on_drives(dir, g, 1, true));
  EngineOptions symmetric;
  symmetric.symmetric = true;  // pulls over its own out-edges: no transpose of its own
  Engine own(with_transpose, symmetric);
  EXPECT_THROW(own.transposed(), std::logic_error);
}

// After release_buffers (a run's last trial) the engine holds no IO
// buffers, bins or caches: an EDGEMAP or a list walk is refused, on it and
// on its kept transposed engine, while VERTEXMAPs still run.
TEST(EdgeMap, NoEdgeMapAfterTheBuffersAreReleased) {
  TempDir dir;
  const RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 2, true));
  for (io::BackendKind backend : {io::BackendKind::memory, io::BackendKind::uring}) {
    EngineOptions options;
    options.io.backend = backend;
    Engine engine(graph, options);
    std::vector<uint64_t> x(g.n, 1), sum(g.n, 0), expected(g.n, 0);
    for (const Edge& e : g.edges) {
      if (e.v % 3 != 0) expected[e.v] += 1 + uint64_t(e.w);
    }
    NeighbourSum f{x, sum};
    Engine& back = engine.kept_transposed();
    engine.edge_map<uint64_t>(VertexSubset::all(g.n), f);
    EXPECT_EQ(sum, expected) << io::backend_name(backend);
    engine.release_buffers();
    EXPECT_THROW(engine.edge_map<uint64_t>(VertexSubset::all(g.n), f), std::logic_error);
    EXPECT_THROW(back.edge_map<uint64_t>(VertexSubset::all(g.n), f), std::logic_error);
    EXPECT_THROW(engine.for_each_list(0, g.n, [](const NeighbourList&) {}), std::logic_error);
    EXPECT_STREQ(engine.backend_name(), "released");
    EXPECT_EQ(engine.vertex_map(VertexSubset::all(g.n), [](uint64_t v) { return v % 2 == 0; }).size(), (g.n + 1) / 2);
  }
}

// An engine built to read into another's IO buffers (a rank's transpose
// part) holds none: its EDGEMAPs, in every direction and interleaved with the
// other's, sum as they would alone. In memory each holds its own pages;
// a drive-reading engine cannot share a memory one's buffers.
TEST(EdgeMap, EngineReadingIntoAnothersBuffers) {
  TempDir dir;
  std::mt19937_64 random(12);
  int round = 0;
  for (const RefGraph& g : graph_shapes(true)) {
    RefGraph csr = g.csr_order();
    DiskGraph one_drive(layout_on_drives(dir, g, 1, true)), two_drives(layout_on_drives(dir, g, 2, true));
    const std::unique_ptr<DiskGraph> reversed = one_drive.reversed();
    for (io::BackendKind backend : {io::BackendKind::memory, io::BackendKind::uring}) {
      for (int k = 0; k < 3; ++k, ++round) {
        EngineOptions options;
        options.direction = Direction(k);
        options.threads = 1 + round % 3;
        options.io.backend = backend;
        Engine first(one_drive, options);
        Engine second(two_drives, options, first);
        const bool resident = backend == io::BackendKind::memory;
        if (!resident) {
          EXPECT_EQ(first.budget().io_buffers,
                    uint64_t(io_buffers_for(one_drive, options.io) + io_buffers_for(*reversed, options.io)) * options.io.max_request_bytes);
          EXPECT_EQ(second.budget().io_buffers, 0u);
        } else {
          EXPECT_EQ(second.budget().io_buffers, first.budget().io_buffers);  // the same edges, held by each
        }
        std::vector<uint64_t> x(g.n);
        for (auto& value : x) value = random() % 1000;
        for (double density : {0.01, 0.3, 1.0}) {
          VertexSubset frontier = random_frontier(g.n, density, random);
          std::vector<uint64_t> expected(g.n, 0), by_first(g.n, 0), by_second(g.n, 0);
          for (const Edge& e : csr.edges) {
            if (frontier.contains(e.u) && e.v % 3 != 0) expected[e.v] += x[e.u] + uint64_t(e.w);
          }
          NeighbourSum f_first{x, by_first}, f_second{x, by_second};
          second.edge_map<uint64_t>(frontier, f_second);
          first.edge_map<uint64_t>(frontier, f_first);
          const std::string context = g.name + " " + io::backend_name(backend) + " " + direction_name(Direction(k)) + " density " +
                                      std::to_string(density);
          EXPECT_EQ(by_first, expected) << context;
          EXPECT_EQ(by_second, expected) << context;
        }
      }
    }
  }
  RefGraph g = graph_shapes(false).back();
  DiskGraph graph(layout_on_drives(dir, g, 1, true));
  EngineOptions in_memory, from_drives;
  in_memory.io.backend = io::BackendKind::memory;
  Engine resident(graph, in_memory);
  EXPECT_THROW(Engine(graph, from_drives, resident), std::invalid_argument);
}

}  // namespace
}  // namespace sluice::test
