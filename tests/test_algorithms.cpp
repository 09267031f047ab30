// Every algorithm against the simple implementations of
// reference_algorithms.hpp: on every graph shape (plus an empty graph and
// two components), over 1 and 3 drives, both EDGEMAP variants, every IO
// backend and several skipping thresholds; and on cnr-2000, whose weak
// components must come out as one and whose strong components are given.
#include <chrono>
#include <cmath>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "algorithms/bc.hpp"
#include "algorithms/bfs.hpp"
#include "algorithms/jtcc.hpp"
#include "algorithms/kcore.hpp"
#include "algorithms/mis.hpp"
#include "algorithms/pagerank.hpp"
#include "algorithms/radii.hpp"
#include "algorithms/spmv.hpp"
#include "algorithms/sssp.hpp"
#include "algorithms/tc.hpp"
#include "algorithms/wcc.hpp"
#include "base/interruption.hpp"
#include "programs/option_values.hpp"
#include "tests/reference_algorithms.hpp"

namespace sluice::test {
namespace {

using namespace sluice::engine;
using namespace sluice::algorithms;

struct Config {
  EdgeMapVariant variant;
  io::BackendKind backend;
  const char* lambda;
  int threads;
  Direction direction = Direction::automatic;
  uint64_t page_cache = 0;
  std::string text() const {
    return std::string(variant == EdgeMapVariant::atomic ? "atomic" : "binning") + " " + io::backend_name(backend) +
           " λ " + lambda + " threads " + std::to_string(threads) + " " + direction_name(direction) + " page cache " +
           std::to_string(page_cache);
  }
};

// Rotates through the settings so that every pairing turns up across shapes.
Config config_for(int round) {
  static const io::BackendKind backends[] = {io::BackendKind::uring, io::BackendKind::aio, io::BackendKind::psync,
                                             io::BackendKind::memory};
  static const char* lambdas[] = {"0", "64k", "inf"};
  static const Direction directions[] = {Direction::automatic, Direction::push, Direction::pull};
  // No page cache, one that fills after a few pages (the rest read), and
  // one that holds every page (compressed ones decoded).
  static const uint64_t page_caches[] = {0, 24 << 10, 64 << 20};
  return {round % 2 ? EdgeMapVariant::atomic : EdgeMapVariant::binning, backends[(round / 2) % 4], lambdas[round % 3],
          1 + round % 3, directions[(round / 3) % 3], page_caches[(round / 4) % 3]};
}

EngineOptions options_for(const Config& c) {
  EngineOptions o;
  o.direction = c.direction;
  o.variant = c.variant;
  o.io.backend = c.backend;
  o.io.queue_depth = 8;
  o.skip = programs::parse_skip_threshold(c.lambda);
  o.threads = c.threads;
  o.bins = 64;
  o.page_cache = c.page_cache;
  return o;
}

std::vector<RefGraph> algorithm_shapes() {
  std::vector<RefGraph> shapes = graph_shapes(true);
  RefGraph empty;
  empty.name = "empty";
  empty.weighted = true;
  shapes.insert(shapes.begin(), empty);
  RefGraph two;  // two cycles with chords, no edge between them
  two.name = "two_components";
  two.weighted = true;
  two.n = 40;
  for (uint64_t i = 0; i < 20; ++i) {
    two.edges.push_back({i, (i + 1) % 20, 1.5f});
    two.edges.push_back({20 + i, 20 + (i + 7) % 20, 2.0f});
  }
  shapes.push_back(two);
  return shapes;
}

void expect_near_all(const std::vector<double>& expected, const std::vector<double>& actual, double tolerance,
                     const std::string& context) {
  ASSERT_EQ(expected.size(), actual.size()) << context;
  for (size_t v = 0; v < expected.size(); ++v) {
    ASSERT_NEAR(expected[v], actual[v], tolerance * std::max(1.0, std::fabs(expected[v]))) << context << " vertex " << v;
  }
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t v = 0; v < a.size(); ++v) sum += std::fabs(a[v] - b[v]);
  return sum;
}

uint64_t highest_degree(const RefGraph& g) {
  std::vector<uint64_t> degree(g.n, 0);
  for (const Edge& e : g.edges) ++degree[e.u];
  return uint64_t(std::max_element(degree.begin(), degree.end()) - degree.begin());
}

// Runs every engine algorithm on one layout with one configuration.
void check_all(const RefGraph& g, const std::string& layout, const Config& c) {
  const std::string context = g.name + " " + layout + " " + c.text();
  const RefGraph csr = g.csr_order();
  DiskGraph out_graph(layout), in_graph(layout, true);
  Engine out(out_graph, options_for(c)), in(in_graph, options_for(c));
  RunTrace trace("test");

  // WCC: the same partition as union-find, labelled by smallest id.
  ComponentsResult components = wcc(out, &in, trace);
  ASSERT_EQ(as_vector(components.label), reference_components(csr)) << context;

  // PageRank: classic to a tight tolerance matches power iteration.
  for (bool spread : {false, true}) {
    if (g.n == 0) break;
    PageRankOptions o;
    o.method = PageRankMethod::classic;
    o.dangling = spread ? Dangling::spread : Dangling::drop;
    o.tolerance = 1e-13;
    o.max_iterations = 500;
    expect_near_all(reference_pagerank(csr, 0.85, spread), as_vector(pagerank(out, o, trace).rank), 1e-9, context + " classic PageRank");
  }
  if (g.n > 0) {
    // Delta with no threshold is exact; with Ligra's defaults (threshold
    // 0.01) changes below 1% wait, unpushed, until they grow past it:
    // within 5% in relative L1 (RMAT 2^16 gives 2.0%).
    PageRankOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 500;
    o.delta_threshold = 0;
    std::vector<double> expected = reference_pagerank(csr, 0.85, false);
    expect_near_all(expected, as_vector(pagerank(out, o, trace).rank), 1e-9, context + " PageRank-delta");
    o = PageRankOptions{};
    const double total = std::accumulate(expected.begin(), expected.end(), 0.0);
    EXPECT_LT(l1_distance(expected, as_vector(pagerank(out, o, trace).rank)), 0.05 * total) << context << " PageRank-delta, defaults";
  }

  // SpMV both ways, weighted.
  std::vector<double> x(g.n);
  for (uint64_t v = 0; v < g.n; ++v) x[v] = double(v % 13) - 4.5;
  expect_near_all(reference_spmv(csr, x, false), as_vector(spmv(in, x, trace)), 1e-12, context + " A x");
  expect_near_all(reference_spmv(csr, x, true), as_vector(spmv(out, x, trace)), 1e-12, context + " A^T x");

  if (g.n == 0) return;
  // BFS from vertex 0 and from the highest degree: depths exact, parents
  // one level up along a real edge.
  std::set<std::pair<uint64_t, uint64_t>> edge_set;
  for (const Edge& e : csr.edges) edge_set.insert({e.u, e.v});
  for (uint64_t source : {uint64_t(0), highest_degree(csr)}) {
    BfsResult result = bfs(out, source, trace);
    const base::Array<int64_t> depth = result.depths(out), parent = result.parents(out);
    std::vector<int64_t> expected = reference_bfs(csr, source);
    ASSERT_EQ(std::vector<int64_t>(depth.begin(), depth.end()), expected) << context << " source " << source;
    uint64_t reached = 0;
    for (uint64_t v = 0; v < g.n; ++v) {
      if (expected[v] < 0) {
        EXPECT_EQ(parent[v], -1);
        continue;
      }
      ++reached;
      if (v == source) continue;
      uint64_t p = uint64_t(parent[v]);
      ASSERT_EQ(expected[p], expected[v] - 1) << context << " vertex " << v;
      ASSERT_TRUE(edge_set.count({p, v})) << context << " parent " << p << " of " << v << " is not an in-neighbour";
    }
    EXPECT_EQ(result.reached, reached) << context;
  }

  // BC from two sources.
  std::vector<uint64_t> sources = {0, g.n / 2};
  expect_near_all(reference_bc(csr, sources), as_vector(bc(out, &in, sources, trace).score), 1e-9, context + " BC");

  // SSSP against Dijkstra: delta-stepping at two widths and Bellman-Ford.
  for (uint64_t source : {uint64_t(0), highest_degree(csr)}) {
    const std::vector<double> expected = reference_sssp(csr, source);
    for (double delta : {1.0, 3.5, double(INFINITY)}) {
      SsspOptions o;
      o.delta = delta;
      const SsspResult result = sssp(out, source, o, trace);
      const std::string what = context + " SSSP from " + std::to_string(source) + " delta " + std::to_string(delta);
      ASSERT_EQ(result.distance.size(), expected.size()) << what;
      uint64_t reached = 0;
      for (uint64_t v = 0; v < g.n; ++v) {
        if (std::isinf(expected[v])) {
          ASSERT_TRUE(std::isinf(result.distance[v])) << what << " vertex " << v;
          continue;
        }
        ++reached;
        ASSERT_NEAR(expected[v], result.distance[v], 1e-5 * std::max(1.0, expected[v])) << what << " vertex " << v;
      }
      EXPECT_EQ(result.reached, reached) << what;
    }
  }
}

// g with every edge also stored the other way (a self loop once).
RefGraph symmetrized(const RefGraph& g) {
  RefGraph s = g;
  s.name = g.name + " symmetrized";
  for (const Edge& e : g.edges) {
    if (e.u != e.v) s.edges.push_back({e.v, e.u, e.w});
  }
  return s;
}

// Every shape on 1 and 3 drives, each in push, pull and auto with a
// rotating backend, λ, variant and thread count. Under the sanitizers
// (unoptimized, several times slower) each shape on one of the two drive
// counts and in two of the three directions, rotating.
TEST(Algorithms, MatchSimpleImplementationsOnEveryShape) {
  TempDir dir;
  int round = 0;
  int shape = 0;
  for (const RefGraph& g : algorithm_shapes()) {
    ++shape;
    for (unsigned drives : {1u, 3u}) {
      if (sanitized && (drives == 3) != (shape % 2 == 0)) continue;
      std::string layout = layout_on_drives(dir, g, drives, true);
      int kind = 0;
      for (Direction direction : {Direction::push, Direction::pull, Direction::automatic}) {
        if (sanitized && kind++ == (shape % 3)) continue;  // two of the three directions, rotating
        Config c = config_for(round++);
        c.direction = direction;
        check_all(g, layout, c);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// The same on gap-coded pages (convert --compress), every shape by turns
// unweighted, with integer weights (coded beside the gaps) and with its
// fractional weights (raw floats beside them), plus one list spanning
// several pages, through every backend, on 1 or 3 drives.
TEST(Algorithms, MatchOnCompressedPages) {
  TempDir dir;
  std::vector<RefGraph> shapes = algorithm_shapes();
  RefGraph long_list;  // vertex 3's list over four pages, and short lists around it
  long_list.name = "long_list";
  long_list.n = 30000;
  std::mt19937_64 random(7);
  for (uint64_t i = 0; i < 12000; ++i) long_list.edges.push_back({3, random() % long_list.n, 1.0f});
  for (uint64_t v = 0; v < 200; ++v) long_list.edges.push_back({v * 100, (v * 7919) % long_list.n, 1.0f});
  shapes.push_back(long_list);
  int round = 0, shape = 0;
  for (RefGraph g : shapes) {
    ++shape;
    if (shape % 2 == 0) {
      g.weighted = false;
      for (Edge& e : g.edges) e.w = 1;
    } else if (shape % 4 == 1 && g.weighted) {
      for (Edge& e : g.edges) e.w = std::floor(e.w * 4);
    }
    for (unsigned drives : {1u + 2 * (round % 2)}) {  // 1 and 3 drives, shape by shape
      const std::string layout = layout_on_drives(dir, g, drives, true, true);
      ASSERT_TRUE(DiskGraph(layout).compressed());
      ASSERT_EQ(DiskGraph(layout).info().weighted, g.weighted);
      int kind = 0;
      for (Direction direction : {Direction::push, Direction::pull, Direction::automatic}) {
        if (sanitized && kind++ == (shape % 3)) continue;  // two of the three directions, rotating
        Config c = config_for(round++);
        c.direction = direction;
        check_all(g, layout, c);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// WCC's sampling from the layout's sample files (convert --sample-edges):
// the labels of union-find with no sample, one too short to serve (1
// target: the pages serve), and ones that serve both edge sets (then the
// two sampling EDGEMAPs read the files and no page).
TEST(Algorithms, WccFromSampleFilesMatchesUnionFind) {
  TempDir dir;
  int round = 0;
  for (RefGraph g : algorithm_shapes()) {
    g.weighted = false;
    for (Edge& e : g.edges) e.w = 1;
    const RefGraph csr = g.csr_order();
    for (uint32_t sample : {round % 2 ? 0u : 1u, round % 2 ? 2u : 5u}) {
      const std::string layout = layout_on_drives(dir, g, 1 + 2 * (round % 2), true, round % 3 == 0, sample);
      Config c = config_for(round++);
      DiskGraph out_graph(layout), in_graph(layout, true);
      Engine out(out_graph, options_for(c)), in(in_graph, options_for(c));
      RunTrace trace("test");
      trace.keep_records(true);
      const std::string context = g.name + " sample " + std::to_string(sample) + " " + c.text();
      ASSERT_EQ(as_vector(wcc(out, &in, trace).label), reference_components(csr)) << context;
      if (g.n == 0) continue;
      const std::vector<EdgeMapRecord>& records = trace.records();
      ASSERT_GE(records.size(), 3u) << context;
      EXPECT_EQ(records[1].phase, sample >= 2 ? "in-sample" : "out-edges") << context;
      // The out-sample reads the whole file; the in-sample only the
      // pieces with a vertex outside the largest component. Neither reads a page.
      for (int i = 0; i < (sample >= 2 ? 2 : 0); ++i) {
        if (i == 0) EXPECT_EQ(records[i].stats.bytes_read, sample_file_bytes(g.n, sample)) << context;
        else EXPECT_LE(records[i].stats.bytes_read, sample_file_bytes(g.n, sample)) << context;
        EXPECT_EQ(records[i].stats.active_pages, 0u) << context;
      }
    }
  }
}

// Whole lists (Engine::for_each_list) on every shape, 1 and 3 drives, with
// a rotating backend, λ and thread count: each vertex's list once, whole,
// in the layout's order with its weights. Then the algorithms written on
// them: triangle counts with every list held and with a budget that cuts
// several ranges, against every pair of neighbours; MIS against the
// greedy pass in priority order; radii against BFS from each source.
// Under the sanitizers each shape on one of the two drive counts.
TEST(Algorithms, ListAlgorithmsMatchSimpleImplementationsOnEveryShape) {
  TempDir dir;
  int round = 0, shape = 0;
  for (const RefGraph& directed : algorithm_shapes()) {
    ++shape;
    const RefGraph csr = directed.csr_order();
    RefGraph g = symmetrized(directed);
    const RefGraph sym = g.csr_order();
    const std::vector<uint64_t> triangles = reference_triangles(g), degree = reference_simple_degree(g);
    uint64_t total = 0;
    double triads = 0, clustering = 0;
    for (uint64_t v = 0; v < g.n; ++v) {
      total += triangles[v];
      triads += double(degree[v]) * (double(degree[v]) - 1);
      if (degree[v] >= 2) clustering += 2.0 * double(triangles[v]) / (double(degree[v]) * (double(degree[v]) - 1));
    }
    total /= 3;
    const std::vector<uint64_t> members = reference_greedy_mis(sym, [](uint64_t a, uint64_t b) {
      return mis_priority(a, 7) < mis_priority(b, 7) || (mis_priority(a, 7) == mis_priority(b, 7) && a < b);
    });
    const std::vector<uint64_t> sources = radii_sources(g.n, 1);
    const std::vector<int64_t> radius = reference_radii(csr, sources);
    for (unsigned drives : {1u, 3u}) {
      if (sanitized && (drives == 3) != (shape % 2 == 0)) continue;  // under the sanitizers one drive count per shape, alternating
      const Config c = config_for(round++);
      const std::string context = g.name + " " + c.text() + " drives " + std::to_string(drives);
      {
        DiskGraph graph(layout_on_drives(dir, directed, drives));
        Engine engine(graph, options_for(c));
        std::vector<std::vector<std::pair<uint64_t, float>>> lists(directed.n);
        std::mutex mutex;
        engine.for_each_list(VertexSubset::all(directed.n), [&](const NeighbourList& list) {
          std::lock_guard lock(mutex);
          ASSERT_TRUE(lists[list.vertex].empty()) << context << " vertex " << list.vertex << " twice";
          ASSERT_EQ(list.weights.size(), directed.weighted ? list.targets.size() : 0) << context;
          for (size_t i = 0; i < list.targets.size(); ++i) lists[list.vertex].emplace_back(list.targets[i], directed.weighted ? list.weights[i] : 1.0f);
        });
        for (uint64_t v = 0, e = 0; v < directed.n; ++v) {
          for (const auto& [target, weight] : lists[v]) {
            ASSERT_LT(e, csr.edges.size()) << context;
            ASSERT_EQ(csr.edges[e].u, v) << context << " edge " << e;
            ASSERT_EQ(csr.edges[e].v, target) << context << " edge " << e;
            if (directed.weighted) {
              ASSERT_EQ(csr.edges[e].w, weight) << context << " edge " << e;
            }
            ++e;
          }
        }
        RunTrace trace("test");
        ASSERT_EQ(radii(engine, sources, trace).radius, radius) << context;
      }
      DiskGraph graph(layout_on_drives(dir, g, drives));
      EngineOptions o = options_for(c);
      o.symmetric = true;
      Engine engine(graph, o);
      RunTrace trace("test");
      for (uint64_t budget : {uint64_t(0), uint64_t(256)}) {
        const TcResult r = tc(engine, TcOptions{budget}, trace);
        ASSERT_EQ(r.triangles, triangles) << context << " budget " << budget;
        EXPECT_EQ(r.total, total) << context;
        EXPECT_NEAR(r.transitivity, total ? 6.0 * double(total) / triads : 0.0, 1e-12) << context;
        EXPECT_NEAR(r.average_clustering, g.n ? clustering / double(g.n) : 0.0, 1e-12) << context;
        if (budget && g.n > 64) {
          EXPECT_GT(r.ranges, 1u) << context;
        }
      }
      ASSERT_EQ(mis(engine, 7, trace).member, members) << context;
    }
  }
}

// k-core on every shape made undirected, on 1 and 3 drives, pushed and
// pulled (over the out-edges: symmetric), against peeling one vertex at a
// time; and SSSP there, unweighted, against BFS depths.
TEST(Algorithms, KcoreMatchesPeelingOnEveryShape) {
  TempDir dir;
  int round = 0;
  for (const RefGraph& directed : algorithm_shapes()) {
    RefGraph g = symmetrized(directed);
    g.weighted = false;
    for (Edge& e : g.edges) e.w = 1;
    const RefGraph csr = g.csr_order();
    const std::vector<uint64_t> expected = reference_kcore(csr);
    for (unsigned drives : {1u, 3u}) {
      DiskGraph graph(layout_on_drives(dir, g, drives));
      for (Direction direction : {Direction::push, Direction::pull, Direction::automatic}) {
        Config c = config_for(round++);
        c.direction = direction;
        EngineOptions o = options_for(c);
        o.symmetric = true;
        Engine engine(graph, o);
        RunTrace trace("test");
        const KcoreResult result = kcore(engine, trace);
        ASSERT_EQ(result.core, expected) << g.name << " " << c.text() << " drives " << drives;
        const uint64_t largest = expected.empty() ? 0 : *std::max_element(expected.begin(), expected.end());
        EXPECT_EQ(result.largest, largest);
        EXPECT_EQ(result.in_largest, uint64_t(std::count(expected.begin(), expected.end(), largest)) * !expected.empty());
        if (g.n == 0) continue;
        const std::vector<int64_t> depth = reference_bfs(csr, 0);
        const SsspResult paths = sssp(engine, 0, SsspOptions{}, trace);
        for (uint64_t v = 0; v < g.n; ++v) {
          ASSERT_EQ(depth[v] < 0 ? double(INFINITY) : double(depth[v]), double(paths.distance[v])) << g.name << " vertex " << v;
        }
      }
    }
  }
}

// PageRank tells a run stopped at the cap from one that converged, in
// both methods (issue 23, 4).
TEST(Algorithms, PageRankSaysWhetherItConverged) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();  // rmat
  DiskGraph graph(layout_on_drives(dir, g, 2));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("test");
  for (PageRankMethod method : {PageRankMethod::classic, PageRankMethod::delta}) {
    PageRankOptions o;
    o.method = method;
    o.tolerance = 1e-13;
    o.delta_threshold = 0;
    o.max_iterations = 3;
    PageRankResult capped = pagerank(engine, o, trace);
    EXPECT_FALSE(capped.converged);
    EXPECT_EQ(capped.iterations, 3u);
    EXPECT_GE(capped.last_change, 1e-13);
    o.tolerance = 1e-6;
    o.max_iterations = 1000;
    PageRankResult done = pagerank(engine, o, trace);
    EXPECT_TRUE(done.converged);
    EXPECT_LT(done.last_change, 1e-6);
    o.max_iterations = 0;
    EXPECT_FALSE(pagerank(engine, o, trace).converged);
  }
}

// Float shares (--shares float) round what each vertex sends to 24 bits:
// both methods still come within 1e-6 in L1 of power iteration on every
// shape, and stop where the double shares stop. Automatic shares (the
// default) start classic on floats and leave them once an iteration's
// change is below 100 x 2^-24 / (1 - d): a tight tolerance is then
// reached on doubles, as close to power iteration as doubles alone get,
// and the default tolerance stops while still on floats. Delta takes
// doubles throughout, written over the pushers' pending changes.
TEST(Algorithms, PageRankSharesMatchPowerIteration) {
  for (const RefGraph& g : graph_shapes(false)) {
    if (g.n == 0) continue;
    TempDir dir;
    DiskGraph graph(layout_on_drives(dir, g, 2));
    Engine engine(graph, EngineOptions{});
    RunTrace trace("test");
    const std::vector<double> expected = reference_pagerank(g.csr_order(), 0.85, false);
    for (PageRankMethod method : {PageRankMethod::classic, PageRankMethod::delta}) {
      const std::string context = g.name + (method == PageRankMethod::classic ? " classic" : " delta");
      PageRankOptions o;
      o.method = method;
      o.delta_threshold = 0;
      o.max_iterations = 500;
      ASSERT_EQ(o.shares, PageRankShares::automatic);
      o.tolerance = 1e-13;
      const PageRankResult tight = pagerank(engine, o, trace);
      EXPECT_TRUE(tight.converged) << context;
      if (method == PageRankMethod::classic) {
        EXPECT_GE(tight.float_share_iterations, 1u) << context;
        EXPECT_LE(tight.float_share_iterations, tight.iterations) << context;
        if (g.name == "rmat") {
          EXPECT_LT(tight.float_share_iterations, tight.iterations) << context;  // left floats
        }
      } else {
        EXPECT_EQ(tight.float_share_iterations, 0u) << context;
      }
      expect_near_all(expected, as_vector(tight.rank), 1e-9, context + " automatic shares");
      o.tolerance = 1e-4;
      const PageRankResult loose = pagerank(engine, o, trace);
      EXPECT_EQ(loose.float_share_iterations, method == PageRankMethod::classic ? loose.iterations : 0u) << context;

      o.shares = PageRankShares::float64;
      EXPECT_EQ(pagerank(engine, o, trace).float_share_iterations, 0u) << context;

      o.shares = PageRankShares::float32;
      o.tolerance = 1e-8;
      const PageRankResult floats = pagerank(engine, o, trace);
      EXPECT_TRUE(floats.converged) << context;
      EXPECT_EQ(floats.float_share_iterations, floats.iterations) << context;
      EXPECT_LT(l1_distance(expected, as_vector(floats.rank)), 1e-6) << context << " float shares";
    }
  }
}

// SSSP's waiting bins drop their stale ids: 40 hubs at distances 1-40
// each offer 100 targets a distance 1 lower than the hub before, in a
// bucket of its own, so the targets are set aside 4,000 times, past the
// 1.25 x 141 + 1,024 ids at which the bins drop their stale ones. The
// distances are still Dijkstra's.
TEST(Algorithms, SsspDropsStaleWaitingIds) {
  TempDir dir;
  RefGraph g;
  g.name = "ladder";
  g.weighted = true;
  const uint64_t hubs = 40, targets = 100;
  g.n = 1 + hubs + targets;
  for (uint64_t h = 1; h <= hubs; ++h) {
    g.edges.push_back({0, h, float(h)});
    for (uint64_t t = 1 + hubs; t < g.n; ++t) g.edges.push_back({h, t, float(1000 - 2 * h)});
  }
  DiskGraph graph(layout_on_drives(dir, g, 2));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("test");
  const std::vector<double> expected = reference_sssp(g.csr_order(), 0);
  const SsspResult result = sssp(engine, 0, SsspOptions{1.0}, trace);
  ASSERT_EQ(result.distance.size(), expected.size());
  for (uint64_t v = 0; v < g.n; ++v) EXPECT_EQ(double(result.distance[v]), expected[v]) << "vertex " << v;
  EXPECT_EQ(result.distance[g.n - 1], 960.0f);
  EXPECT_EQ(result.reached, g.n);
}

// SSSP refuses a negative weight under delta-stepping, takes it under
// Bellman-Ford, and names a negative cycle.
TEST(Algorithms, SsspNegativeWeights) {
  TempDir dir;
  RefGraph g;
  g.name = "negative";
  g.n = 4;
  g.weighted = true;
  g.edges = {{0, 1, 4.0f}, {0, 2, 1.0f}, {2, 1, -2.0f}, {1, 3, 1.0f}};
  DiskGraph graph(layout_on_drives(dir, g, 2));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("test");
  auto message_of = [](auto&& run) -> std::string {
    try {
      run();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string refused = message_of([&] { sssp(engine, 0, SsspOptions{}, trace); });
  for (const char* piece : {"vertex 2", "negative weight", "Bellman-Ford"}) EXPECT_NE(refused.find(piece), std::string::npos) << refused;
  const SsspResult result = sssp(engine, 0, SsspOptions{INFINITY}, trace);
  EXPECT_EQ(result.distance, (std::vector<float>{0, -1, 1, 0}));
  g.edges.push_back({1, 2, 1.0f});  // 2 -> 1 -> 2 costs -1
  DiskGraph cyclic(layout_on_drives(dir, g, 1));
  Engine cycle(cyclic, EngineOptions{});
  const std::string cycled = message_of([&] { sssp(cycle, 0, SsspOptions{INFINITY}, trace); });
  for (const char* piece : {"negative cycle", "vertex 0"}) EXPECT_NE(cycled.find(piece), std::string::npos) << cycled;
}

// SSSP from every vertex at once: Johnson's potentials where the graph has
// no negative cycle, else an error saying it has one, on every shape with
// weights from -2 to 4, from 1 and 2 drives.
TEST(Algorithms, SsspFromEveryVertexGivesPotentialsOrFindsACycle) {
  TempDir dir;
  RunTrace trace("test");
  uint64_t cyclic = 0, acyclic = 0, shape = 0;
  for (RefGraph g : graph_shapes(true)) {
    for (size_t i = 0; i < g.edges.size(); ++i) g.edges[i].w = float(int(i % 7) - 2);
    const std::optional<std::vector<double>> expected = reference_potentials(g);
    (expected ? acyclic : cyclic) += 1;
    ++shape;
    for (unsigned drives : {1u, 2u}) {
      if (sanitized && (drives == 2) != (shape % 2 == 0)) continue;  // under the sanitizers one drive count per shape, alternating
      DiskGraph graph(layout_on_drives(dir, g, drives));
      Engine engine(graph, EngineOptions{});
      const std::string what = g.name + ", " + std::to_string(drives) + " drive(s)";
      if (!expected) {
        try {
          sssp_from_every_vertex(engine, SsspOptions{INFINITY}, trace);
          ADD_FAILURE() << what << ": no negative cycle found";
        } catch (const NegativeCycle& e) {
          EXPECT_NE(std::string(e.what()).find("the graph has a negative cycle"), std::string::npos) << what << ": " << e.what();
        }
        continue;
      }
      const SsspResult result = sssp_from_every_vertex(engine, SsspOptions{INFINITY}, trace);
      ASSERT_EQ(result.distance.size(), expected->size()) << what;
      for (uint64_t v = 0; v < g.n; ++v) ASSERT_EQ(double(result.distance[v]), (*expected)[v]) << what << " vertex " << v;
      EXPECT_EQ(result.reached, g.n) << what;
    }
  }
  EXPECT_GT(cyclic, 0u);
  EXPECT_GT(acyclic, 3u);
}

// The suite the ThreadSanitizer build runs: every algorithm with 4 threads,
// both variants, push and pull, on the RMAT shape.
TEST(AlgorithmThreads, EveryAlgorithmOnRmat) {
  TempDir dir;
  RefGraph g = graph_shapes(true).back();
  std::string layout = layout_on_drives(dir, g, 2, true);
  const RefGraph undirected = symmetrized(g);
  DiskGraph undirected_graph(layout_on_drives(dir, undirected, 2));
  const std::vector<uint64_t> cores = reference_kcore(undirected.csr_order());
  const std::vector<uint64_t> triangles = reference_triangles(undirected);
  const std::vector<int64_t> radius = reference_radii(g.csr_order(), radii_sources(g.n, 1));
  for (EdgeMapVariant variant : {EdgeMapVariant::binning, EdgeMapVariant::atomic}) {
    for (Direction direction : {Direction::push, Direction::pull}) {
      // Four threads keeping pages at once: a cache that fills partway, and one that holds them all.
      const Config c{variant, io::BackendKind::uring, "64k", 4, direction, direction == Direction::push ? uint64_t(48) << 10 : uint64_t(64) << 20};
      check_all(g, layout, c);
      EngineOptions o = options_for(c);
      o.symmetric = true;
      Engine engine(undirected_graph, o);
      RunTrace trace("kcore");
      EXPECT_EQ(kcore(engine, trace).core, cores) << c.text();
      // Whole lists on four threads: lists spanning pages assembled from
      // pieces on any thread; tallies per thread, then atomic credits.
      EXPECT_EQ(tc(engine, TcOptions{}, trace).triangles, triangles) << c.text();
      EXPECT_EQ(tc(engine, TcOptions{2048}, trace).triangles, triangles) << c.text();
      DiskGraph directed_graph(layout);
      Engine directed(directed_graph, options_for(c));
      EXPECT_EQ(radii(directed, radii_sources(g.n, 1), trace).radius, radius) << c.text();
    }
  }
  OpenOptions blocks;
  blocks.blocks = {.block_edges = 500, .buffers = 4, .threads = 4};
  auto text = open_as_edge_list(dir, g, blocks);
  EXPECT_EQ(as_vector(jtcc(*text).label), reference_components(g.csr_order()));
}

TEST(Algorithms, JtccGivesTheSamePartitionFromAnyFormat) {
  TempDir dir;
  for (const RefGraph& g : algorithm_shapes()) {
    std::vector<uint64_t> expected = reference_components(g.csr_order());
    for (int buffers : {1, 4}) {
      OpenOptions options;
      options.blocks.block_edges = 97;  // many blocks, decoded on several threads
      options.blocks.buffers = unsigned(buffers);
      auto text = open_as_edge_list(dir, g, options);
      JtccResult from_text = jtcc(*text, uint64_t(buffers));
      EXPECT_EQ(as_vector(from_text.label), expected) << g.name;
      EXPECT_EQ(from_text.edges, g.edges.size());
      auto layout = BlockGraph::open(layout_on_drives(dir, g, 3), options);
      EXPECT_EQ(as_vector(jtcc(*layout).label), expected) << g.name;
    }
  }
}

// A stop requested (the Python module's Ctrl-C) before a run ends it
// before its first EDGEMAP, jtcc before its first block and an in-order
// block pass before its first block, each with Interrupted; once cleared,
// all run again. (Stops within an EDGEMAP: test_edge_map.cpp.)
TEST(AlgorithmThreads, InterruptionStopsRunsBetweenEdgeMapsAndBlocks) {
  TempDir dir;
  RefGraph g = graph_shapes(false)[7];  // chain: one EDGEMAP per level
  DiskGraph graph(layout_on_drives(dir, g, 2));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("bfs");
  OpenOptions options;
  options.blocks.block_edges = 8;
  auto text = open_as_edge_list(dir, g, options);
  request_interruption();
  EXPECT_THROW(bfs(engine, 0, trace), Interrupted);
  EXPECT_EQ(trace.edge_maps(), 0u);
  EXPECT_THROW(jtcc(*text), Interrupted);
  uint64_t blocks = 0;
  EXPECT_THROW(for_each_block_in_order(*text, 0, g.n, [&](const EdgeBlock&) { ++blocks; }), Interrupted);
  EXPECT_EQ(blocks, 0u);
  clear_interruption();
  trace.end_trial(0, 0, "");
  EXPECT_EQ(bfs(engine, 0, trace).levels, g.n);
  EXPECT_EQ(as_vector(jtcc(*text).label), reference_components(g.csr_order()));
  for_each_block_in_order(*text, 0, g.n, [&](const EdgeBlock&) { ++blocks; });
  EXPECT_GT(blocks, 1u);
}

// A symmetric graph needs no transpose: WCC and BC take the out-edges twice.
TEST(Algorithms, SymmetricGraphsRunWithoutATranspose) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();  // rmat
  RefGraph symmetric = g;
  for (const Edge& e : g.edges) symmetric.edges.push_back({e.v, e.u, e.w});
  symmetric.name = "rmat_symmetric";
  const RefGraph csr = symmetric.csr_order();
  DiskGraph graph(layout_on_drives(dir, symmetric, 2));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("test");
  EXPECT_EQ(as_vector(wcc(engine, nullptr, trace).label), reference_components(csr));
  expect_near_all(reference_bc(csr, {1, 2}), as_vector(bc(engine, nullptr, {1, 2}, trace).score), 1e-9, "symmetric BC");
}

TEST(Algorithms, RejectBadArguments) {
  TempDir dir;
  RefGraph g = graph_shapes(false)[4];  // duplicates, 3 vertices
  DiskGraph graph(layout_on_drives(dir, g, 1));
  Engine engine(graph, EngineOptions{});
  RunTrace trace("test");
  EXPECT_THROW(bfs(engine, 3, trace), std::invalid_argument);
  EXPECT_THROW(bc(engine, nullptr, {7}, trace), std::invalid_argument);
  EXPECT_THROW(spmv(engine, std::vector<double>(2), trace), std::invalid_argument);
  PageRankOptions o;
  o.dangling = Dangling::spread;  // delta cannot spread
  EXPECT_THROW(pagerank(engine, o, trace), std::invalid_argument);
  o = PageRankOptions{};
  o.damping = 1.5;
  EXPECT_THROW(pagerank(engine, o, trace), std::invalid_argument);
  EXPECT_THROW(programs::parse_pagerank_method("pull"), boost::program_options::error);
  expect_error_with([&] { DiskGraph(layout_on_drives(dir, g, 1), true); }, {"without a transpose", "--transpose"});
}

// The --stats lines: one per EDGEMAP, tagged, with the engine's fields.
TEST(Algorithms, TraceWritesOneJsonLinePerEdgeMap) {
  TempDir dir;
  RefGraph g = graph_shapes(false)[7];  // chain
  DiskGraph graph(layout_on_drives(dir, g, 2));
  Engine engine(graph, EngineOptions{});
  std::ostringstream lines;
  RunTrace trace("bfs", &lines);
  BfsResult result = bfs(engine, 0, trace);
  EXPECT_EQ(result.levels, g.n);  // the last level finds nothing new
  EXPECT_EQ(trace.edge_maps(), g.n);
  std::istringstream in(lines.str());
  std::string line;
  uint64_t count = 0;
  double edge_map_seconds = 0, vertex_seconds = 0;  // in record order, as the summary adds them
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("{\"record\":\"edgemap\",\"algorithm\":\"bfs\",\"trial\":0,\"phase\":\"level\",\"iteration\":" +
                             std::to_string(count) + ",",
                         0),
              0u)
        << line;
    EXPECT_NE(line.find("\"bytes_read\":"), std::string::npos);
    const nlohmann::json record = nlohmann::json::parse(line);
    edge_map_seconds += record.at("seconds").get<double>();
    vertex_seconds += record.at("vertex_seconds").get<double>();
    ++count;
  }
  EXPECT_EQ(count, g.n);

  // A trial's summary closes it; the next trial counts afresh.
  const uint64_t bytes = trace.bytes_read();
  trace.end_trial(0.5, result.levels, "digest");
  EXPECT_EQ(trace.edge_maps(), 0u);
  EXPECT_EQ(trace.trial(), 1u);
  const std::string summary = lines.str().substr(lines.str().rfind("{\"record\""));
  const std::string head = "{\"record\":\"summary\",\"algorithm\":\"bfs\",\"trial\":0,\"seconds\":0.5,\"iterations\":" +
                           std::to_string(g.n) + ",\"edge_maps\":" + std::to_string(g.n) +
                           ",\"bytes_read\":" + std::to_string(bytes) + ",\"digest\":\"digest\",\"edgemap_seconds\":";
  ASSERT_EQ(summary.rfind(head, 0), 0u) << summary;
  // Where the seconds went: the EDGEMAP records' sums, and nothing else.
  const nlohmann::json closing = nlohmann::json::parse(summary);
  EXPECT_EQ(closing.size(), 10u) << summary;
  EXPECT_EQ(closing.at("edgemap_seconds").get<double>(), edge_map_seconds);
  EXPECT_EQ(closing.at("vertex_seconds").get<double>(), vertex_seconds);
  EXPECT_GT(edge_map_seconds, 0.0);
  bfs(engine, 0, trace);
  EXPECT_NE(lines.str().find("{\"record\":\"edgemap\",\"algorithm\":\"bfs\",\"trial\":1,\"phase\":\"level\",\"iteration\":0,"),
            std::string::npos);
}

// An exchange step's seconds run from the run's previous record, whichever
// engine's it was, or from the trial's start: not from when the engine
// that closes the step last ran an EDGEMAP, or was opened.
TEST(Algorithms, TraceTimesAnExchangeStepFromThePreviousRecordOfAnyEngine) {
  TempDir dir;
  RefGraph g = graph_shapes(false)[7];  // chain
  DiskGraph graph(layout_on_drives(dir, g, 1));
  Engine first(graph, EngineOptions{}), second(graph, EngineOptions{});
  std::ostringstream lines;
  RunTrace trace("wcc", &lines);
  auto last_seconds = [&] {
    const std::string text = lines.str();
    const nlohmann::json record = nlohmann::json::parse(text.substr(text.rfind("{\"record\"")));
    EXPECT_EQ(record.at("record"), "exchange");
    return record.at("seconds").get<double>();
  };
  const auto pause = std::chrono::milliseconds(200);
  std::this_thread::sleep_for(pause);  // as if the graph took this long to open
  trace.start_trial();
  first.end_exchange_step();
  trace.record_exchange(first, "labels", 0);
  EXPECT_LT(last_seconds(), 0.1);
  // Time with no record between counts.
  std::this_thread::sleep_for(pause);
  first.end_exchange_step();
  trace.record_exchange(first, "labels", 1);
  EXPECT_GE(last_seconds(), 0.2);
  // Another engine's EDGEMAPs end the wait: the step starts at their last.
  std::this_thread::sleep_for(pause);
  bfs(second, 0, trace);
  first.end_exchange_step();
  trace.record_exchange(first, "labels", 2);
  EXPECT_LT(last_seconds(), 0.1);
}

#ifdef SLUICE_SHARED_DATA
// cnr-2000: one weak component of 325,557 vertices (WCC and JT-CC, from
// the BV file and from a 3-drive layout), BFS depths against the queue
// BFS, and the strong component of a vertex equals the vertices that both
// a BFS and a BFS over the transpose reach from it.
TEST(Algorithms, Cnr2000) {
  const std::string base = std::string(SLUICE_SHARED_DATA) + "/cnr-2000/cnr-2000";
  if (!std::filesystem::exists(base + ".graph")) GTEST_SKIP() << "no " << SLUICE_SHARED_DATA;
  TempDir dir;
  auto bv = BlockGraph::open(base + ".graph");
  const uint64_t n = bv->info().vertices;
  ASSERT_EQ(n, 325557u);
  JtccResult from_bv = jtcc(*bv);
  EXPECT_EQ(from_bv.components, 1u);
  EXPECT_EQ(from_bv.largest, n);

  std::string layout = dir / "cnr.sluice";
  {
    WriteOptions options;
    for (int d = 0; d < 3; ++d) {
      options.drive_dirs.push_back(dir / ("drive" + std::to_string(d)));
      std::filesystem::create_directories(options.drive_dirs.back());
    }
    auto reversed = BlockGraph::open(base + "-t.graph");
    options.transpose = reversed.get();
    write_graph(*bv, layout, "sluice", options);
  }
  RefGraph g = read_all(*bv);
  DiskGraph out_graph(layout), in_graph(layout, true);

  std::ifstream scc_file(base + ".scc", std::ios::binary);
  std::vector<unsigned char> raw(n * 4);
  scc_file.read(reinterpret_cast<char*>(raw.data()), std::streamsize(raw.size()));
  ASSERT_TRUE(scc_file) << "cannot read " << base << ".scc";
  auto scc = [&](uint64_t v) { return uint32_t(raw[4 * v]) << 24 | uint32_t(raw[4 * v + 1]) << 16 | uint32_t(raw[4 * v + 2]) << 8 | raw[4 * v + 3]; };

  int round = 0;
  for (EdgeMapVariant variant : {EdgeMapVariant::binning, EdgeMapVariant::atomic}) {
    Config c = config_for(round++);
    c.variant = variant;
    c.threads = 2;
    c.direction = variant == EdgeMapVariant::binning ? Direction::automatic : Direction::push;
    Engine out(out_graph, options_for(c)), in(in_graph, options_for(c));
    RunTrace trace("test");
    ComponentsResult components = wcc(out, &in, trace);
    summarize_components(components);
    EXPECT_EQ(components.components, 1u) << c.text();
    EXPECT_EQ(components.largest, n) << c.text();

    const uint64_t source = variant == EdgeMapVariant::binning ? highest_degree(g) : 0;
    const base::Array<int64_t> forward = bfs(out, source, trace).depths(out);
    ASSERT_EQ(std::vector<int64_t>(forward.begin(), forward.end()), reference_bfs(g, source)) << c.text();
    const base::Array<int64_t> backward = bfs(in, source, trace).depths(in);
    uint64_t both = 0, same_scc = 0;
    for (uint64_t v = 0; v < n; ++v) {
      bool mutual = forward[v] >= 0 && backward[v] >= 0;
      ASSERT_EQ(mutual, scc(v) == scc(source)) << "vertex " << v;
      both += mutual;
      same_scc += scc(v) == scc(source);
    }
    EXPECT_EQ(both, same_scc);
    EXPECT_GT(both, 1u);
  }
}
#endif

}  // namespace
}  // namespace sluice::test
