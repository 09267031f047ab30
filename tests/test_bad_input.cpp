// Bad input gives an error that names the file and the line or byte, and a
// failed conversion leaves nothing behind.
#include <atomic>
#include <fstream>

#include "base/errors.hpp"
#include "engine/engine.hpp"
#include "formats/csr_builder.hpp"
#include "formats/generators.hpp"
#include "formats/writers.hpp"
#include "layout/sluice_layout.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

// Opening `path` fails with an InputError naming the path and holding every piece.
void expect_input_error(const std::string& path, std::vector<std::string> pieces, const OpenOptions& options = {}) {
  pieces.push_back(path);
  expect_error_with([&] { BlockGraph::open(path, options); }, pieces);
}

TEST(BadInput, MalformedEdgeListLines) {
  TempDir dir;
  write_text(dir / "a.el", "0 1\n1 2\n2 x\n");
  expect_input_error(dir / "a.el", {"line 3", "expected a target vertex id"});
  write_text(dir / "b.el", "0 1\n1 2 3 4\n");
  expect_input_error(dir / "b.el", {"line 2", "expected 2 columns"});
  write_text(dir / "c.el", "# c\n0 1 1.5\n1 2\n");
  expect_input_error(dir / "c.el", {"line 3", "3 columns"});
  write_text(dir / "d.wel", "0 1\n");
  expect_input_error(dir / "d.wel", {"line 1", "3 columns"});
  write_text(dir / "e.el", "0 1\n-1 2\n");
  expect_input_error(dir / "e.el", {"line 2", "expected a vertex id"});
  write_text(dir / "f.el", "0 99999999999999999999999\n");
  expect_input_error(dir / "f.el", {"line 1", "64 bits"});
  write_text(dir / "g.el", "1 2\n0 1\n");
  OpenOptions one_based;
  one_based.load.base = 1;
  expect_input_error(dir / "g.el", {"line 2", "1-based"}, one_based);
  // An error deep in a big file still names its line (parsed in parallel chunks).
  std::string big;
  for (int i = 0; i < 100000; ++i) big += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  big += "5 5 z\n";
  write_text(dir / "big.el", big);
  OpenOptions threads;
  threads.load.threads = 4;
  expect_input_error(dir / "big.el", {"line 100001"}, threads);
}

TEST(BadInput, IdBeyondDeclaredVertexCount) {
  TempDir dir;
  // --vertices is a bound (a SNAP header is not: test_loaders.cpp).
  write_text(dir / "a.el", "0 1\n1 3\n");
  OpenOptions three;
  three.load.vertices = 3;
  expect_input_error(dir / "a.el", {"line 2", "target id 3", "declared vertex count 3"}, three);
  write_text(dir / "b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n");
  expect_input_error(dir / "b.mtx", {"line 4", "source id 4"});
  write_text(dir / "c.adj", "AdjacencyGraph\n2\n2\n0\n1\n1\n2\n");
  expect_input_error(dir / "c.adj", {"line 7", "target id 2"});
  std::vector<uint32_t> pairs = {0, 1, 1, 9};
  std::ofstream(dir / "d.bel", std::ios::binary).write(reinterpret_cast<char*>(pairs.data()), 16);
  OpenOptions declared;
  declared.load.vertices = 5;
  expect_input_error(dir / "d.bel", {"byte 8", "declared vertex count 5"}, declared);
}

TEST(BadInput, MatrixMarketHeaders) {
  TempDir dir;
  write_text(dir / "a.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n2 3\n");
  expect_input_error(dir / "a.mtx", {"declares 5 entries"});
  write_text(dir / "b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n");
  expect_input_error(dir / "b.mtx", {"declares 1 entries", "holds 2"});
  write_text(dir / "c.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  expect_input_error(dir / "c.mtx", {"line 1", "coordinate"});
  write_text(dir / "d.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n");
  expect_input_error(dir / "d.mtx", {"line 1", "complex"});
  write_text(dir / "e.mtx", "not a banner\n");
  expect_input_error(dir / "e.mtx", {"line 1", "%%MatrixMarket"});
  write_text(dir / "f.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 x 1\n1 1\n");
  expect_input_error(dir / "f.mtx", {"line 3", "size line"});
  write_text(dir / "g.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n");
  expect_input_error(dir / "g.mtx", {"line 3", "weight"});
}

TEST(BadInput, AdjacencyGraphs) {
  TempDir dir;
  write_text(dir / "a.adj", "AdjacencyGraph\n3\n2\n0\n1\n1\n");
  expect_input_error(dir / "a.adj", {"3 vertices and 2 edges", "holds 6"});
  write_text(dir / "b.adj", "Adjacency\n1\n0\n0\n");
  expect_input_error(dir / "b.adj", {"line 1", "AdjacencyGraph"});
  write_text(dir / "c.adj", "AdjacencyGraph\n3\n2\n0\n2\n1\n0\n1\n");
  expect_input_error(dir / "c.adj", {"offsets must not decrease"});
}

TEST(BadInput, TruncatedBinaryAndEmptyAndDirectory) {
  TempDir dir;
  std::vector<uint32_t> pairs = {0, 1, 1, 2, 3};
  std::ofstream(dir / "t.bel", std::ios::binary).write(reinterpret_cast<char*>(pairs.data()), 20);
  expect_input_error(dir / "t.bel", {"byte 16", "truncated"});
  std::ofstream(dir / "t.bel64", std::ios::binary).write(reinterpret_cast<char*>(pairs.data()), 20);
  expect_input_error(dir / "t.bel64", {"byte 16", "truncated"});
  for (const char* name : {"empty.el", "empty.mtx", "empty.adj", "empty.sluice", "empty.gr.index"}) {
    write_text(dir / name, "");
    try {
      BlockGraph::open(dir / name);
      ADD_FAILURE() << name;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  std::filesystem::create_directories(dir / "adir.el");
  expect_input_error(dir / "adir.el", {"is a directory"});
  expect_input_error(dir / "missing.el", {"cannot open"});
}

void poke(const std::string& path, uint64_t offset, const std::string& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(offset));
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

class LayoutDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    GeneratorOptions gen;
    gen.scale = 10;
    gen.edge_factor = 8;
    Csr<uint32_t> csr = build_csr(generate_edge_list<uint32_t>(gen), BuildOptions{});
    BlockGraph graph(std::make_unique<InMemorySource<uint32_t>>(std::move(csr), "rmat"), BlockOptions{});
    WriteOptions options;
    for (int d = 0; d < 2; ++d) {
      std::filesystem::create_directories(dir / ("d" + std::to_string(d)));
      options.drive_dirs.push_back(dir / ("d" + std::to_string(d)));
    }
    write_graph(graph, manifest, "sluice", options);
  }
  TempDir dir;
  std::string manifest = dir / "g.sluice";
  std::string drive1 = dir / "d1/g.out.1";
};

TEST_F(LayoutDamage, MissingDriveFile) {
  std::filesystem::remove(drive1);
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"g.out.1", "cannot open"});
}

TEST_F(LayoutDamage, ShortDriveFile) {
  std::filesystem::resize_file(drive1, std::filesystem::file_size(drive1) - 4096);
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"g.out.1", "short"});
}

TEST_F(LayoutDamage, ChecksumMismatchIsFoundByVerify) {
  {
    std::fstream f(drive1, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(5000);
    char byte = 0x5a;
    f.write(&byte, 1);
  }
  SluiceLayout layout(manifest);  // opening does not read the edges
  expect_error_with([&] { layout.verify(); }, {"g.out.1", "byte 4096", "page 1 fails its checksum"});
}

TEST_F(LayoutDamage, CorruptIndexAndManifest) {
  {
    std::fstream f(dir / "g.out.index", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.write("\x7f", 1);
  }
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"index checksum mismatch"});
  write_text(dir / "bad.sluice", "sluice-graph 2\nlayout 0123456789abcdef0123456789abcdef\nvertices ten\n");
  expect_input_error(dir / "bad.sluice", {"line 3", "expected a number for 'vertices'"});
  // The weights' range: two floats, the least first (inf -inf: no edges).
  const std::string head = "sluice-graph 2\nlayout 0123456789abcdef0123456789abcdef\nvertices 10\nedges 1\nweighted 1\nid_bytes 4\n";
  for (const char* range : {"weights 1", "weights 5 1", "weights 1 nan", "weights 1 2 3", "weights one 2"}) {
    write_text(dir / "weights.sluice", head + range + "\n");
    expect_input_error(dir / "weights.sluice", {"line 7", "expected the least and the largest weight for 'weights'"});
  }
  write_text(dir / "v1.sluice", "sluice-graph 1\n");
  expect_input_error(dir / "v1.sluice", {"version 1", "convert the graph again"});
  write_text(dir / "v9.sluice", "sluice-graph 9\n");
  expect_input_error(dir / "v9.sluice", {"version 9"});
}

// The sample file (layout/sampled_targets.hpp) is opened with the layout
// and read when an EDGEMAP over the first edges needs it, and by verify:
// damaged, short or missing, it is an error naming it, never a wrong
// sample.
TEST_F(LayoutDamage, DamagedSampleFile) {
  const std::string sample = dir / "g.out.sample";
  ASSERT_EQ(std::filesystem::file_size(sample), sample_file_bytes(1024, 2));
  auto first_edges = [&] {
    engine::DiskGraph graph(manifest);
    engine::Engine engine(graph, engine::EngineOptions{});
    std::vector<uint32_t> seen(graph.vertices(), 0);
    struct Count {
      std::vector<uint32_t>& seen;
      bool cond(uint64_t) const { return true; }
      bool scatter(uint64_t, uint64_t, float, uint32_t& out) const { return out = 1, true; }
      bool gather_atomic(uint64_t dst, const uint32_t&) { return std::atomic_ref<uint32_t>(seen[dst]).fetch_add(1), false; }
    } count{seen};
    engine.edge_map_first<uint32_t>(engine::VertexSubset::all(graph.vertices()), count, 2, false);
    EXPECT_EQ(engine.last_stats().bytes_read, sample_file_bytes(1024, 2));
    EXPECT_EQ(engine.last_stats().active_pages, 0u);
  };
  first_edges();
  // A target in the body: its piece fails its checksum when read.
  poke(sample, 200, "\x7f");
  expect_error_with(first_edges, {"g.out.sample:byte 64", "piece 0 fails its checksum"});
  expect_error_with([&] { SluiceLayout(manifest).verify(); }, {"g.out.sample", "piece 0 fails its checksum"});
  // Held in memory, it is checked as the engine opens, before any EDGEMAP.
  expect_error_with([&] {
    engine::DiskGraph graph(manifest);
    engine::EngineOptions options;
    options.io.backend = io::BackendKind::memory;
    options.hold_samples = true;
    engine::Engine engine(graph, options);
  }, {"g.out.sample:byte 64", "piece 0 fails its checksum"});
  // The table: opening fails.
  poke(sample, sample_file_bytes(1024, 2) - 3, "\x01");
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"g.out.sample", "checksum mismatch of its header and piece table"});
  std::filesystem::resize_file(sample, 64);
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"g.out.sample", "holds 64 bytes, expected 8264"});
  std::filesystem::remove(sample);
  expect_error_with([&] { SluiceLayout layout(manifest); }, {"g.out.sample", "cannot open"});
}

TEST(BadInput, FailedConversionLeavesNothingBehind) {
  TempDir dir;
  write_text(dir / "in.el", "0 1\n1 2\n");
  auto graph = BlockGraph::open(dir / "in.el");
  std::vector<std::string> before = dir.files();
  // A writer that fails half way: Blaze refuses weighted graphs before writing,
  // so fail during the edges instead with a request that cannot be served.
  write_text(dir / "w.wel", "0 1 2\n");
  auto weighted = BlockGraph::open(dir / "w.wel");
  EXPECT_THROW(write_graph(*weighted, dir / "out.gr.index", "blaze", {}), std::runtime_error);
  WriteOptions missing_drive;
  missing_drive.drive_dirs = {dir / "no-such-dir"};
  EXPECT_THROW(write_graph(*graph, dir / "out.sluice", "sluice", missing_drive), std::runtime_error);
  // A directory where the output file should go.
  std::filesystem::create_directories(dir / "taken.el");
  EXPECT_THROW(write_graph(*graph, dir / "taken.el", "el", {}), std::runtime_error);
  std::filesystem::remove(dir / "taken.el");
  std::vector<std::string> after = dir.files();
  after.erase(std::remove(after.begin(), after.end(), "w.wel"), after.end());
  EXPECT_EQ(before, after);
}

}  // namespace
}  // namespace sluice::test
