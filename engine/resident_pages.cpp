#include "engine/resident_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "base/errors.hpp"
#include "base/first_error.hpp"
#include "engine/page_walk.hpp"

namespace sluice::engine {

namespace {
constexpr uint64_t read_bytes = uint64_t(4) << 20;  // one pread: large, and many of them to share among threads
}  // namespace

ResidentPages::ResidentPages(const DiskGraph& graph, int threads, bool verify) : graph_(graph), page_bytes_(graph.page_bytes()) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int> descriptors = graph.drive_descriptors();
  const uint64_t header = graph.interleaving().header_bytes;
  const bool decode = graph.compressed();
  const uint64_t record = graph.record_bytes();
  base::require_memory(graph.pages() * page_bytes_ + (decode ? graph.edges() * record : 0), "the drive files held in memory (--io memory)");
  if (decode) decoded_.emplace(std::max<uint64_t>(graph.edges() * record, record), graph.drive_paths()[0]);
  regions_.reserve(graph.drives());
  for (unsigned d = 0; d < graph.drives(); ++d) {
    regions_.emplace_back(std::max<uint64_t>(graph.pages_on_drive(d) * page_bytes_, page_bytes_), graph.drive_paths()[d]);
  }
  // Pieces of every drive, read and checked by `threads` threads. The
  // regions are page aligned, so O_DIRECT reads go straight into them.
  struct Piece {
    unsigned drive;
    uint64_t first_page, pages;
  };
  std::vector<Piece> pieces;
  const uint64_t per_read = std::max<uint64_t>(1, read_bytes / page_bytes_);
  for (unsigned d = 0; d < graph.drives(); ++d) {
    for (uint64_t p = 0; p < graph.pages_on_drive(d); p += per_read) pieces.push_back({d, p, std::min(per_read, graph.pages_on_drive(d) - p)});
  }
  std::atomic<size_t> next{0};
  base::FirstError error;
  auto work = [&] {
    for (size_t i; !error.failed() && (i = next++) < pieces.size();) {
      const Piece& piece = pieces[i];
      char* into = regions_[piece.drive].data + piece.first_page * page_bytes_;
      const uint64_t length = piece.pages * page_bytes_;
      try {
        for (uint64_t done = 0; done < length;) {
          const ssize_t n = ::pread(descriptors[piece.drive], into + done, length - done, off_t(header + piece.first_page * page_bytes_ + done));
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) base::throw_system_error(graph.drive_paths()[piece.drive], "read");
          if (n == 0) throw base::InputError(graph.drive_paths()[piece.drive], base::at_byte(header + piece.first_page * page_bytes_ + done), "the drive file ends early");
          done += uint64_t(n);
        }
        if (decode) {  // checked and decoded into place; the compressed bytes are dropped after the load
          for (uint64_t k = 0; k < piece.pages; ++k) {
            const uint64_t p = (piece.first_page + k) * graph.drives() + piece.drive;
            decode_compressed_page(graph, p, into + k * page_bytes_, verify ? PageCheck::everything : PageCheck::targets,
                                   decoded_->data + graph.first_edge_of_page(p) * record);
          }
          continue;
        }
        with_record_format(graph, [&](auto format) {
          for (uint64_t k = 0; k < piece.pages; ++k) {
            page_records<decltype(format)>(graph, (piece.first_page + k) * graph.drives() + piece.drive, into + k * page_bytes_,
                                           verify ? PageCheck::everything : PageCheck::targets);
          }
        });
      } catch (...) {
        error.capture();
      }
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::max(threads, 1); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& h : helpers) h.join();
  error.rethrow();
  if (decode) regions_.clear();
  load_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ResidentPages::~ResidentPages() = default;

ResidentPages::Region::Region(uint64_t size, const std::string& path) : data(nullptr), bytes(size) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("out of memory holding " + path + " in memory (--io memory): " + std::strerror(errno));
  ::madvise(p, bytes, MADV_HUGEPAGE);  // fewer TLB misses on the random walks; a hint only
  data = static_cast<char*>(p);
}

ResidentPages::Region::~Region() {
  if (data) ::munmap(data, bytes);
}

uint64_t ResidentPages::bytes() const {
  uint64_t total = decoded_ ? decoded_->bytes : 0;
  for (const Region& r : regions_) total += r.bytes;
  return total;
}

}  // namespace sluice::engine
