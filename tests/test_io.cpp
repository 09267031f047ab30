// The IO layer: every backend returns exactly the bytes pread returns, with
// one and several drives; requests merge and split as documented; errors
// (past the end, EIO, short reads, a file truncated under us) surface as
// IoError naming the drive and offset; shutdown with reads in flight
// neither hangs nor leaks.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "io/device_profile.hpp"
#include "io/io_service.hpp"
#include "io/read_benchmark.hpp"
#include "tests/test_support.hpp"

namespace sluice::test {
namespace {

using namespace sluice::io;

// Files whose every 8-byte word holds (file index, byte offset), so any
// misplaced byte shows.
std::vector<std::string> make_drive_files(const TempDir& dir, unsigned count, uint64_t bytes) {
  std::vector<std::string> paths;
  for (unsigned f = 0; f < count; ++f) {
    std::string path = dir / ("drive" + std::to_string(f));
    std::vector<uint64_t> words(bytes / 8);
    for (uint64_t i = 0; i < words.size(); ++i) words[i] = (uint64_t(f) << 56) | (i * 8);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<char*>(words.data()), std::streamsize(bytes));
    paths.push_back(path);
  }
  return paths;
}

void expect_content(unsigned drive, uint64_t offset, const char* data, uint64_t length) {
  for (uint64_t i = 0; i < length; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    ASSERT_EQ(word, (uint64_t(drive) << 56) | (offset + i)) << "drive " << drive << " offset " << offset + i;
  }
}

const BackendKind all_backends[] = {BackendKind::uring, BackendKind::aio, BackendKind::psync};

IoOptions options_for(BackendKind backend) {
  IoOptions options;
  options.backend = backend;
  return options;
}

TEST(DriveSet, PageInterleaving) {
  TempDir dir;
  DriveSet drives(make_drive_files(dir, 3, 8192), false);
  EXPECT_EQ(drives.drives(), 3u);
  EXPECT_EQ(drives.drive_of(0), 0u);
  EXPECT_EQ(drives.drive_of(4), 1u);
  EXPECT_EQ(drives.offset_on_drive(4), 4096u);
  EXPECT_EQ(drives.offset_on_drive(7), 2 * 4096u);
  EXPECT_THROW(DriveSet({dir / "missing"}), std::runtime_error);
}

TEST(IoService, EveryBackendReadsExactlyTheRightBytes) {
  TempDir dir;
  const uint64_t size = 4 << 20;
  for (unsigned drive_count : {1u, 3u}) {
    auto paths = make_drive_files(dir, drive_count, size);
    for (BackendKind backend : {BackendKind::uring, BackendKind::aio, BackendKind::psync, BackendKind::memory}) {
      // (completions per wait, completions per hand-off): the defaults,
      // the whole depth one by one, and a hand-off larger than the depth.
      for (auto [completion_batch, handoff_batch] : {std::pair{1u, 8u}, {8u, 1u}, {3u, 64u}}) {
        for (bool direct : {true, false}) {
          DriveSet drives(paths, direct);
          IoOptions options;
          options.backend = backend;
          options.completion_batch = completion_batch;
          options.handoff_batch = handoff_batch;
          options.queue_depth = 8;
          options.max_request_bytes = 64 << 10;
          options.buffers = 12;
          IoService service(drives, options);
          std::mt19937_64 random(7);
          uint64_t expected_bytes = 0;
          for (unsigned d = 0; d < drive_count; ++d) {
            std::vector<Extent> extents;
            for (int i = 0; i < 200; ++i) {
              uint64_t pages = 1 + random() % 40;  // up to 160 KiB: split at 64 KiB
              uint64_t offset = (random() % (size / 4096 - pages)) * 4096;
              extents.push_back({offset, pages * 4096});
              expected_bytes += pages * 4096;
            }
            service.read(d, extents);
          }
          uint64_t bytes = 0;
          Filled f;
          while (service.next(f)) {
            EXPECT_LE(f.length, options.max_request_bytes);
            expect_content(f.drive, f.offset, f.data, f.length);
            bytes += f.length;
            service.release(f);
          }
          EXPECT_EQ(bytes, expected_bytes) << backend_name(backend);
        }
      }
    }
  }
}

// Services that take turns read into one pool: each gets the right bytes,
// every buffer is free again after each turn, and one service's shutdown
// (its wake-up tokens left in the pool) does not disturb the other.
TEST(IoService, ServicesTakingTurnsShareOnePool) {
  TempDir first_dir, second_dir;
  const uint64_t size = 2 << 20;
  const auto first_paths = make_drive_files(first_dir, 1, size), second_paths = make_drive_files(second_dir, 3, size);
  for (BackendKind backend : all_backends) {
    IoOptions options = options_for(backend);
    options.queue_depth = 8;
    options.max_request_bytes = 64 << 10;
    auto pool = std::make_shared<BufferPool>(5, options.max_request_bytes);  // fewer than one depth
    DriveSet first_drives(first_paths), second_drives(second_paths);
    auto first = std::make_unique<IoService>(first_drives, options, pool);
    IoService second(second_drives, options, pool);
    auto turn = [&](IoService& service, unsigned drives, uint64_t seed) {
      std::mt19937_64 random(seed);
      uint64_t expected = 0, bytes = 0;
      for (unsigned d = 0; d < drives; ++d) {
        std::vector<Extent> extents;
        for (int i = 0; i < 100; ++i) {
          const uint64_t pages = 1 + random() % 24;
          extents.push_back({(random() % (size / 4096 - pages)) * 4096, pages * 4096});
          expected += pages * 4096;
        }
        service.read(d, extents);
      }
      Filled f;
      while (service.next(f)) {
        expect_content(f.drive, f.offset, f.data, f.length);
        bytes += f.length;
        service.release(f);
      }
      EXPECT_EQ(bytes, expected) << backend_name(backend);
    };
    turn(*first, 1, 1);
    turn(second, 3, 2);
    turn(*first, 1, 3);
    first.reset();
    turn(second, 3, 4);
    std::vector<int> free;
    for (int b; pool->try_take(b);) {
      if (b >= 0) free.push_back(b);
    }
    EXPECT_EQ(free.size(), pool->size()) << backend_name(backend);
  }
  DriveSet drives(first_paths);
  IoOptions options;
  options.max_request_bytes = 64 << 10;
  EXPECT_THROW(IoService(drives, options, std::make_shared<BufferPool>(2, 4096)), std::invalid_argument);
}

// Pinned memory (VmPin) in kilobytes: what io_uring's registered buffers hold.
uint64_t pinned_kb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmPin:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

// VmPin once it has held still for 100 ms: a ring an earlier test in
// this process closed gives its pinned buffers back in a kernel worker,
// after an RCU grace period, well after the close has returned (counts
// taken meanwhile made a later one look short by a whole pool).
uint64_t settled_pinned_kb() {
  uint64_t now = pinned_kb();
  for (int still = 0, tries = 0; still < 20 && tries < 600; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const uint64_t later = pinned_kb();
    still = later == now ? still + 1 : 0;
    now = later;
  }
  return now;
}

// io_uring registers (pins) a service's buffers once it has read a
// quarter of their bytes, not at its start or its first read: an edge set
// that is never read holds no memory, and one read a few pages costs no
// registration.
// io_uring with 16 buffers, 4 reads in flight.
IoOptions small_uring() {
  IoOptions options = options_for(BackendKind::uring);
  options.queue_depth = 4;
  options.buffers = 16;
  return options;
}

// Reads one extent of `drive` through `service`, the only read queued, and checks its bytes.
void read_and_check(IoService& service, unsigned drive, const Extent& extent) {
  service.read(drive, std::span<const Extent>(&extent, 1));
  Filled f;
  ASSERT_TRUE(service.next(f));
  expect_content(drive, extent.offset, f.data, f.length);
  service.release(f);
  EXPECT_FALSE(service.next(f));
}

// An io_uring service over `count` drive files, and what was pinned
// before it opened.
struct UringService {
  TempDir dir;
  DriveSet drives;
  const IoOptions options = small_uring();
  const uint64_t before = settled_pinned_kb();
  IoService service;
  explicit UringService(unsigned count) : drives(make_drive_files(dir, count, 1 << 20)), service(drives, options) {}
};

TEST(IoService, UringPinsItsBuffersOnceItHasReadAQuarterOfThem) {
  UringService uring(1);
  EXPECT_EQ(pinned_kb(), uring.before) << "pinned before any read";
  read_and_check(uring.service, 0, Extent{4096, 8192});
  EXPECT_EQ(pinned_kb(), uring.before) << "pinned for a read of 8 KiB";
  // A quarter of the pool: 4 buffers of max_request_bytes, read as whole
  // drive files of that size; the first 8 KiB counted too.
  const uint64_t quarter = uring.options.buffers * uring.options.max_request_bytes / 4;
  ASSERT_EQ(quarter % (1 << 20), 0u);
  for (uint64_t read = 0; read < quarter; read += 1 << 20) read_and_check(uring.service, 0, Extent{0, 1 << 20});
  if (pinned_kb() == uring.before) GTEST_SKIP() << "the buffers were not registered (RLIMIT_MEMLOCK?); reads ran unregistered";
  EXPECT_GE(pinned_kb() - uring.before, uring.options.buffers * (uring.options.max_request_bytes >> 10));
}

// ready() pins them before any read (a program whose algorithm reads the
// set, before its first trial), once: the reads after it are served alike.
TEST(IoService, UringPinsItsBuffersWhenReadied) {
  UringService uring(2);
  uring.service.ready();
  if (pinned_kb() == uring.before) GTEST_SKIP() << "the buffers were not registered (RLIMIT_MEMLOCK?)";
  const uint64_t readied = pinned_kb() - uring.before;
  EXPECT_GE(readied, 2 * uring.options.buffers * (uring.options.max_request_bytes >> 10)) << "both drives' rings";
  uring.service.ready();
  for (unsigned drive = 0; drive < 2; ++drive) read_and_check(uring.service, drive, Extent{4096 * (drive + 1), 8192});
  EXPECT_EQ(pinned_kb() - uring.before, readied) << "registered again";
}

TEST(IoService, RejectsAZeroDepthOrBatch) {
  TempDir dir;
  DriveSet drives(make_drive_files(dir, 1, 1 << 20));
  for (auto set : {+[](IoOptions& o) { o.queue_depth = 0; }, +[](IoOptions& o) { o.completion_batch = 0; },
                   +[](IoOptions& o) { o.handoff_batch = 0; }}) {
    IoOptions options;
    set(options);
    EXPECT_THROW(IoService(drives, options), std::invalid_argument);
  }
}

TEST(IoService, AdjacentExtentsMergeUpToTheMaximum) {
  TempDir dir;
  DriveSet drives(make_drive_files(dir, 1, 1 << 20));
  IoOptions options;
  options.max_request_bytes = 32 << 10;
  IoService service(drives, options);
  std::vector<Extent> extents;
  for (uint64_t p = 0; p < 20; ++p) extents.push_back({p * 4096, 4096});  // 80 KiB contiguous
  extents.push_back({100 * 4096, 4096});                                  // a gap, then one page
  service.read(0, extents);
  std::vector<uint64_t> lengths;
  Filled f;
  while (service.next(f)) {
    expect_content(0, f.offset, f.data, f.length);
    lengths.push_back(f.length);
    service.release(f);
  }
  std::sort(lengths.begin(), lengths.end());
  EXPECT_EQ(lengths, (std::vector<uint64_t>{4096, 16384, 32768, 32768}));
  EXPECT_EQ(service.stats(0).requests.load(), 4u);
  EXPECT_EQ(service.stats(0).bytes.load(), 21u * 4096);
}

template <class F>
void expect_io_error(F&& f, unsigned drive, const std::string& piece) {
  try {
    f();
    ADD_FAILURE() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_EQ(e.drive(), drive) << e.what();
    EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
  }
}

void drain(IoService& service) {
  Filled f;
  while (service.next(f)) service.release(f);
}

TEST(IoService, ErrorsNameTheDriveAndOffset) {
  TempDir dir;
  auto paths = make_drive_files(dir, 2, 1 << 20);
  for (BackendKind backend : all_backends) {
    DriveSet drives(paths);
    {
      IoService service(drives, options_for(backend));
      std::vector<Extent> past_end = {{(1 << 20) - 4096, 8192}};
      expect_io_error([&] { service.read(1, past_end); }, 1, "past the end of the drive file");
    }
    {
      IoOptions options = options_for(backend);
      options.faults.fail_every = 3;
      IoService service(drives, options);
      std::vector<Extent> extents = {{0, 4096}, {8192, 4096}, {16384, 4096}, {32768, 4096}};
      service.read(1, extents);
      expect_io_error([&] { drain(service); }, 1, "read failed: Input/output error");
      drain(service);  // the rest still arrives and the service stays usable
    }
    {
      IoOptions options = options_for(backend);
      options.faults.shorten_every = 2;
      options.faults.delay_us = 200;
      IoService service(drives, options);
      std::vector<Extent> extents = {{0, 8192}, {65536, 8192}};
      service.read(0, extents);
      expect_io_error([&] { drain(service); }, 0, "short read: 4096 of 8192 bytes");
    }
  }
}

TEST(IoService, FileTruncatedAfterOpenIsAShortRead) {
  TempDir dir;
  auto paths = make_drive_files(dir, 1, 1 << 20);
  DriveSet drives(paths);
  ASSERT_EQ(::truncate(paths[0].c_str(), 1 << 19), 0);
  for (BackendKind backend : all_backends) {
    IoService service(drives, options_for(backend));
    std::vector<Extent> extents = {{(1 << 19) - 4096, 16384}};
    service.read(0, extents);
    expect_io_error([&] { drain(service); }, 0, "short read");
  }
}

TEST(IoService, ShutdownWithReadsInFlight) {
  TempDir dir;
  DriveSet drives(make_drive_files(dir, 2, 4 << 20));
  for (BackendKind backend : all_backends) {
    IoOptions options = options_for(backend);
    options.queue_depth = 4;
    options.buffers = 3;  // fewer buffers than the queue: the IO threads block on the pool
    options.faults.delay_us = 100;
    IoService service(drives, options);
    std::vector<Extent> extents;
    for (uint64_t p = 0; p < 500; ++p) extents.push_back({p * 8192, 4096});
    service.read(0, extents);
    service.read(1, extents);
    Filled f;
    ASSERT_TRUE(service.next(f));  // hold one buffer, take nothing else
  }  // destructor: drops the queue, waits for what is in flight, joins
}

// tmpfs refuses O_DIRECT on older kernels (the fallback path) and accepts
// it on newer ones; either way the drive must read correctly.
TEST(IoService, ReadsFromTmpfsWithOrWithoutODirect) {
  if (!std::filesystem::exists("/dev/shm")) GTEST_SKIP();
  std::string path = "/dev/shm/sluice-io-test-" + std::to_string(::getpid());
  {
    std::vector<uint64_t> words(4096 / 8);
    for (uint64_t i = 0; i < words.size(); ++i) words[i] = i * 8;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<char*>(words.data()), 4096);
  }
  DriveSet drives({path});
  IoService service(drives, IoOptions());
  std::vector<Extent> extents = {{0, 4096}};
  service.read(0, extents);
  Filled f;
  ASSERT_TRUE(service.next(f));
  expect_content(0, 0, f.data, 4096);
  service.release(f);
  std::filesystem::remove(path);
}

TEST(ReadBenchmark, RunsOnEveryBackend) {
  TempDir dir;
  DriveSet drives(make_drive_files(dir, 2, 2 << 20));
  for (BackendKind backend : all_backends) {
    for (bool random : {true, false}) {
      BenchSpec spec;
      spec.backend = backend;
      spec.random = random;
      spec.seconds = 0.2;
      spec.queue_depth = 4;
      BenchResult r = run_read_benchmark(drives, spec);
      EXPECT_GT(r.requests, 0u);
      EXPECT_EQ(r.bytes, r.requests * 4096);
      EXPECT_GT(r.p50_ns, 0u);
      EXPECT_LE(r.p50_ns, r.p99_ns);
    }
  }
}

TEST(DeviceProfile, RedioRuleFromAFittedCostModel) {
  // t(s) = 20 us + s / (1 GB/s): λ = 20 us * 1 GB/s = 20000 bytes -> 20480 (5 pages).
  std::vector<SizePoint> points;
  for (uint64_t s = 4096; s <= (1 << 20); s *= 2) points.push_back({s, 1e9 / (20000.0 + double(s)), 0, 0});
  DeviceProfile p = DeviceProfile::fit(42, 32, points);
  EXPECT_NEAR(p.request_cost_ns, 20000, 1);
  EXPECT_NEAR(p.bandwidth, 1e9, 1e3);
  EXPECT_EQ(p.skip_threshold, 20480u);
  TempDir dir;
  p.save(dir / "sub/p.profile");
  auto back = DeviceProfile::load(dir / "sub/p.profile");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->skip_threshold, 20480u);
  EXPECT_EQ(back->points.size(), points.size());
  EXPECT_FALSE(DeviceProfile::load(dir / "none.profile"));
}

TEST(LatencyHistogram, PercentilesWithinABucket) {
  LatencyHistogram h;
  for (uint64_t i = 1; i <= 1000; ++i) h.record(i * 1000);  // 1 us .. 1 ms
  EXPECT_NEAR(double(h.percentile(0.5)), 500e3, 500e3 * 0.07);
  EXPECT_NEAR(double(h.percentile(0.99)), 990e3, 990e3 * 0.07);
  EXPECT_EQ(h.count(), 1000u);
}

}  // namespace
}  // namespace sluice::test
