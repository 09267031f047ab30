#include "layout/sluice_layout.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "base/errors.hpp"
#include "layout/compressed_pages.hpp"
#include "layout/drive_header.hpp"
#include "layout/id_map_file.hpp"
#include "layout/index_file.hpp"
#include "layout/sampled_targets.hpp"

namespace sluice::layout {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> paths_in_layout(const std::string& manifest_path, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) out.push_back(path_in_layout(manifest_path, p));
  return out;
}

}  // namespace

// The header every drive file of one edge set must carry (the drive index
// and page count are filled in per drive by the reader and writer).
DriveHeader drive_identity(const Manifest& manifest, const std::string& manifest_path, const std::string& set) {
  DriveHeader h;
  h.layout_id = manifest.layout_id;
  h.edge_set = set;
  h.drives = unsigned(manifest.out.drives.size());
  h.page_bytes = manifest.page_bytes;
  std::error_code ec;
  h.manifest = fs::absolute(manifest_path, ec).lexically_normal().string();
  return h;
}

EdgeSet::EdgeSet(const std::string& manifest_path, const Manifest& m, const std::string& name, const EdgeSetFiles& files)
    : compressed_(m.compressed),
      weighted_(m.info.weighted),
      wide_(m.info.id_bytes == 8),
      seed_(page_checksum_seed(m.layout_id)),
      edges_(paths_in_layout(manifest_path, files.drives), RecordLayout{m.info.id_bytes, m.info.weighted},
             PageInterleaving{m.page_bytes, unsigned(files.drives.size()), m.page_bytes}, m.info.edges, m.info.vertices,
             drive_identity(m, manifest_path, name), m.compressed ? std::optional<uint64_t>(files.pages) : std::nullopt) {
  if (compressed_ && !wide_ && m.info.vertices > compressed_max_vertices) {
    throw base::InputError(manifest_path, "", "a compressed layout of 32-bit ids holds fewer than 2^31 vertices");
  }
  IndexFile loaded = read_index_file(path_in_layout(manifest_path, files.index), m.info, edges_.pages(), files.index_checksum,
                                     compressed_, page_capacity());
  index_ = std::move(loaded.index);
  sums_ = std::move(loaded.page_sums);
  page_starts_ = std::move(loaded.page_starts);
  edges_.check_pages(checksums());
  // Opened now, read when needed: a conversion that replaces the layout
  // meanwhile leaves this run the file of the layout it opened.
  if (!files.sample.empty()) {
    sample_.emplace(path_in_layout(manifest_path, files.sample), SampleShape{m.layout_id, m.info.vertices, m.sample_edges, m.info.id_bytes},
                    files.sample_checksum);
  }
}

uint64_t EdgeSet::page_capacity() const { return compressed_page_capacity(edges_.interleaving().page_bytes, weighted_, wide_); }

template <class Decode>
uint64_t EdgeSet::checked_decode(uint64_t page, const char* data, Decode&& decode) const {
  const CompressedPageHeader header = CompressedPageHeader::of(data, weighted_, wide_);
  const uint64_t first = page_starts_[page], count = page_end(page) - first;
  const uint64_t vertex = header.first_vertex;
  const bool fits = header.edges == count && vertex < index_.vertices() && index_.offset(vertex) <= first &&
                    first < index_.offset(vertex) + index_.degree(vertex);
  auto damaged = [&](const std::string& what) {
    const PageInterleaving& at = edges_.interleaving();
    return base::InputError(edges_.paths()[at.drive_of(page)], base::at_byte(at.offset_on_drive(page)),
                            "compressed page " + std::to_string(page) + " " + what +
                                " (the drive file is damaged or belongs to another graph)");
  };
  const uint64_t largest = fits ? decode(edges_.interleaving().page_bytes) : UINT64_MAX;
  if (largest == UINT64_MAX) {
    throw damaged("does not decode to edges [" + std::to_string(first) + ", " + std::to_string(first + count) + ")");
  }
  if (largest >= index_.vertices()) {
    throw damaged("decodes to a target that is not below the " + std::to_string(index_.vertices()) + " vertices");
  }
  return count;
}

uint64_t EdgeSet::decode_page(uint64_t page, const char* data, void* out, float* weights) const {
  return checked_decode(page, data, [&](uint64_t page_bytes) {
    return wide_ ? layout::decode_wide_page(data, page_bytes, static_cast<uint64_t*>(out), weights)
                 : layout::decode_page(data, page_bytes, static_cast<uint32_t*>(out), weights);
  });
}

uint64_t EdgeSet::decode_page_records(uint64_t page, const char* data, void* targets, char* records) const {
  if (!weighted_) throw std::logic_error("decode_page_records: an unweighted edge set's records are its targets");
  return checked_decode(page, data, [&](uint64_t page_bytes) {
    return wide_ ? layout::decode_wide_page_records(data, page_bytes, static_cast<uint64_t*>(targets), records)
                 : layout::decode_page_records(data, page_bytes, static_cast<uint32_t*>(targets), records);
  });
}

void EdgeSet::read_edges(uint64_t first, uint64_t count, void* targets, float* weights) const {
  if (!compressed_) return edges_.read_edges(first, count, targets, weights);
  if (count == 0) return;
  const uint64_t page_bytes = edges_.interleaving().page_bytes;
  // The pages holding [first, first + count): each the last whose first edge is at most the edge.
  auto page_of = [&](uint64_t e) {
    return uint64_t(std::upper_bound(page_starts_.begin(), page_starts_.end(), e) - page_starts_.begin()) - 1;
  };
  uint64_t page = page_of(first);
  const uint64_t last = page_of(first + count - 1);
  thread_local std::vector<char> data;
  thread_local std::vector<uint64_t> decoded;  // ids of either width
  thread_local std::vector<float> decoded_weights;
  const uint64_t run = 64;  // pages per read
  const unsigned id_bytes = wide_ ? 8 : 4;
  data.resize(run * page_bytes);
  decoded.resize(page_capacity());
  decoded_weights.resize(weighted_ ? decoded.size() : 0);
  char* out = static_cast<char*>(targets);
  for (uint64_t done = 0; done < count;) {
    const uint64_t pages = std::min(run, last + 1 - page);  // no page past the range's last
    edges_.read_pages(page, pages, data.data());
    for (uint64_t k = 0; k < pages && done < count; ++k, ++page) {
      const uint64_t n = decode_page(page, data.data() + k * page_bytes, decoded.data(), weighted_ ? decoded_weights.data() : nullptr);
      const uint64_t from = first + done - page_starts_[page];
      const uint64_t take = std::min(n - from, count - done);
      std::memcpy(out + done * id_bytes, reinterpret_cast<const char*>(decoded.data()) + from * id_bytes, take * id_bytes);
      if (weights && weighted_) std::memcpy(weights + done, decoded_weights.data() + from, take * 4);
      done += take;
    }
  }
}

void EdgeSet::verify() const {
  if (sample_) sample_->verify();
  const uint64_t run = 1024;  // pages per read
  const uint64_t page_bytes = edges_.interleaving().page_bytes;
  std::vector<char> buffer(run * page_bytes);
  std::vector<uint64_t> decoded(compressed_ ? page_capacity() : 0);  // ids of either width
  std::vector<float> decoded_weights(weighted_ ? decoded.size() : 0);
  for (uint64_t first = 0; first < edges_.pages(); first += run) {
    const uint64_t pages = std::min(run, edges_.pages() - first);
    edges_.read_pages(first, pages, buffer.data());  // checks every page
    if (compressed_) {
      for (uint64_t k = 0; k < pages; ++k) {
        decode_page(first + k, buffer.data() + k * page_bytes, decoded.data(), weighted_ ? decoded_weights.data() : nullptr);
      }
    }
  }
}

SluiceLayout::SluiceLayout(const std::string& path, std::optional<RankChoice> rank)
    : path_(manifest_to_open(path, rank)), whole_path_(path) {
  const std::string& manifest_path = path_;
  // A conversion onto this layout renames its files into place one by one
  // (drive files, indexes, the manifest last): an open in between finds an
  // index or drive header that disagrees with the manifest. Opened again a
  // moment later, the layout is whole; a damaged one fails every time, and
  // is reported as damaged only if the manifest never changed meanwhile.
  const FileIdentity first = FileIdentity::of(manifest_path);
  int waits = 0, changes = 0;  // the longer retries below, each bounded
  for (int attempt = 1;; ++attempt) {
    manifest_ = Manifest::read(manifest_path);
    try {
      out_.emplace(manifest_path, manifest_, "out", manifest_.out);
      if (manifest_.in) in_.emplace(manifest_path, manifest_, "in", *manifest_.in);
      // A part's vertices are the whole layout's: its map is the whole's.
      const Manifest whole = manifest_.part ? Manifest::read(whole_path_) : Manifest{};
      const Manifest& listing = manifest_.part ? whole : manifest_;
      const std::string& listed_at = manifest_.part ? whole_path_ : manifest_path;
      if (!listing.ids.empty()) {
        ids_ = read_id_map_file(path_in_layout(listed_at, listing.ids), manifest_.info.vertices, listing.ids_checksum);
      }
      return;
    } catch (const base::InputError& error) {
      out_.reset();
      in_.reset();
      ids_ = {};
      const FileIdentity now = FileIdentity::of(manifest_path);
      const bool replaced = now != first || manifest_.read_from != first;
      // A manifest renamed into place while this attempt ran: the
      // conversion behind it is done, and the next attempt finds it whole.
      const bool changed = now != manifest_.read_from;
      // A drive file that a later conversion of this very layout wrote,
      // under the manifest this attempt read: that conversion is under way
      // (on a loaded machine, for longer than the short retries). Its
      // manifest is waited for, up to 2 s; one left stale by a conversion
      // that died is reported as it is after that.
      const auto* foreign = dynamic_cast<const DriveOfAnotherLayout*>(&error);
      const bool converting = !changed && foreign && foreign->same_manifest();
      if (attempt < 4 || (converting && ++waits <= 40) || (changed && ++changes <= 3)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 4 ? 25 * attempt : converting ? 50 : 0));
        continue;
      }
      if (!replaced) throw;
      throw base::InputError(manifest_path, "", "the layout was replaced while in use (converted again while this run opened "
                                          "it, more than once); run again");
    }
  }
}

void SluiceLayout::verify() const {
  out_->verify();
  if (in_) in_->verify();
}

}  // namespace sluice::layout
