// Issue 12's defects at the library level (the command-line cases are in
// cli/reliability.sh): damaged pages and out-of-range targets stop every
// EDGEMAP (push and pull, both variants) with an error naming the drive
// file and byte; a crafted BV code does not overflow; a writer that cannot
// create its files leaks nothing; the CSR builder refuses ids beyond the
// vertex count.
#include <fstream>

#include "engine/engine.hpp"
#include "formats/csr_builder.hpp"
#include "formats/webgraph_bv.hpp"
#include "layout/interleaved_edges.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

using namespace sluice::engine;

struct Count {
  std::vector<uint64_t>& sum;
  bool cond(uint64_t) { return true; }
  bool scatter(uint64_t, uint64_t, float, uint64_t& out) {
    out = 1;
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& value) {
    sum[dst] += value;
    return false;
  }
  bool gather_atomic(uint64_t dst, const uint64_t& value) {
    std::atomic_ref<uint64_t>(sum[dst]).fetch_add(value, std::memory_order_relaxed);
    return false;
  }
};

void poke(const std::string& path, uint64_t offset, const std::string& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(offset));
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

// Runs one full-scan EDGEMAP of every kind and expects `what` from each.
void expect_every_edge_map_fails(const DiskGraph& graph, bool verify, const std::vector<std::string>& what) {
  for (EdgeMapVariant variant : {EdgeMapVariant::binning, EdgeMapVariant::atomic}) {
    for (Direction direction : {Direction::push, Direction::pull}) {
      EngineOptions options;
      options.variant = variant;
      options.direction = direction;
      options.verify_reads = verify;
      options.threads = 2;
      Engine engine(graph, options);
      std::vector<uint64_t> sum(graph.vertices(), 0);
      Count f{sum};
      try {
        engine.edge_map<uint64_t>(VertexSubset::all(graph.vertices()), f);
        ADD_FAILURE() << "no error (" << direction_name(direction) << ")";
      } catch (const std::runtime_error& e) {
        for (const auto& piece : what) EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
      }
      // The engine stays usable after the failure.
      EXPECT_THROW(engine.edge_map<uint64_t>(VertexSubset::all(graph.vertices()), f), std::runtime_error);
    }
  }
}

TEST(Reliability, DamagedPagesAndForeignTargetsStopEveryEdgeMap) {
  TempDir dir;
  RefGraph g = graph_shapes(false).back();  // rmat, 2048 vertices
  const std::string layout = layout_on_drives(dir, g, 2, true);
  // Logical page 2 is the second data page of drive 0 (after its header
  // page), in both edge sets; the first record of it gets an id far out.
  const std::string out0 = std::filesystem::path(layout).parent_path() / "rmat-t2-drive0/rmat-t2.out.0";
  const std::string in0 = std::filesystem::path(layout).parent_path() / "rmat-t2-drive0/rmat-t2.in.0";
  poke(out0, 2 * 4096, std::string("\xff\xff\x00\x00", 4));
  poke(in0, 2 * 4096, std::string("\xff\xff\x00\x00", 4));
  DiskGraph graph(layout);
  expect_every_edge_map_fails(graph, true, {"rmat-t2.", ".0:byte 8192: page 2 fails its checksum"});
  expect_every_edge_map_fails(graph, false, {"rmat-t2.", ".0:byte 8192: edge target 65535 is not below the 2048 vertices"});
}

// A crafted BV node whose first interval lies 2^63 - 1 past its node: the
// decoder refuses it (it used to overflow a signed 64-bit sum).
TEST(Reliability, CraftedBvOffsetsDoNotOverflow) {
  TempDir dir;
  std::string bits;
  auto gamma = [&](uint64_t v) {  // Elias gamma of v + 1
    const uint64_t x = v + 1;
    const int msb = 63 - __builtin_clzll(x);
    bits += std::string(size_t(msb), '0') + "1";
    for (int b = msb - 1; b >= 0; --b) bits += ((x >> b) & 1) ? '1' : '0';
  };
  gamma(0);                    // node 0: outdegree 0
  gamma(1);                    // node 1: outdegree 1
  bits += "1";                 // reference 0 (unary)
  gamma(1);                    // one interval
  gamma(~uint64_t(0) - 1);     // its left end: nat2int(2^64 - 2) = 2^63 - 1 past node 1
  gamma(0);
  while (bits.size() % 8) bits += '0';
  std::string bytes;
  for (size_t i = 0; i < bits.size(); i += 8) bytes += char(std::stoi(bits.substr(i, 8), nullptr, 2));
  bytes += std::string(8, '\0');
  write_text(dir / "crafted.graph", bytes);
  write_text(dir / "crafted.properties",
             "graphclass=it.unimi.dsi.webgraph.BVGraph\nnodes=2\narcs=1\nwindowsize=7\nmaxrefcount=3\n"
             "minintervallength=4\nzetak=3\ncompressionflags=\nversion=0\n");
  expect_error_with([&] { BlockGraph::open(dir / "crafted.graph"); }, {"crafted.graph", "outside"});
}

// A drive file that cannot be created (its name is taken by a directory):
// an error, and under LeakSanitizer no leak.
TEST(Reliability, WriterThatCannotCreateItsFilesLeaksNothing) {
  TempDir dir;
  std::filesystem::create_directories(dir / "taken.out.1");
  EXPECT_THROW(InterleavedEdgeWriter({dir / "taken.out.0", dir / "taken.out.1"}, RecordLayout{}, PageInterleaving{4096, 2}, 10),
               std::runtime_error);
}

TEST(Reliability, CsrBuilderRefusesIdsBeyondTheVertexCount) {
  EdgeList<uint32_t> edges;
  edges.vertices = 4;
  edges.sources = Array<uint32_t>(2, "sources");
  edges.targets = Array<uint32_t>(2, "targets");
  edges.sources[0] = 0, edges.targets[0] = 1;
  edges.sources[1] = 2, edges.targets[1] = 900;
  BuildOptions options;
  options.transpose = true;
  try {
    build_csr(edges, options);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("edge 1 (2 -> 900) leaves the 4 vertices"), std::string::npos) << e.what();
  }
}

// Arrays for random access (PageRank's shares) sit on 2 MiB boundaries,
// so that the kernel can back them with huge pages, hold what is written,
// and refuse a size the machine cannot hold with a message, not a crash.
TEST(Reliability, RandomAccessArrays) {
  for (size_t size : {size_t(0), size_t(10), size_t(3) << 20}) {
    base::Array<uint32_t> a = base::Array<uint32_t>::random_access(size, "a test array");
    ASSERT_EQ(a.size(), size);
    for (size_t i = 0; i < size; ++i) a[i] = uint32_t(i * 7);
    for (size_t i = 0; i < size; i += 4099) ASSERT_EQ(a[i], uint32_t(i * 7));
    if (size * sizeof(uint32_t) >= (size_t(4) << 20)) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % (uintptr_t(2) << 20), 0u);
    }
  }
  try {
    base::Array<double>::random_access(size_t(1) << 60, "an impossible array");
    FAIL() << "2^63 bytes were allocated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("an impossible array"), std::string::npos) << e.what();
  }
}

// Widening, whole (in place, from the back, over bytes read already) or a
// range of it (a rank's own vertices, into a new array): every value in
// the range arrives.
TEST(Reliability, ArraysWidenInPlace) {
  for (size_t size : {size_t(1), size_t(1000), size_t(5) << 20}) {
    for (auto [first, last] : {std::pair<size_t, size_t>{0, size}, {size / 3, size - size / 4}, {size / 2, size / 2}}) {
      // malloc's, or calloc's
      for (bool zeroed : {false, true}) {
        base::Array<int32_t> narrow =
            zeroed ? base::Array<int32_t>::zeros(size, "a zeroed test array") : base::Array<int32_t>(size, "a narrow test array");
        for (size_t i = 0; i < size; ++i) narrow[i] = int32_t(i) * 3 - 7;
        const base::Array<int64_t> wide = std::move(narrow).widened<int64_t>("a wide test array", first, last);
        ASSERT_EQ(wide.size(), size);
        for (size_t i = first; i < last; ++i) ASSERT_EQ(wide[i], int64_t(int32_t(i) * 3 - 7)) << i << " of [" << first << ", " << last << ")";
      }
    }
  }
}

}  // namespace
}  // namespace sluice::test
