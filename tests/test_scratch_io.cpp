// Scratch files written and read on a worker thread (a bounded
// conversion's spills): the worker runs tasks in order and hands a
// task's error to every caller after it; appenders with a worker write
// exactly what appenders without one write, and readers return the
// bytes in order, piece boundaries on whole records. A bounded build's
// lanes place ranges while its worker hands the placed ones to a writer,
// and its passes consume an input's windows while the next is read.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/serial_worker.hpp"
#include "base/temp_file.hpp"
#include "base/varint.hpp"
#include "formats/block_graph.hpp"
#include "formats/csr_builder.hpp"
#include "formats/external_csr.hpp"
#include "formats/windows_behind.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

TEST(ScratchIo, WorkerRunsTasksInOrderAndWaitsForThem) {
  base::SerialWorker worker;
  std::vector<int> order;
  base::SerialWorker::Ticket last = 0;
  for (int i = 0; i < 1000; ++i) last = worker.submit([&order, i] { order.push_back(i); });
  worker.wait(last);
  ASSERT_EQ(order.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(order[size_t(i)], i);
  worker.wait(0);  // nothing: returns at once
}

TEST(ScratchIo, ATasksErrorReachesEveryCallerAfterItAndSkipsTheRest) {
  base::SerialWorker worker;
  std::atomic<int> ran{0};
  // The worker is held in the first task until all three are queued: a
  // submit after the error has happened throws it.
  std::promise<void> queued;
  worker.submit([&, all_queued = queued.get_future().share()] {
    all_queued.wait();
    ++ran;
  });
  const auto failing = worker.submit([] { throw std::runtime_error("the disk is full"); });
  const auto skipped = worker.submit([&] { ++ran; });
  queued.set_value();
  worker.wait_quietly(skipped);
  EXPECT_EQ(ran.load(), 1);
  EXPECT_THROW(worker.wait(failing), std::runtime_error);
  EXPECT_THROW(worker.wait(skipped), std::runtime_error);
  try {
    worker.submit([] {});
    FAIL() << "submit after an error did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the disk is full");
  }
}

// Records of 12 bytes (not a divisor of any buffer) through reserve and
// append, into regions of one file, as the spill pass writes them.
std::vector<char> records(uint64_t count, uint64_t seed) {
  std::vector<char> bytes(count * 12);
  for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = char((i * 131 + seed * 7) % 251);
  return bytes;
}

// A scratch file that holds `bytes`.
base::TempFile file_holding(const TempDir& dir, const std::vector<char>& bytes) {
  base::TempFile file(dir.path(), "records");
  file.append(bytes.data(), bytes.size());
  return file;
}

void write_regions(base::TempFile& file, base::SerialWorker* worker, const std::vector<std::vector<char>>& regions) {
  std::vector<base::TempFileAppender> appenders;
  appenders.reserve(regions.size());
  uint64_t at = 0;
  for (const auto& r : regions) appenders.emplace_back(file, 4096 + 100, at, worker), at += r.size();
  // Interleaved, a record at a time, as the spill loop writes them.
  for (uint64_t i = 0;; ++i) {
    bool any = false;
    for (size_t r = 0; r < regions.size(); ++r) {
      if ((i + 1) * 12 > regions[r].size()) continue;
      std::memcpy(appenders[r].reserve(12), regions[r].data() + i * 12, 12);
      any = true;
    }
    if (!any) break;
  }
  for (auto& a : appenders) a.flush();
}

TEST(ScratchIo, AppendersAndReadersOnAWorkerMoveTheSameBytes) {
  TempDir dir;
  std::vector<std::vector<char>> regions;
  for (uint64_t r = 0; r < 7; ++r) regions.push_back(records(r * 997 + 1, r));
  base::TempFile alone(dir.path(), "records"), behind(dir.path(), "records");
  write_regions(alone, nullptr, regions);
  base::SerialWorker worker;
  write_regions(behind, &worker, regions);
  ASSERT_EQ(alone.size(), behind.size());
  std::vector<char> a(alone.size()), b(behind.size());
  alone.read(a.data(), a.size(), 0);
  behind.read(b.data(), b.size(), 0);
  EXPECT_EQ(a, b);

  // append() across buffer boundaries, then read back in pieces of whole records.
  base::TempFile out(dir.path(), "the CSR");
  std::vector<char> expected;
  {
    base::TempFileAppender appender(out, 1000, UINT64_MAX, &worker);
    for (const auto& r : regions) appender.append(r.data(), r.size()), expected.insert(expected.end(), r.begin(), r.end());
    appender.flush();
  }
  ASSERT_EQ(out.size(), expected.size());
  base::TempFileReader reader(out, worker, 5000, 12);
  uint64_t begin = 0;
  for (const auto& r : regions) {
    std::vector<char> got;
    reader.for_each_piece(begin, begin + r.size(), [&](const char* data, uint64_t bytes) {
      EXPECT_EQ(bytes % 12, 0u);
      EXPECT_LE(bytes, 5000u);
      got.insert(got.end(), data, data + bytes);
    });
    EXPECT_EQ(got, r);
    begin += r.size();
  }
}

// Records of variable size (varints) written in place through the
// appender's cursor, room made for each at its longest, read back in
// pieces with a lookahead: a record that starts in
// a piece is whole in it and its lookahead, and past the file's end the
// lookahead reads zeros.
TEST(ScratchIo, VariableRecordsReadBackAcrossPiecesWithALookahead) {
  TempDir dir;
  base::TempFile file(dir.path(), "varints");
  std::vector<uint64_t> values;
  for (uint64_t k = 0; k < 5000; ++k) values.push_back(k % 7 == 0 ? ~uint64_t(0) >> (k % 64) : k * k % 300);
  base::SerialWorker worker;
  {
    base::TempFileAppender appender(file, 256, UINT64_MAX, &worker);
    char* at = appender.cursor();
    for (uint64_t v : values) at = base::put_varint(appender.advance(at, 10), v);  // room for a varint at its longest
    appender.advance(at, 0);
    appender.flush();
    EXPECT_EQ(appender.position(), file.size());
  }
  for (uint64_t piece : {1, 7, 100, 4096}) {
    base::TempFileReader reader(file, worker, piece, 1, 10);
    std::vector<uint64_t> got;
    uint64_t skip = 0;
    reader.for_each_piece(0, file.size(), [&](const char* data, uint64_t bytes) {
      const char* at = data + skip;
      while (at < data + bytes) got.push_back(base::get_varint_unchecked(at));
      skip = uint64_t(at - (data + bytes));
    });
    EXPECT_EQ(skip, 0u);
    EXPECT_EQ(got, values) << "pieces of " << piece;
  }
  // The last piece's lookahead, past the end of the file: zeros.
  base::TempFileReader reader(file, worker, 1 << 20, 1, 10);
  reader.for_each_piece(0, file.size(), [&](const char* data, uint64_t bytes) {
    EXPECT_EQ(std::count(data + bytes, data + bytes + 10, 0), 10);
  });
}

// Whole ranges read one ahead of the one taken: each taken range holds
// its bytes and, past them, the file's next ones or zeros at its end, and
// stays intact while the next is read.
TEST(ScratchIo, WholeRangesAreReadOneAheadOfTheOneTaken) {
  TempDir dir;
  const std::vector<char> bytes = records(1000, 1);
  const base::TempFile file = file_holding(dir, bytes);
  base::SerialWorker worker;
  base::TempFileWholeReads reads(file, worker, 3000, 16);
  const std::vector<std::pair<uint64_t, uint64_t>> ranges{{0, 3000}, {3000, 3000}, {5000, 7990}, {9000, bytes.size()}, {100, 200}};
  reads.fetch(ranges[0].first, ranges[0].second);
  for (size_t k = 0; k < ranges.size(); ++k) {
    const auto [begin, end] = ranges[k];
    const char* data = reads.take();
    if (k + 1 < ranges.size()) reads.fetch(ranges[k + 1].first, ranges[k + 1].second);
    const uint64_t beyond = std::min<uint64_t>(16, bytes.size() - end);
    EXPECT_TRUE(std::equal(data, data + (end - begin) + beyond, bytes.begin() + long(begin))) << "range " << k;
    EXPECT_EQ(std::count(data + (end - begin) + beyond, data + (end - begin) + 16, 0), long(16 - beyond)) << "range " << k;
  }
  EXPECT_THROW(reads.take(), std::logic_error);                  // nothing fetched
  EXPECT_THROW(reads.fetch(0, 3001), std::logic_error);          // longer than its buffers
  reads.fetch(0, 10);
  EXPECT_THROW(reads.fetch(10, 20), std::logic_error);           // one read waits already
  reads.take();
  reads.fetch(bytes.size() - 10, bytes.size() + 10);
  EXPECT_THROW(reads.take(), std::logic_error);                  // past the end of the file
}

TEST(ScratchIo, AReadPastTheEndIsAnErrorFromTheReader) {
  TempDir dir;
  const std::vector<char> bytes = records(100, 1);
  const base::TempFile file = file_holding(dir, bytes);
  base::SerialWorker worker;
  base::TempFileReader reader(file, worker, 240, 12);
  EXPECT_THROW(reader.for_each_piece(0, bytes.size() + 1200, [](const char*, uint64_t) {}), std::logic_error);
}

// A drive file written behind, through the page cache or with O_DIRECT
// (whole pages; a partial last page through the cache): the same bytes,
// the header rewritten at the end, and nothing left when it is dropped
// uncommitted.
TEST(ScratchIo, AtomicFilesWrittenBehindHoldTheSameBytes) {
  TempDir dir;
  const std::vector<char> bytes = records(50000, 3);
  base::SerialWorker worker;
  for (const std::string mode : {"alone", "behind", "direct"}) {
    base::AtomicFile file(dir / mode, 4096);
    if (mode != "alone") file.write_behind(worker, mode == "direct");
    file.write_zeros(100);
    for (uint64_t at = 0; at < bytes.size(); at += 777) file.write(bytes.data() + at, std::min<uint64_t>(777, bytes.size() - at));
    file.rewrite(0, "header", 6);
    file.commit();
  }
  auto contents = [&](const std::string& name) {
    std::ifstream in(dir / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  const std::string a = contents("alone");
  EXPECT_EQ(a.size(), 100 + bytes.size());
  EXPECT_EQ(a, contents("behind"));
  EXPECT_EQ(a, contents("direct"));
  EXPECT_EQ(a.substr(0, 6), "header");
  {
    base::AtomicFile dropped(dir / "dropped", 4096);
    dropped.write_behind(worker);
    dropped.write(bytes.data(), bytes.size());
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "dropped"));
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"alone", "behind", "direct"}));
}

// Two lanes place ranges into one set of arrays while the worker hands the
// other set's to a writer (and spills their transpose records): the
// writer sees the in-memory build's lists, then the transpose's.
// A reader that reuses its window's arrays, as the binary edge list's
// does, fills the next window while the last is consumed on the worker:
// every window arrives whole and in order, and a consumer's error reaches
// the reader at its next window, or at the end.
TEST(ScratchIo, WindowsAreConsumedBehindAReaderThatReusesItsArrays) {
  auto read = [](formats::WindowsBehind& behind, int windows) {
    formats::EdgeList<uint64_t> window;
    for (int w = 0; w < windows; ++w) {
      const uint64_t count = 1000 + uint64_t(w % 3);
      if (window.size() != count) window.sources = Array<uint64_t>(count), window.targets = Array<uint64_t>(count);
      for (uint64_t e = 0; e < count; ++e) window.sources[e] = uint64_t(w), window.targets[e] = e;
      behind.hand_over(window);
    }
    behind.finish();
  };
  std::vector<uint64_t> seen;
  formats::WindowsBehind behind([&](formats::EdgeList<uint64_t>& w) {
    for (uint64_t e = 0; e < w.size(); ++e) {
      ASSERT_EQ(w.sources[e], w.sources[0]);
      ASSERT_EQ(w.targets[e], e);
    }
    seen.push_back(w.sources[0]);
  });
  read(behind, 40);
  std::vector<uint64_t> expected(40);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(seen, expected);

  for (int failing : {3, 39}) {
    int consumed = 0;
    formats::WindowsBehind fails([&](formats::EdgeList<uint64_t>&) {
      if (consumed++ == failing) throw std::runtime_error("edge 7 leaves the vertices");
    });
    EXPECT_THROW(read(fails, 40), std::runtime_error);
    EXPECT_EQ(consumed, failing + 1) << "the windows after an error are not consumed";
  }
}

TEST(ScratchIo, ABoundedBuildHandsPlacedRangesToAWriterWhileTheLanesPlaceMore) {
  TempDir dir;
  std::vector<uint32_t> sources, targets;
  uint64_t state = 5;
  for (int e = 0; e < 60000; ++e) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    sources.push_back(uint32_t((state >> 33) % 20000));
    targets.push_back(uint32_t(((state >> 17) % 20000) * ((state >> 45) % 20000) / 20000));  // low ids are hubs
  }
  formats::EdgePasses passes;
  passes.vertices = 20000;
  passes.edges = sources.size();
  passes.format = "test";
  passes.pass = [&](const formats::EdgeConsumer& consume) {
    std::vector<uint64_t> s64(sources.begin(), sources.end()), t64(targets.begin(), targets.end());
    for (uint64_t first = 0; first < s64.size(); first += 7000) {
      consume(formats::EdgeChunk{s64.data() + first, t64.data() + first, nullptr, std::min<uint64_t>(7000, s64.size() - first)});
    }
  };
  formats::BuildOptions o;
  o.threads = 2;
  o.transpose_alongside = true;
  o.memory.limit = uint64_t(64) << 20;
  o.memory.range_bytes = uint64_t(8) << 10;
  o.memory.temp_dir = dir.path();
  const std::unique_ptr<formats::GraphSource> built = formats::build_external_csr(std::move(passes), o);
  const std::unique_ptr<formats::GraphSource> transpose = built->built_transpose();
  formats::EdgeList<uint32_t> list;
  list.vertices = 20000;
  list.sources = Array<uint32_t>(sources.size());
  list.targets = Array<uint32_t>(sources.size());
  std::copy(sources.begin(), sources.end(), list.sources.data());
  std::copy(targets.begin(), targets.end(), list.targets.data());
  formats::BuildOptions in_memory;
  in_memory.threads = 1;
  const formats::Csr<uint32_t> expected = formats::build_csr(list, in_memory);
  // The transpose transpose_of builds: the graph's edges in CSR order, reversed.
  for (uint64_t u = 0, e = 0; u < 20000; ++u) {
    for (; e < expected.offsets[u + 1]; ++e) list.sources[e] = uint32_t(u), list.targets[e] = expected.targets[e];
  }
  in_memory.transpose = true;
  const formats::Csr<uint32_t> expected_transpose = formats::build_csr(list, in_memory);
  for (auto [source, csr] : {std::pair{built.get(), &expected}, std::pair{transpose.get(), &expected_transpose}}) {
    std::vector<uint64_t> offsets{0};
    std::vector<uint32_t> lists;
    ASSERT_TRUE(source->stream_once([&](const formats::EdgeBlock& block) {
      for (uint64_t v = block.begin; v < block.end; ++v) offsets.push_back(block.offsets[v - block.begin + 1]);
      const std::span<const uint32_t> t = block.targets_as<uint32_t>();
      lists.insert(lists.end(), t.begin(), t.end());
    }));
    EXPECT_EQ(offsets, std::vector<uint64_t>(csr->offsets.data(), csr->offsets.data() + 20001));
    EXPECT_EQ(lists, std::vector<uint32_t>(csr->targets.data(), csr->targets.data() + csr->edges()));
  }
}

}  // namespace
}  // namespace sluice::test
