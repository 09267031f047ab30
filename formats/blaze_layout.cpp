#include "formats/blaze_layout.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

#include "base/errors.hpp"
#include "layout/compact_index.hpp"
#include "layout/interleaved_edges.hpp"

namespace sluice::formats {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t header_bytes = 32;
constexpr uint64_t page_bytes = 4096;

uint64_t groups_of(uint64_t n) { return n == 0 ? 0 : (n - 1) / 16 + 1; }
uint64_t degrees_at(uint64_t n) { return (header_bytes + groups_of(n) * 8 + 63) / 64 * 64; }

std::string stem_of(const std::string& index_path) {
  const std::string suffix = ".index";
  if (index_path.size() <= suffix.size() || index_path.compare(index_path.size() - suffix.size(), suffix.size(), suffix)) {
    throw base::InputError(index_path, "", "a Blaze index file name ends in '.index'");
  }
  return index_path.substr(0, index_path.size() - suffix.size());
}

// The adjacency files of a dataset: in `dirs` (drive order) when given, as
// `--drives` spread them, else beside the index.
std::vector<std::string> find_drive_files(const std::string& stem, const std::vector<std::string>& dirs) {
  if (!dirs.empty()) {
    const std::string base = fs::path(stem).filename().string(), n = std::to_string(dirs.size());
    std::vector<std::string> files;
    for (size_t i = 0; i < dirs.size(); ++i) {
      files.push_back((fs::path(dirs[i]) / (base + ".adj." + n + "." + std::to_string(i))).string());
      if (!fs::exists(files.back())) {
        throw base::InputError(files.back(), "", "no Blaze adjacency file " + std::to_string(i) + " of " + n + " in " + dirs[i]);
      }
    }
    return files;
  }
  for (unsigned n = 1; n <= 256; ++n) {
    if (!fs::exists(stem + ".adj." + std::to_string(n) + ".0")) continue;
    std::vector<std::string> files;
    for (unsigned i = 0; i < n; ++i) files.push_back(stem + ".adj." + std::to_string(n) + "." + std::to_string(i));
    return files;
  }
  std::vector<std::string> files;  // the artifact's naming: NAME.gr.adj.0, .1, ...
  while (fs::exists(stem + ".adj." + std::to_string(files.size()))) files.push_back(stem + ".adj." + std::to_string(files.size()));
  if (files.empty()) {
    throw base::InputError(stem + ".index", "", "no Blaze adjacency file beside the index (expected " + stem +
                                              ".adj.N.0); for a dataset spread over drive directories give them "
                                              "with --adjacency-dirs DIR,DIR...");
  }
  return files;
}

class BlazeSource : public GraphSource {
 public:
  BlazeSource(const std::string& index_path, const std::vector<std::string>& files)
      : path_(index_path), index_(load(index_path)),
        edges_(files, layout::RecordLayout{4, false}, layout::PageInterleaving{page_bytes, unsigned(files.size())}, index_.edges(),
               index_.vertices()) {}
  base::GraphInfo info() const override { return {index_.vertices(), index_.edges(), false, 4}; }
  std::string format_name() const override { return "blaze"; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override { index_.read_offsets(begin, end, out); }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float*) const override {
    uint64_t offsets[2];
    index_.read_offsets(begin, begin, offsets);
    uint64_t first = offsets[0];
    index_.read_offsets(end, end, offsets);
    edges_.read_edges(first, offsets[0] - first, targets, nullptr);
  }

 private:
  static layout::CompactIndex load(const std::string& path) {
    base::FileDescriptor file = base::FileDescriptor::open_for_reading(path);
    uint64_t size = file.size();
    if (size < header_bytes) throw base::InputError(path, base::at_byte(size), "file ends inside the 32-byte graph header");
    uint64_t header[4];
    file.read_exactly(header, sizeof(header), 0, path);
    uint64_t n = header[2], m = header[3];
    if (n >= (uint64_t(1) << 32)) throw base::InputError(path, base::at_byte(16), "Blaze uses 32-bit vertex ids; the header says " + std::to_string(n) + " nodes");
    uint64_t expected = degrees_at(n) + groups_of(n) * 64;
    if (size != expected) {
      throw base::InputError(path, "", "index file holds " + std::to_string(size) + " bytes, expected " + std::to_string(expected) +
                                     " for " + std::to_string(n) + " nodes");
    }
    base::Array<uint64_t> offsets(groups_of(n) + 1, "index offsets");
    file.read_exactly(offsets.data(), groups_of(n) * 8, header_bytes, path);
    offsets[groups_of(n)] = m;
    layout::DegreeArray degrees(n, "degrees");
    std::vector<uint32_t> piece(std::min<uint64_t>(n, uint64_t(1) << 18));  // 1 MiB read at a time
    for (uint64_t first = 0; first < n; first += piece.size()) {
      const uint64_t count = std::min<uint64_t>(piece.size(), n - first);
      file.read_exactly(piece.data(), count * 4, degrees_at(n) + first * 4, path);
      degrees.set_from(first, {piece.data(), count});
    }
    layout::CompactIndex index(std::move(offsets), std::move(degrees));
    uint64_t bad = index.first_inconsistency();
    if (bad != UINT64_MAX) {
      throw base::InputError(path, "", "offsets disagree with the degrees at vertex " + std::to_string(bad) +
                                     " (or the degrees do not sum to the " + std::to_string(m) + " edges of the header)");
    }
    return index;
  }

  std::string path_;
  layout::CompactIndex index_;
  layout::InterleavedEdgeReader edges_;
};

// Where write_blaze_layout puts the adjacency files: NAME.gr.adj.N.i in
// drive directory i (beside the index when none are given).
std::vector<std::string> adjacency_paths(const std::string& index_path, const std::vector<std::string>& drive_dirs) {
  const std::vector<std::string> dirs =
      drive_dirs.empty() ? std::vector<std::string>{fs::path(index_path).parent_path().string()} : drive_dirs;
  const std::string base = fs::path(stem_of(index_path)).filename().string();
  std::vector<std::string> paths;
  for (size_t i = 0; i < dirs.size(); ++i) {
    paths.push_back((fs::path(dirs[i].empty() ? "." : dirs[i]) / (base + ".adj." + std::to_string(dirs.size()) + "." + std::to_string(i))).string());
  }
  return paths;
}

}  // namespace

std::vector<base::NamedFile> blaze_layout_files(const std::string& index_path, const std::vector<std::string>& adjacency_dirs) {
  std::vector<base::NamedFile> files{{index_path, "the Blaze index"}};
  try {
    for (const std::string& p : find_drive_files(stem_of(index_path), adjacency_dirs)) files.push_back({p, "a Blaze adjacency file"});
  } catch (const std::exception&) {
    // Not found: opening the dataset will say so.
  }
  return files;
}

std::vector<base::NamedFile> blaze_layout_files_to_write(const std::string& index_path, const std::vector<std::string>& drive_dirs) {
  std::vector<base::NamedFile> files{{index_path, "the output's Blaze index"}};
  for (const std::string& p : adjacency_paths(index_path, drive_dirs)) files.push_back({p, "an adjacency file of the output"});
  return files;
}

std::unique_ptr<GraphSource> open_blaze_layout(const std::string& index_path, const std::vector<std::string>& adjacency_dirs) {
  return std::make_unique<BlazeSource>(index_path, find_drive_files(stem_of(index_path), adjacency_dirs));
}

void write_blaze_layout(BlockGraph& graph, const std::string& index_path, const std::vector<std::string>& drive_dirs) {
  const base::GraphInfo& info = graph.info();
  if (info.weighted) throw std::runtime_error("Blaze's layout is written for unweighted graphs only; convert with --drop-weights");
  if (info.vertices >= (uint64_t(1) << 32)) throw std::runtime_error("Blaze's layout needs 32-bit vertex ids");
  const uint64_t n = info.vertices;
  std::vector<base::AtomicFile> outputs;
  outputs.emplace_back(index_path);
  base::AtomicFile& index = outputs.back();
  uint64_t header[4] = {0, 0, n, info.edges};
  index.write(header, sizeof(header));
  std::vector<uint64_t> offsets;
  for (uint64_t g = 0; g < groups_of(n); ++g) {
    uint64_t v = g * 16;
    offsets = graph.offsets(v, std::min(n, v + 16));
    index.write(&offsets[0], 8);
  }
  index.write_zeros(degrees_at(n) - index.bytes_written());
  std::vector<uint32_t> degrees;
  for (uint64_t g = 0; g < groups_of(n); ++g) {
    uint64_t v = g * 16;
    offsets = graph.offsets(v, std::min(n, v + 16));
    degrees.assign(16, 0);
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
      uint64_t d = offsets[i + 1] - offsets[i];
      if (d > std::numeric_limits<uint32_t>::max()) throw std::runtime_error("a degree exceeds 32 bits");
      degrees[i] = uint32_t(d);
    }
    index.write(degrees.data(), 64);
  }

  const std::vector<std::string> paths = adjacency_paths(index_path, drive_dirs);
  layout::InterleavedEdgeWriter writer(paths, layout::RecordLayout{4, false}, layout::PageInterleaving{page_bytes, unsigned(paths.size())}, graph.info().edges);
  for_each_block_in_order(graph, 0, n, [&](const EdgeBlock& block) { writer.append(block.targets, nullptr, block.edges); });
  writer.finish();
  for (auto& f : writer.files()) outputs.push_back(std::move(f));
  base::commit_all(outputs);
}

}  // namespace sluice::formats
