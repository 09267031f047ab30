// WebGraph BV decoding: every graph in ../shared/data against the Java
// reference decode, offsets rebuilt when missing, corrupt input rejected
// with a clear error, and a fuzz loop over mutated files.
#include <random>

#include "formats/webgraph_bv.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

const std::string data = SLUICE_SHARED_DATA;

// The reference decode: "n", then the successors of node i on line i + 2.
RefGraph read_reference(const std::string& gz) {
  TempDir dir;
  std::string text = dir / "ref.txt";
  EXPECT_EQ(std::system(("gzip -dc '" + gz + "' > '" + text + "'").c_str()), 0);
  std::ifstream in(text);
  RefGraph g;
  std::string line;
  std::getline(in, line);
  g.n = std::stoull(line);
  for (uint64_t v = 0; v < g.n && std::getline(in, line); ++v) {
    std::istringstream words(line);
    uint64_t t;
    while (words >> t) g.edges.push_back({v, t, 1.0f});
  }
  return g;
}

RefGraph read_async(BlockGraph& graph) {
  std::vector<std::vector<Edge>> lists(graph.info().vertices);
  auto id = graph.request(0, graph.info().vertices, [&](const EdgeBlock& block) {
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        lists[v].push_back({v, block.target(e - block.first_edge()), 1.0f});  // each v in one block only
      }
    }
    graph.release(block);
  });
  graph.wait(id);
  RefGraph g;
  g.n = graph.info().vertices;
  for (auto& list : lists) g.edges.insert(g.edges.end(), list.begin(), list.end());
  return g;
}

struct Case {
  std::string basename, reference;
};

std::vector<Case> cases() {
  return {{data + "/cnr-2000/cnr-2000", data + "/cnr-2000/cnr-2000.graph-txt.gz"},
          {data + "/cnr-2000/cnr-2000-t", data + "/cnr-2000/cnr-2000-t.graph-txt.gz"},
          {data + "/rmat14-bv/rmat14", data + "/rmat14-bv/rmat14.graph-txt.gz"},
          {data + "/rmat14-bv/rmat14-w0i0", data + "/rmat14-bv/rmat14.graph-txt.gz"},
          {data + "/rmat14-bv/rmat14-k5flags", data + "/rmat14-bv/rmat14.graph-txt.gz"}};
}

TEST(WebGraphBv, EveryGraphDecodesToTheReference) {
  if (!std::filesystem::exists(data + "/cnr-2000")) GTEST_SKIP() << "no " << data;
  for (const Case& c : cases()) {
    RefGraph expected = read_reference(c.reference);
    auto sync = BlockGraph::open(c.basename + ".graph");
    EXPECT_EQ(sync->format(), "bv");
    expect_same_graph(expected, read_all(*sync), c.basename + " sync");
    for (uint64_t block_edges : {1000ull, 65536ull}) {
      OpenOptions options;
      options.blocks.block_edges = block_edges;
      options.blocks.buffers = 4;
      options.blocks.threads = 3;
      auto graph = BlockGraph::open(c.basename + ".properties", options);
      expect_same_graph(expected, read_async(*graph), c.basename + " async " + std::to_string(block_edges));
    }
  }
}

// A copy of a BV graph's files in a temporary directory, to damage.
struct GraphCopy {
  TempDir dir;
  std::string base = dir / "g";
  explicit GraphCopy(const std::string& from, bool with_offsets = true) {
    std::filesystem::copy_file(from + ".graph", base + ".graph");
    std::filesystem::copy_file(from + ".properties", base + ".properties");
    if (with_offsets) std::filesystem::copy_file(from + ".offsets", base + ".offsets");
  }
  void set_property(const std::string& key, const std::string& value) {
    std::ifstream in(base + ".properties");
    std::string text, line;
    while (std::getline(in, line)) {
      if (line.rfind(key + "=", 0) == 0) line = key + "=" + value;
      text += line + "\n";
    }
    write_text(base + ".properties", text);
  }
};

TEST(WebGraphBv, MissingOffsetsAreRebuiltAndSavedIdentically) {
  if (!std::filesystem::exists(data + "/rmat14-bv")) GTEST_SKIP();
  for (const char* name : {"rmat14", "rmat14-k5flags", "rmat14-w0i0"}) {
    std::string original = data + "/rmat14-bv/" + name;
    GraphCopy copy(original, false);
    OpenOptions options;
    options.save_offsets = true;
    auto graph = BlockGraph::open(copy.base + ".graph", options);
    expect_same_graph(read_all(*BlockGraph::open(original + ".graph")), read_all(*graph), name);
    std::ifstream a(original + ".offsets", std::ios::binary), b(copy.base + ".offsets", std::ios::binary);
    std::string sa((std::istreambuf_iterator<char>(a)), {}), sb((std::istreambuf_iterator<char>(b)), {});
    EXPECT_EQ(sa, sb) << name << ": the saved .offsets differs from WebGraph's";
  }
}

void expect_bv_error(const std::string& path, const std::string& piece) {
  expect_error_with([&] { read_all(*BlockGraph::open(path)); }, {piece});
}

TEST(WebGraphBv, CorruptInputGivesClearErrors) {
  if (!std::filesystem::exists(data + "/rmat14-bv")) GTEST_SKIP();
  const std::string original = data + "/rmat14-bv/rmat14";
  {
    GraphCopy copy(original);
    std::filesystem::resize_file(copy.base + ".graph", std::filesystem::file_size(copy.base + ".graph") / 2);
    expect_bv_error(copy.base + ".graph", "past the end");
  }
  {
    GraphCopy copy(original, false);  // truncated and no offsets: the sequential pass hits the end
    std::filesystem::resize_file(copy.base + ".graph", std::filesystem::file_size(copy.base + ".graph") / 2);
    expect_bv_error(copy.base + ".graph", "g.graph:bit ");
  }
  {
    GraphCopy copy(original);
    copy.set_property("arcs", "120020");
    expect_bv_error(copy.base + ".graph", "arcs=120020");
  }
  {
    GraphCopy copy(original);
    copy.set_property("nodes", "20000");
    expect_bv_error(copy.base + ".graph", "g.offsets");
  }
  {
    GraphCopy copy(original);
    copy.set_property("nodes", "100");
    expect_bv_error(copy.base + ".graph", "");
  }
  {
    GraphCopy copy(original);
    copy.set_property("compressionflags", "OUTDEGREES_GAMMA | RESIDUALS_HUFFMAN");
    expect_bv_error(copy.base + ".graph", "unknown compression flag 'RESIDUALS_HUFFMAN'");
  }
  {
    GraphCopy copy(original);
    copy.set_property("version", "1");
    expect_bv_error(copy.base + ".graph", "version 1");
  }
  {
    GraphCopy copy(original);
    // Offsets whose first gap is huge point past the end of the graph.
    write_text(copy.base + ".offsets", std::string("\x00\x00\x01\xff\xff", 5) + std::string(40000, '\xff'));
    expect_bv_error(copy.base + ".graph", "points past the end");
  }
  {
    GraphCopy copy(original);
    std::filesystem::remove(copy.base + ".properties");
    expect_bv_error(copy.base + ".graph", "cannot open");
  }
}

// Mutated files must give a graph or an InputError: never a crash, a hang,
// or another kind of failure (ASan and UBSan watch the CI build of this).
TEST(WebGraphBv, FuzzMutatedFiles) {
  if (!std::filesystem::exists(data + "/rmat14-bv")) GTEST_SKIP();
  std::mt19937_64 random(2026);
  const char* names[] = {"rmat14", "rmat14-k5flags", "rmat14-w0i0"};
  int rejected = 0, accepted = 0;
  for (int round = 0; round < 120; ++round) {
    std::string original = data + "/rmat14-bv/" + names[round % 3];
    GraphCopy copy(original, round % 4 != 0);
    std::string victim = copy.base + ((round % 4 == 1) ? ".offsets" : ".graph");
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    uint64_t size = std::filesystem::file_size(victim);
    int flips = 1 + int(random() % 8);
    for (int i = 0; i < flips; ++i) {
      // Mostly near the start, where the flips change the most structure.
      uint64_t at = (random() % 2) ? random() % std::min<uint64_t>(size, 512) : random() % size;
      f.seekp(std::streamoff(at));
      char byte = char(random());
      f.write(&byte, 1);
    }
    f.close();
    if (round % 7 == 3) std::filesystem::resize_file(victim, random() % size);
    try {
      OpenOptions options;
      options.blocks.block_edges = 4096;
      auto graph = BlockGraph::open(copy.base + ".graph", options);
      read_async(*graph);
      ++accepted;
    } catch (const InputError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  std::cout << "fuzz: " << rejected << " rejected, " << accepted << " decoded\n";
}

}  // namespace
}  // namespace sluice::test
