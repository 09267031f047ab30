#include "layout/sluice_layout.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "base/errors.hpp"
#include "layout/id_map_file.hpp"
#include "layout/index_file.hpp"

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
    : seed_(page_checksum_seed(m.layout_id)),
      edges_(paths_in_layout(manifest_path, files.drives), RecordLayout{m.info.id_bytes, m.info.weighted},
             PageInterleaving{m.page_bytes, unsigned(files.drives.size()), m.page_bytes}, m.info.edges, m.info.vertices,
             drive_identity(m, manifest_path, name)) {
  IndexFile loaded = read_index_file(path_in_layout(manifest_path, files.index), m.info, edges_.pages(), files.index_checksum);
  index_ = std::move(loaded.index);
  sums_ = std::move(loaded.page_sums);
  edges_.check_pages(checksums());
}

void EdgeSet::verify() const {
  const uint64_t run = 1024;  // pages per read
  std::vector<char> buffer(run * edges_.interleaving().page_bytes);
  for (uint64_t first = 0; first < edges_.pages(); first += run) {
    edges_.read_pages(first, std::min(run, edges_.pages() - first), buffer.data());  // checks every page
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
    } catch (const base::InputError&) {
      out_.reset();
      in_.reset();
      ids_ = {};
      const bool replaced = FileIdentity::of(manifest_path) != first || manifest_.read_from != first;
      if (attempt < 4) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25 * attempt));
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
