#include "formats/sluice_layout.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "formats/errors.hpp"
#include "formats/progress.hpp"

namespace sluice {

namespace fs = std::filesystem;

namespace {

constexpr char index_magic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'I', 'X'};
constexpr uint64_t index_header_bytes = 64;

uint64_t align64(uint64_t x) { return (x + 63) / 64 * 64; }

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

// Index file: 64-byte header (magic, version, vertices, edges), the group
// offsets, padding to 64 bytes, the degrees.
uint64_t index_file_bytes(uint64_t vertices) {
  uint64_t groups = (vertices + CompactIndex::group - 1) / CompactIndex::group + 1;
  return align64(index_header_bytes + groups * 8) + vertices * 4;
}

uint64_t write_index(AtomicFile& file, const CompactIndex& index) {
  char header[index_header_bytes] = {};
  std::memcpy(header, index_magic, 8);
  uint32_t version = sluice_layout_version;
  uint64_t n = index.vertices(), m = index.edges();
  std::memcpy(header + 8, &version, 4);
  std::memcpy(header + 16, &n, 8);
  std::memcpy(header + 24, &m, 8);
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  auto put = [&](const void* data, size_t length) {
    file.write(data, length);
    XXH64_update(state, data, length);
  };
  put(header, sizeof(header));
  put(index.group_offsets().data(), index.group_offsets().size() * 8);
  uint64_t pad = align64(file.bytes_written()) - file.bytes_written();
  std::vector<char> zeros(pad, 0);
  put(zeros.data(), pad);
  put(index.degrees().data(), index.degrees().size() * 4);
  uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return digest;
}

CompactIndex read_index(const std::string& path, const GraphInfo& info, uint64_t checksum) {
  FileDescriptor file = FileDescriptor::open_for_reading(path);
  uint64_t expected = index_file_bytes(info.vertices);
  if (file.size() != expected) {
    throw InputError(path, "", "index file holds " + std::to_string(file.size()) + " bytes, expected " +
                                   std::to_string(expected) + " for " + std::to_string(info.vertices) + " vertices");
  }
  std::vector<char> bytes(expected);
  file.read_exactly(bytes.data(), expected, 0, path);
  if (XXH64(bytes.data(), bytes.size(), 0) != checksum) {
    throw InputError(path, "", "index checksum mismatch: the file is corrupt or belongs to another graph");
  }
  if (std::memcmp(bytes.data(), index_magic, 8) != 0) throw InputError(path, at_byte(0), "expected the magic SLUICEIX");
  uint64_t n, m;
  std::memcpy(&n, bytes.data() + 16, 8);
  std::memcpy(&m, bytes.data() + 24, 8);
  if (n != info.vertices || m != info.edges) {
    throw InputError(path, at_byte(16), "index is for " + std::to_string(n) + " vertices and " + std::to_string(m) +
                                            " edges, the manifest says " + std::to_string(info.vertices) + " and " +
                                            std::to_string(info.edges));
  }
  uint64_t groups = (n + CompactIndex::group - 1) / CompactIndex::group + 1;
  Array<uint64_t> offsets(groups, "index offsets");
  Array<uint32_t> degrees(n, "degrees");
  std::memcpy(offsets.data(), bytes.data() + index_header_bytes, groups * 8);
  if (n) std::memcpy(degrees.data(), bytes.data() + align64(index_header_bytes + groups * 8), n * 4);  // an empty graph has no array
  CompactIndex index(std::move(offsets), std::move(degrees));
  uint64_t bad = index.first_inconsistency();
  if (bad != UINT64_MAX) {
    throw InputError(path, "", "index offsets disagree with the degrees at vertex " + std::to_string(bad));
  }
  return index;
}

std::string resolve(const std::string& dir, const std::string& path) {
  return fs::path(path).is_absolute() ? path : (fs::path(dir) / path).string();
}

class ManifestParser {
 public:
  explicit ManifestParser(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "", "cannot open the manifest");
    std::string line;
    uint64_t number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      auto space = line.find(' ');
      if (space == std::string::npos) throw InputError(path, at_line(number), "expected 'key value'");
      std::string key = line.substr(0, space);
      if (values_.count(key)) throw InputError(path, at_line(number), "key '" + key + "' appears twice");
      values_[key] = {line.substr(space + 1), number};
    }
  }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::string& text(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw InputError(path_, "", "the manifest lacks the key '" + key + "'");
    return it->second.first;
  }
  uint64_t number(const std::string& key, int base = 10) const {
    const std::string& value = text(key);
    char* end = nullptr;
    errno = 0;
    unsigned long long parsed = std::strtoull(value.c_str(), &end, base);
    if (value.empty() || *end != '\0' || errno) {
      throw InputError(path_, at_line(values_.at(key).second), "expected a number for '" + key + "'");
    }
    return parsed;
  }

 private:
  std::string path_;
  std::map<std::string, std::pair<std::string, uint64_t>> values_;
};

EdgeSetFiles parse_edge_set(const ManifestParser& p, const std::string& prefix, unsigned drives) {
  EdgeSetFiles files;
  files.index = p.text(prefix + ".index");
  files.index_checksum = p.number(prefix + ".index_xxh64", 16);
  for (unsigned d = 0; d < drives; ++d) files.drives.push_back(p.text(prefix + ".drive." + std::to_string(d)));
  files.checksum_pages = p.number(prefix + ".checksum_pages");
  uint64_t groups = p.number(prefix + ".checksums");
  for (uint64_t g = 0; g < groups; ++g) files.checksums.push_back(p.number(prefix + ".checksum." + std::to_string(g), 16));
  return files;
}

void print_edge_set(std::ostringstream& out, const std::string& prefix, const EdgeSetFiles& files) {
  out << prefix << ".index " << files.index << "\n";
  out << prefix << ".index_xxh64 " << hex(files.index_checksum) << "\n";
  for (size_t d = 0; d < files.drives.size(); ++d) out << prefix << ".drive." << d << " " << files.drives[d] << "\n";
  out << prefix << ".checksum_pages " << files.checksum_pages << "\n";
  out << prefix << ".checksums " << files.checksums.size() << "\n";
  for (size_t g = 0; g < files.checksums.size(); ++g) {
    out << prefix << ".checksum." << g << " " << hex(files.checksums[g]) << "\n";
  }
}

}  // namespace

Manifest Manifest::read(const std::string& path) {
  ManifestParser p(path);
  Manifest m;
  if (!p.has("sluice-graph")) throw InputError(path, at_line(1), "expected 'sluice-graph VERSION' (not a sluice manifest)");
  m.version = unsigned(p.number("sluice-graph"));
  if (m.version != sluice_layout_version) {
    throw InputError(path, at_line(1), "layout version " + std::to_string(m.version) + " is not supported (expected " +
                                           std::to_string(sluice_layout_version) + ")");
  }
  m.info.vertices = p.number("vertices");
  m.info.edges = p.number("edges");
  m.info.weighted = p.number("weighted") != 0;
  m.info.id_bytes = unsigned(p.number("id_bytes"));
  if (m.info.id_bytes != 4 && m.info.id_bytes != 8) throw InputError(path, "", "id_bytes must be 4 or 8");
  m.page_bytes = p.number("page_bytes");
  if (m.page_bytes < 16 || (m.page_bytes & (m.page_bytes - 1))) throw InputError(path, "", "page_bytes must be a power of two");
  uint64_t drives = p.number("drives");
  if (drives == 0 || drives > 4096) throw InputError(path, "", "drives must be between 1 and 4096");
  m.out = parse_edge_set(p, "out", unsigned(drives));
  if (p.number("transpose")) m.in = parse_edge_set(p, "in", unsigned(drives));
  return m;
}

std::string Manifest::text() const {
  std::ostringstream out;
  out << "sluice-graph " << version << "\n";
  out << "# sluice on-disk graph; see formats/sluice_layout.hpp\n";
  out << "vertices " << info.vertices << "\n";
  out << "edges " << info.edges << "\n";
  out << "weighted " << (info.weighted ? 1 : 0) << "\n";
  out << "id_bytes " << info.id_bytes << "\n";
  out << "page_bytes " << page_bytes << "\n";
  out << "drives " << this->out.drives.size() << "\n";
  out << "transpose " << (in ? 1 : 0) << "\n";
  print_edge_set(out, "out", this->out);
  if (in) print_edge_set(out, "in", *in);
  return out.str();
}

static std::vector<std::string> resolve_all(const std::string& dir, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (auto& p : paths) out.push_back(resolve(dir, p));
  return out;
}

EdgeSet::EdgeSet(const std::string& dir, const EdgeSetFiles& files, const GraphInfo& info, uint64_t page_bytes)
    : index_(read_index(resolve(dir, files.index), info, files.index_checksum)),
      edges_(resolve_all(dir, files.drives), RecordLayout{info.id_bytes, info.weighted},
             PageInterleaving{page_bytes, unsigned(files.drives.size())}, info.edges) {}

void EdgeSet::verify(const EdgeSetFiles& files) const {
  std::vector<uint64_t> sums = checksum_pages(edges_, files.checksum_pages);
  if (sums.size() != files.checksums.size()) {
    throw InputError(edges_.paths()[0], "", "the manifest lists " + std::to_string(files.checksums.size()) +
                                                " stripe groups, the drive files hold " + std::to_string(sums.size()));
  }
  for (size_t g = 0; g < sums.size(); ++g) {
    if (sums[g] == files.checksums[g]) continue;
    const auto& il = edges_.interleaving();
    uint64_t first_page = g * files.checksum_pages;
    std::string where;
    for (unsigned d = 0; d < il.drives; ++d) {
      where += (d ? ", " : "") + edges_.paths()[d] + " from byte " +
               std::to_string(il.offset_on_drive(first_page + d));
    }
    throw InputError(edges_.paths()[0], "", "checksum mismatch in stripe group " + std::to_string(g) + " (" + where + ")");
  }
}

SluiceLayout::SluiceLayout(const std::string& manifest_path) : path_(manifest_path), manifest_(Manifest::read(manifest_path)) {
  std::string dir = fs::path(manifest_path).parent_path().string();
  out_.emplace(dir, manifest_.out, manifest_.info, manifest_.page_bytes);
  if (manifest_.in) in_.emplace(dir, *manifest_.in, manifest_.info, manifest_.page_bytes);
}

void SluiceLayout::verify() const {
  out_->verify(manifest_.out);
  if (in_) in_->verify(*manifest_.in);
}

namespace {

class SluiceSource : public GraphSource {
 public:
  SluiceSource(std::shared_ptr<SluiceLayout> layout, bool transpose)
      : layout_(std::move(layout)), set_(transpose ? layout_->in() : &layout_->out()) {
    if (!set_) throw InputError(layout_->path(), "", "the layout was written without a transpose");
  }
  GraphInfo info() const override { return layout_->info(); }
  std::string format_name() const override { return "sluice"; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override {
    set_->index().read_offsets(begin, end, out);
  }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const override {
    uint64_t first = set_->index().offset(begin);
    uint64_t last = end == begin ? first : set_->index().offset(end - 1) + set_->index().degree(end - 1);
    set_->edges().read_edges(first, last - first, targets, weights);
  }

 private:
  std::shared_ptr<SluiceLayout> layout_;
  const EdgeSet* set_;
};

std::string relative_to(const std::string& dir, const std::string& path) {
  std::error_code ec;
  fs::path abs_dir = fs::absolute(dir.empty() ? "." : dir, ec);
  fs::path abs = fs::absolute(path, ec);
  fs::path rel = abs.lexically_relative(abs_dir);
  if (!rel.empty() && *rel.begin() != "..") return rel.string();
  return abs.string();
}

EdgeSetFiles write_edge_set(BlockGraph& graph, const std::string& manifest_path, const std::string& suffix,
                            const SluiceWriteOptions& options, std::vector<AtomicFile>& outputs) {
  const GraphInfo& info = graph.info();
  const std::string dir = fs::path(manifest_path).parent_path().string();
  const std::string stem = fs::path(manifest_path).stem().string();

  // Degrees, through the block API's offsets.
  Array<uint32_t> degrees(info.vertices, "degrees");
  graph.for_each_vertex([&](uint64_t u, uint64_t, uint64_t degree) {
    if (degree > std::numeric_limits<uint32_t>::max()) {
      throw std::runtime_error("vertex " + std::to_string(u) + " has " + std::to_string(degree) +
                               " edges; the layout stores degrees in 32 bits");
    }
    degrees[u] = uint32_t(degree);
  });
  CompactIndex index(std::move(degrees));

  EdgeSetFiles files;
  std::string index_path = (fs::path(dir) / (stem + "." + suffix + ".index")).string();
  outputs.emplace_back(index_path);
  files.index = relative_to(dir, index_path);
  files.index_checksum = write_index(outputs.back(), index);

  std::vector<std::string> drive_paths;
  std::vector<std::string> dirs = options.drive_dirs.empty() ? std::vector<std::string>{dir} : options.drive_dirs;
  for (size_t d = 0; d < dirs.size(); ++d) {
    std::string p = (fs::path(dirs[d].empty() ? "." : dirs[d]) / (stem + "." + suffix + "." + std::to_string(d))).string();
    drive_paths.push_back(p);
    files.drives.push_back(relative_to(dir, p));
  }
  InterleavedEdgeWriter writer(drive_paths, RecordLayout{info.id_bytes, info.weighted},
                               PageInterleaving{options.page_bytes, unsigned(dirs.size())}, options.checksum_pages);
  Progress progress("writing " + suffix + " edges", info.edges, options.progress);
  for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
    writer.append(block.targets, block.weights, block.edges);
    progress.advance(block.edges);
  });
  progress.done();
  files.checksum_pages = options.checksum_pages;
  files.checksums = writer.finish();
  for (auto& f : writer.files()) outputs.push_back(std::move(f));
  return files;
}

}  // namespace

std::unique_ptr<GraphSource> open_sluice_layout(const std::string& manifest_path, bool transpose) {
  return std::make_unique<SluiceSource>(std::make_shared<SluiceLayout>(manifest_path), transpose);
}

void write_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                         const SluiceWriteOptions& options) {
  if (transpose && (transpose->info().vertices != graph.info().vertices ||
                    transpose->info().edges != graph.info().edges)) {
    throw std::invalid_argument("the transpose must have the graph's vertex and edge counts");
  }
  for (auto& d : options.drive_dirs) {
    if (!d.empty() && !fs::is_directory(d)) throw std::runtime_error(d + ": drive directory does not exist");
  }
  std::vector<AtomicFile> outputs;
  Manifest manifest;
  manifest.info = graph.info();
  manifest.page_bytes = options.page_bytes;
  manifest.out = write_edge_set(graph, manifest_path, "out", options, outputs);
  if (transpose) manifest.in = write_edge_set(*transpose, manifest_path, "in", options, outputs);
  outputs.emplace_back(manifest_path);
  outputs.back().write(manifest.text());
  commit_all(outputs);
}

}  // namespace sluice
