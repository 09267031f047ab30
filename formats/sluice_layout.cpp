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
#include <sys/stat.h>
#include <chrono>
#include <thread>

#include "formats/block_graph.hpp"
#include "formats/errors.hpp"
#include "formats/layout_replacement.hpp"
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

// Index file: 64-byte header (magic, version, vertices, edges, pages), the
// group offsets, padding to 64 bytes, the degrees, padding to 64 bytes,
// the page checksums.
uint64_t degrees_at(uint64_t vertices) {
  uint64_t groups = (vertices + CompactIndex::group - 1) / CompactIndex::group + 1;
  return align64(index_header_bytes + groups * 8);
}
uint64_t sums_at(uint64_t vertices) { return align64(degrees_at(vertices) + vertices * 4); }
uint64_t index_file_bytes(uint64_t vertices, uint64_t pages) { return sums_at(vertices) + pages * 8; }

uint64_t write_index(AtomicFile& file, const CompactIndex& index, const std::vector<uint64_t>& sums) {
  char header[index_header_bytes] = {};
  std::memcpy(header, index_magic, 8);
  uint32_t version = sluice_layout_version;
  uint64_t n = index.vertices(), m = index.edges(), pages = sums.size();
  std::memcpy(header + 8, &version, 4);
  std::memcpy(header + 16, &n, 8);
  std::memcpy(header + 24, &m, 8);
  std::memcpy(header + 32, &pages, 8);
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  auto put = [&](const void* data, size_t length) {
    file.write(data, length);
    XXH64_update(state, data, length);
  };
  auto pad = [&] {
    std::vector<char> zeros(align64(file.bytes_written()) - file.bytes_written(), 0);
    put(zeros.data(), zeros.size());
  };
  put(header, sizeof(header));
  put(index.group_offsets().data(), index.group_offsets().size() * 8);
  pad();
  put(index.degrees().data(), index.degrees().size() * 4);
  pad();
  put(sums.data(), sums.size() * 8);
  uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return digest;
}

struct LoadedIndex {
  CompactIndex index;
  Array<uint64_t> sums;
};

LoadedIndex read_index(const std::string& path, const GraphInfo& info, uint64_t pages, uint64_t checksum) {
  FileDescriptor file = FileDescriptor::open_for_reading(path);
  if (info.vertices > (uint64_t(1) << 48) || pages > (uint64_t(1) << 52)) {
    throw InputError(path, "", "the manifest declares an impossible size (" + std::to_string(info.vertices) + " vertices)");
  }
  uint64_t expected = index_file_bytes(info.vertices, pages);
  if (file.size() != expected) {
    throw InputError(path, "", "index file holds " + std::to_string(file.size()) + " bytes, expected " +
                                   std::to_string(expected) + " for " + std::to_string(info.vertices) + " vertices and " +
                                   std::to_string(pages) + " pages");
  }
  require_memory(expected, "the index of " + path);
  std::vector<char> bytes(expected);
  file.read_exactly(bytes.data(), expected, 0, path);
  if (XXH64(bytes.data(), bytes.size(), 0) != checksum) {
    throw InputError(path, "", "index checksum mismatch: the file is corrupt or belongs to another graph");
  }
  if (std::memcmp(bytes.data(), index_magic, 8) != 0) throw InputError(path, at_byte(0), "expected the magic SLUICEIX");
  uint64_t n, m, p;
  std::memcpy(&n, bytes.data() + 16, 8);
  std::memcpy(&m, bytes.data() + 24, 8);
  std::memcpy(&p, bytes.data() + 32, 8);
  if (n != info.vertices || m != info.edges || p != pages) {
    throw InputError(path, at_byte(16), "index is for " + std::to_string(n) + " vertices, " + std::to_string(m) +
                                            " edges and " + std::to_string(p) + " pages, the manifest says " +
                                            std::to_string(info.vertices) + ", " + std::to_string(info.edges) + " and " +
                                            std::to_string(pages));
  }
  uint64_t groups = (n + CompactIndex::group - 1) / CompactIndex::group + 1;
  Array<uint64_t> offsets(groups, "index offsets");
  Array<uint32_t> degrees(n, "degrees");
  Array<uint64_t> sums(pages, "page checksums");
  std::memcpy(offsets.data(), bytes.data() + index_header_bytes, groups * 8);
  if (n) std::memcpy(degrees.data(), bytes.data() + degrees_at(n), n * 4);  // an empty graph has no array
  if (pages) std::memcpy(sums.data(), bytes.data() + sums_at(n), pages * 8);
  CompactIndex index(std::move(offsets), std::move(degrees));
  uint64_t bad = index.first_inconsistency();
  if (bad != UINT64_MAX) {
    throw InputError(path, "", "index offsets disagree with the degrees at vertex " + std::to_string(bad));
  }
  return {std::move(index), std::move(sums)};
}

std::string resolve(const std::string& dir, const std::string& path) {
  return fs::path(path).is_absolute() ? path : (fs::path(dir) / path).string();
}

// What to say of a file given where a manifest belongs: what it seems to
// be, and the command that would make a layout of it (never one that names
// the file itself as its output).
InputError not_a_layout(const std::string& path, std::string_view bytes) {
  std::string format = format_from_extension(path);
  const bool by_name = !format.empty() && format != "sluice";
  if (!by_name) format = format_from_bytes(bytes);
  if (format.empty()) {
    return InputError(path, at_byte(0), "not a sluice layout: a manifest starts with 'sluice-graph', and this file "
                                        "does not look like a graph of any format either");
  }
  const fs::path p(path);
  std::string stem = p.filename().string();
  stem = stem.substr(0, stem.find('.'));
  std::string output = (p.parent_path() / (stem + ".sluice")).string();
  if (fs::absolute(output) == fs::absolute(path)) output = (p.parent_path() / (stem + "-layout.sluice")).string();
  return InputError(path, "", "not a sluice layout (" + std::string(by_name ? "its name says " : "it reads as ") + format +
                                  "): make one with `sluice convert " + path + " " + output +
                                  (by_name ? "" : " --format " + format) + " --drives DIR[,DIR...]`");
}

class ManifestParser {
 public:
  explicit ManifestParser(const std::string& path) : path_(path) {
    // Opened as a regular file only: a FIFO would block the open forever.
    FileDescriptor file = FileDescriptor::open_for_reading(path);
    struct stat st {};
    if (::fstat(file.get(), &st) != 0) throw_system_error(path, "fstat");
    if (uint64_t(st.st_size) > (uint64_t(64) << 20)) {
      throw InputError(path, "", "holds " + std::to_string(st.st_size) + " bytes: too large to be a sluice manifest");
    }
    identity_ = {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_mtim.tv_sec) * 1000000000u + uint64_t(st.st_mtim.tv_nsec)};
    std::string bytes(size_t(st.st_size), '\0');
    file.read_exactly(bytes.data(), bytes.size(), 0, path);
    std::istringstream in(bytes);
    std::string line;
    uint64_t number = 0;
    // Anything else given where a layout belongs (an edge list, a BV
    // graph) is named as such, with the command that makes a layout from it.
    if (bytes.rfind("sluice-graph", 0) != 0) throw not_a_layout(path, bytes);
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
  const FileIdentity& identity() const { return identity_; }
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
  FileIdentity identity_;
  std::map<std::string, std::pair<std::string, uint64_t>> values_;
};

EdgeSetFiles parse_edge_set(const ManifestParser& p, const std::string& prefix, unsigned drives) {
  EdgeSetFiles files;
  files.index = p.text(prefix + ".index");
  files.index_checksum = p.number(prefix + ".index_xxh64", 16);
  for (unsigned d = 0; d < drives; ++d) files.drives.push_back(p.text(prefix + ".drive." + std::to_string(d)));
  return files;
}

void print_edge_set(std::ostringstream& out, const std::string& prefix, const EdgeSetFiles& files) {
  out << prefix << ".index " << files.index << "\n";
  out << prefix << ".index_xxh64 " << hex(files.index_checksum) << "\n";
  for (size_t d = 0; d < files.drives.size(); ++d) out << prefix << ".drive." << d << " " << files.drives[d] << "\n";
}

}  // namespace

Manifest Manifest::read(const std::string& path) {
  ManifestParser p(path);
  Manifest m;
  m.read_from = p.identity();
  if (!p.has("sluice-graph")) throw InputError(path, at_line(1), "expected 'sluice-graph VERSION' (not a sluice manifest)");
  m.version = unsigned(p.number("sluice-graph"));
  if (m.version > sluice_layout_version) {
    throw InputError(path, at_line(1), "layout version " + std::to_string(m.version) + " was written by a newer sluice (" +
                                           "sluice " SLUICE_VERSION " reads version " + std::to_string(sluice_layout_version) +
                                           "): use a newer sluice to read it");
  }
  if (m.version != sluice_layout_version) {
    throw InputError(path, at_line(1), "layout version " + std::to_string(m.version) + " is not supported (expected " +
                                           std::to_string(sluice_layout_version) + "): convert the graph again" +
                                           (m.version == 1 ? " (version 2 added drive headers and page checksums)" : ""));
  }
  m.layout_id = p.text("layout");
  if (m.layout_id.size() != 32 || m.layout_id.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw InputError(path, "", "'layout' must be 32 hex digits");
  }
  m.info.vertices = checked_vertex_count(p.number("vertices"), path, "");
  m.info.edges = p.number("edges");
  if (m.info.edges > (uint64_t(1) << 56)) throw InputError(path, "", "edges " + std::to_string(m.info.edges) + " is impossible");
  m.info.weighted = p.number("weighted") != 0;
  m.info.symmetric = p.has("symmetric") && p.number("symmetric") != 0;  // absent before it was recorded: not known
  m.info.id_bytes = unsigned(p.number("id_bytes"));
  if (m.info.id_bytes != 4 && m.info.id_bytes != 8) throw InputError(path, "", "id_bytes must be 4 or 8");
  m.page_bytes = p.number("page_bytes");
  if (m.page_bytes < 512 || m.page_bytes > (1 << 24) || (m.page_bytes & (m.page_bytes - 1))) {
    throw InputError(path, "", "page_bytes must be a power of two from 512 to 16 MiB");
  }
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
  out << "layout " << layout_id << "\n";
  out << "vertices " << info.vertices << "\n";
  out << "edges " << info.edges << "\n";
  out << "weighted " << (info.weighted ? 1 : 0) << "\n";
  out << "symmetric " << (info.symmetric ? 1 : 0) << "\n";
  out << "id_bytes " << info.id_bytes << "\n";
  out << "page_bytes " << page_bytes << "\n";
  out << "drives " << this->out.drives.size() << "\n";
  out << "transpose " << (in ? 1 : 0) << "\n";
  print_edge_set(out, "out", this->out);
  if (in) print_edge_set(out, "in", *in);
  return out.str();
}

std::vector<NamedFile> Manifest::files(const std::string& manifest_path) const {
  const std::string dir = fs::path(manifest_path).parent_path().string();
  std::vector<NamedFile> files{{manifest_path, "the layout's manifest"}};
  auto add = [&](const EdgeSetFiles& set, const std::string& name) {
    files.push_back({resolve(dir, set.index), "the layout's " + name + " index"});
    for (const std::string& d : set.drives) files.push_back({resolve(dir, d), "a drive file of the layout's " + name + " edges"});
  };
  add(out, "out");
  if (in) add(*in, "in");
  return files;
}

std::vector<NamedFile> sluice_layout_files(const std::string& manifest_path) {
  try {
    return Manifest::read(manifest_path).files(manifest_path);
  } catch (const std::exception&) {
    return {{manifest_path, "the layout's manifest"}};
  }
}

static std::vector<std::string> resolve_all(const std::string& dir, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (auto& p : paths) out.push_back(resolve(dir, p));
  return out;
}

namespace {
// The header every drive file of one edge set must carry (the drive index
// and page count are filled in per drive by the reader and writer).
DriveHeader identity_of(const Manifest& manifest, const std::string& manifest_path, const std::string& set) {
  DriveHeader h;
  h.layout_id = manifest.layout_id;
  h.edge_set = set;
  h.drives = unsigned(manifest.out.drives.size());
  h.page_bytes = manifest.page_bytes;
  std::error_code ec;
  h.manifest = fs::absolute(manifest_path, ec).lexically_normal().string();
  return h;
}
}  // namespace

EdgeSet::EdgeSet(const std::string& manifest_path, const Manifest& m, const std::string& name, const EdgeSetFiles& files)
    : seed_(page_checksum_seed(m.layout_id)),
      edges_(resolve_all(fs::path(manifest_path).parent_path().string(), files.drives), RecordLayout{m.info.id_bytes, m.info.weighted},
             PageInterleaving{m.page_bytes, unsigned(files.drives.size()), m.page_bytes}, m.info.edges, m.info.vertices,
             identity_of(m, manifest_path, name)) {
  LoadedIndex loaded = read_index(resolve(fs::path(manifest_path).parent_path().string(), files.index), m.info,
                                  edges_.pages(), files.index_checksum);
  index_ = std::move(loaded.index);
  sums_ = std::move(loaded.sums);
  edges_.check_pages(checksums());
}

void EdgeSet::verify() const {
  const uint64_t run = 1024;  // pages per read
  std::vector<char> buffer(run * edges_.interleaving().page_bytes);
  for (uint64_t first = 0; first < edges_.pages(); first += run) {
    edges_.read_pages(first, std::min(run, edges_.pages() - first), buffer.data());  // checks every page
  }
}

namespace {
FileIdentity identity_now(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_mtim.tv_sec) * 1000000000u + uint64_t(st.st_mtim.tv_nsec)};
}
}  // namespace

SluiceLayout::SluiceLayout(const std::string& manifest_path) : path_(manifest_path) {
  // A conversion onto this layout renames its files into place one by one
  // (drive files, indexes, the manifest last): an open in between finds an
  // index or drive header that disagrees with the manifest. Opened again a
  // moment later, the layout is whole; a damaged one fails every time, and
  // is reported as damaged only if the manifest never changed meanwhile.
  const FileIdentity first = identity_now(manifest_path);
  for (int attempt = 1;; ++attempt) {
    manifest_ = Manifest::read(manifest_path);
    try {
      out_.emplace(manifest_path, manifest_, "out", manifest_.out);
      if (manifest_.in) in_.emplace(manifest_path, manifest_, "in", *manifest_.in);
      return;
    } catch (const InputError&) {
      out_.reset();
      in_.reset();
      const bool replaced = identity_now(manifest_path) != first || manifest_.read_from != first;
      if (attempt < 4) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25 * attempt));
        continue;
      }
      if (!replaced) throw;
      throw InputError(manifest_path, "", "the layout was replaced while in use (converted again while this run opened "
                                          "it, more than once); run again");
    }
  }
}

void SluiceLayout::verify() const {
  out_->verify();
  if (in_) in_->verify();
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

// Where one edge set of a layout goes: NAME.SET.index beside the manifest,
// NAME.SET.D in drive directory D (beside the manifest when none given).
struct EdgeSetPaths {
  std::string index;
  std::vector<std::string> drives;
};
EdgeSetPaths edge_set_paths(const std::string& manifest_path, const std::string& set, const SluiceWriteOptions& options) {
  const std::string dir = fs::path(manifest_path).parent_path().string();
  const std::string stem = fs::path(manifest_path).stem().string();
  EdgeSetPaths paths;
  paths.index = (fs::path(dir) / (stem + "." + set + ".index")).string();
  const std::vector<std::string> dirs = options.drive_dirs.empty() ? std::vector<std::string>{dir} : options.drive_dirs;
  for (size_t d = 0; d < dirs.size(); ++d) {
    paths.drives.push_back((fs::path(dirs[d].empty() ? "." : dirs[d]) / (stem + "." + set + "." + std::to_string(d))).string());
  }
  return paths;
}

EdgeSetFiles write_edge_set(BlockGraph& graph, const std::string& manifest_path, const Manifest& manifest,
                            const std::string& suffix, const SluiceWriteOptions& options, const LayoutReplacement& replacement,
                            std::vector<AtomicFile>& outputs) {
  const GraphInfo& info = graph.info();
  const std::string dir = fs::path(manifest_path).parent_path().string();
  const DriveHeader identity = identity_of(manifest, manifest_path, suffix);

  const EdgeSetPaths paths = edge_set_paths(manifest_path, suffix, options);
  const std::vector<std::string>& drive_paths = paths.drives;
  EdgeSetFiles files;
  for (const std::string& p : drive_paths) {
    replacement.check_drive_file(p);
    files.drives.push_back(relative_to(dir, p));
  }
  replacement.check_index(paths.index);

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

  InterleavedEdgeWriter writer(drive_paths, RecordLayout{info.id_bytes, info.weighted},
                               PageInterleaving{options.page_bytes, unsigned(drive_paths.size()), options.page_bytes}, info.edges,
                               identity);
  Progress progress("writing " + suffix + " edges", info.edges, options.progress);
  for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
    writer.append(block.targets, block.weights, block.edges);
    progress.advance(block.edges);
  });
  progress.done();
  std::vector<uint64_t> sums = writer.finish();
  for (auto& f : writer.files()) outputs.push_back(std::move(f));

  const std::string& index_path = paths.index;
  outputs.emplace_back(index_path);
  files.index = relative_to(dir, index_path);
  files.index_checksum = write_index(outputs.back(), index, sums);
  return files;
}

}  // namespace

std::vector<NamedFile> sluice_layout_files_to_write(const std::string& manifest_path, bool transpose,
                                                    const SluiceWriteOptions& options) {
  std::vector<NamedFile> files{{manifest_path, "the output's manifest"}};
  for (const char* set : {"out", "in"}) {
    if (std::string(set) == "in" && !transpose) break;
    const EdgeSetPaths paths = edge_set_paths(manifest_path, set, options);
    files.push_back({paths.index, std::string("the output's ") + set + " index"});
    for (const std::string& d : paths.drives) files.push_back({d, std::string("a drive file of the output's ") + set + " edges"});
  }
  return files;
}

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
  if (options.page_bytes < 512 || (options.page_bytes & (options.page_bytes - 1))) {
    throw std::invalid_argument("the page size must be a power of two of at least 512 bytes");
  }
  const LayoutReplacement replacement(manifest_path, options.drive_dirs, options.force);
  std::vector<AtomicFile> outputs;
  Manifest manifest;
  manifest.layout_id = new_layout_id();
  manifest.info = graph.info();
  manifest.page_bytes = options.page_bytes;
  manifest.out.drives.resize(options.drive_dirs.empty() ? 1 : options.drive_dirs.size());  // the drive count, for the headers
  manifest.out = write_edge_set(graph, manifest_path, manifest, "out", options, replacement, outputs);
  if (transpose) manifest.in = write_edge_set(*transpose, manifest_path, manifest, "in", options, replacement, outputs);
  outputs.emplace_back(manifest_path);
  outputs.back().write(manifest.text());
  commit_all(outputs);
  replacement.remove_leftovers(sluice_layout_files_to_write(manifest_path, transpose != nullptr, options));
}

}  // namespace sluice
