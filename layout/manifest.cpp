#include "layout/manifest.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/errors.hpp"
#include "base/format_names.hpp"
#include "base/mapped_file.hpp"

namespace sluice::layout {

namespace fs = std::filesystem;

namespace {

FileIdentity identity_of(const struct stat& st) {
  return {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_mtim.tv_sec) * 1000000000u + uint64_t(st.st_mtim.tv_nsec)};
}

// A float as text that reads back as the same float.
std::string exact(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(value));
  return text;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

// What to say of a file given where a manifest belongs: what it seems to
// be, and the command that would make a layout of it (never one that names
// the file itself as its output).
base::InputError not_a_layout(const std::string& path, std::string_view bytes) {
  std::string format = base::format_from_extension(path);
  const bool by_name = !format.empty() && format != "sluice";
  if (!by_name) format = base::format_from_bytes(bytes);
  if (format.empty()) {
    return base::InputError(path, base::at_byte(0), "not a sluice layout: a manifest starts with 'sluice-graph', and this file "
                                        "does not look like a graph of any format either");
  }
  const fs::path p(path);
  std::string stem = p.filename().string();
  stem = stem.substr(0, stem.find('.'));
  std::string output = (p.parent_path() / (stem + ".sluice")).string();
  if (fs::absolute(output) == fs::absolute(path)) output = (p.parent_path() / (stem + "-layout.sluice")).string();
  return base::InputError(path, "", "not a sluice layout (" + std::string(by_name ? "its name says " : "it reads as ") + format +
                                  "): make one with `sluice convert " + path + " " + output +
                                  (by_name ? "" : " --format " + format) + " --drives DIR[,DIR...]`");
}

class ManifestParser {
 public:
  explicit ManifestParser(const std::string& path) : path_(path) {
    // Opened as a regular file only: a FIFO would block the open forever.
    base::FileDescriptor file = base::FileDescriptor::open_for_reading(path);
    struct stat st {};
    if (::fstat(file.get(), &st) != 0) base::throw_system_error(path, "fstat");
    if (uint64_t(st.st_size) > (uint64_t(64) << 20)) {
      throw base::InputError(path, "", "holds " + std::to_string(st.st_size) + " bytes: too large to be a sluice manifest");
    }
    identity_ = identity_of(st);
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
      if (space == std::string::npos) throw base::InputError(path, base::at_line(number), "expected 'key value'");
      std::string key = line.substr(0, space);
      if (values_.count(key)) throw base::InputError(path, base::at_line(number), "key '" + key + "' appears twice");
      values_[key] = {line.substr(space + 1), number};
    }
  }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const FileIdentity& identity() const { return identity_; }
  const std::string& text(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw base::InputError(path_, "", "the manifest lacks the key '" + key + "'");
    return it->second.first;
  }
  uint64_t number(const std::string& key, int base = 10) const {
    const std::string& value = text(key);
    char* end = nullptr;
    errno = 0;
    unsigned long long parsed = std::strtoull(value.c_str(), &end, base);
    if (value.empty() || *end != '\0' || errno) {
      throw base::InputError(path_, base::at_line(values_.at(key).second), "expected a number for '" + key + "'");
    }
    return parsed;
  }
  // "LEAST MOST", two floats (inf -inf: no edges).
  WeightRange weight_range(const std::string& key) const {
    std::istringstream in(text(key));
    std::string least, most, rest;
    in >> least >> most;
    WeightRange range;
    char* end_least = nullptr;
    char* end_most = nullptr;
    range.least = std::strtof(least.c_str(), &end_least);
    range.most = std::strtof(most.c_str(), &end_most);
    if (least.empty() || most.empty() || *end_least != '\0' || *end_most != '\0' || (in >> rest) || std::isnan(range.least) ||
        std::isnan(range.most) || (range.least > range.most && !(std::isinf(range.least) && std::isinf(range.most)))) {
      throw base::InputError(path_, base::at_line(values_.at(key).second), "expected the least and the largest weight for '" + key + "'");
    }
    return range;
  }

 private:
  std::string path_;
  FileIdentity identity_;
  std::map<std::string, std::pair<std::string, uint64_t>> values_;
};

EdgeSetFiles parse_edge_set(const ManifestParser& p, const std::string& prefix, unsigned drives, bool compressed, bool sampled) {
  EdgeSetFiles files;
  files.index = p.text(prefix + ".index");
  files.index_checksum = p.number(prefix + ".index_xxh64", 16);
  if (compressed) files.pages = p.number(prefix + ".pages");
  if (sampled) {
    files.sample = p.text(prefix + ".sample");
    files.sample_checksum = p.number(prefix + ".sample_xxh64", 16);
  }
  for (unsigned d = 0; d < drives; ++d) files.drives.push_back(p.text(prefix + ".drive." + std::to_string(d)));
  return files;
}

void print_edge_set(std::ostringstream& out, const std::string& prefix, const EdgeSetFiles& files, bool compressed) {
  out << prefix << ".index " << files.index << "\n";
  out << prefix << ".index_xxh64 " << hex(files.index_checksum) << "\n";
  if (compressed) out << prefix << ".pages " << files.pages << "\n";
  if (!files.sample.empty()) {
    out << prefix << ".sample " << files.sample << "\n";
    out << prefix << ".sample_xxh64 " << hex(files.sample_checksum) << "\n";
  }
  for (size_t d = 0; d < files.drives.size(); ++d) out << prefix << ".drive." << d << " " << files.drives[d] << "\n";
}

}  // namespace

FileIdentity FileIdentity::of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return identity_of(st);
}

std::string path_in_layout(const std::string& manifest_path, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() ? path : (fs::path(manifest_path).parent_path() / p).string();
}

void WeightRange::add(const float* weights, uint64_t count) {
  float low = least, high = most;
  for (uint64_t e = 0; e < count; ++e) low = std::min(low, weights[e]), high = std::max(high, weights[e]);
  least = low, most = high;
}

void WeightRange::add(const WeightRange& other) {
  least = std::min(least, other.least), most = std::max(most, other.most);
}

Manifest Manifest::read(const std::string& path) {
  ManifestParser p(path);
  Manifest m;
  m.read_from = p.identity();
  if (!p.has("sluice-graph")) throw base::InputError(path, base::at_line(1), "expected 'sluice-graph VERSION' (not a sluice manifest)");
  m.version = unsigned(p.number("sluice-graph"));
  if (m.version > sluice_layout_version) {
    throw base::InputError(path, base::at_line(1), "layout version " + std::to_string(m.version) + " was written by a newer sluice (" +
                                           "sluice " SLUICE_VERSION " reads version " + std::to_string(sluice_layout_version) +
                                           "): use a newer sluice to read it");
  }
  if (m.version != sluice_layout_version) {
    throw base::InputError(path, base::at_line(1), "layout version " + std::to_string(m.version) + " is not supported (expected " +
                                           std::to_string(sluice_layout_version) + "): convert the graph again" +
                                           (m.version == 1 ? " (version 2 added drive headers and page checksums)" : ""));
  }
  m.layout_id = p.text("layout");
  if (m.layout_id.size() != 32 || m.layout_id.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw base::InputError(path, "", "'layout' must be 32 hex digits");
  }
  m.info.vertices = base::checked_vertex_count(p.number("vertices"), path, "");
  m.info.edges = p.number("edges");
  if (m.info.edges > (uint64_t(1) << 56)) throw base::InputError(path, "", "edges " + std::to_string(m.info.edges) + " is impossible");
  m.info.weighted = p.number("weighted") != 0;
  m.info.symmetric = p.has("symmetric") && p.number("symmetric") != 0;  // absent before it was recorded: not known
  m.info.id_bytes = unsigned(p.number("id_bytes"));
  if (m.info.id_bytes != 4 && m.info.id_bytes != 8) throw base::InputError(path, "", "id_bytes must be 4 or 8");
  if (p.has("weights")) m.weights = p.weight_range("weights");
  if (p.has("ids")) {
    m.ids = p.text("ids");
    m.ids_checksum = p.number("ids_xxh64", 16);
  }
  if (p.has("ranks") && !p.has("rank")) {  // a top manifest: parts, no edge sets
    const uint64_t ranks = p.number("ranks");
    if (ranks == 0 || ranks > 65536) throw base::InputError(path, "", "ranks must be between 1 and 65536");
    m.alpha = std::strtod(p.text("alpha").c_str(), nullptr);
    uint64_t next = 0;
    for (uint64_t r = 0; r < ranks; ++r) {
      const std::string key = "part." + std::to_string(r);
      RankPart part{p.text(key + ".manifest"), p.has(key + ".transpose") ? p.text(key + ".transpose") : "", 0, 0};
      part.begin = p.number(key + ".begin");
      part.end = p.number(key + ".end");
      if (part.begin != next || part.end < part.begin || part.end > m.info.vertices) {
        throw base::InputError(path, "", key + " covers [" + std::to_string(part.begin) + ", " + std::to_string(part.end) +
                                             "): the parts' ranges must follow each other from 0 to the vertex count");
      }
      next = part.end;
      m.parts.push_back(std::move(part));
    }
    if (next != m.info.vertices) throw base::InputError(path, "", "the parts' ranges end at " + std::to_string(next) + ", not at the vertex count");
    return m;
  }
  if (p.has("rank")) {
    PartOf part;
    part.rank = unsigned(p.number("rank"));
    part.ranks = unsigned(p.number("ranks"));
    part.begin = p.number("range_begin");
    part.end = p.number("range_end");
    part.whole = p.text("whole");
    part.whole_layout = p.text("whole_layout");
    part.transpose_graph = p.has("transpose_graph") && p.number("transpose_graph") != 0;
    if (part.rank >= part.ranks || part.begin > part.end || part.end > m.info.vertices) {
      throw base::InputError(path, "", "rank " + std::to_string(part.rank) + " of " + std::to_string(part.ranks) + " owning [" +
                                           std::to_string(part.begin) + ", " + std::to_string(part.end) + ") is impossible");
    }
    m.part = std::move(part);
  }
  m.page_bytes = p.number("page_bytes");
  if (m.page_bytes < 512 || m.page_bytes > (1 << 24) || (m.page_bytes & (m.page_bytes - 1))) {
    throw base::InputError(path, "", "page_bytes must be a power of two from 512 to 16 MiB");
  }
  uint64_t drives = p.number("drives");
  if (drives == 0 || drives > 4096) throw base::InputError(path, "", "drives must be between 1 and 4096");
  if (p.has("compression")) {
    if (p.text("compression") != "gap-vbyte") {
      throw base::InputError(path, "", "compression '" + p.text("compression") + "' is not known (sluice " SLUICE_VERSION
                                       " reads gap-vbyte): use a newer sluice to read it");
    }
    m.compressed = true;
  }
  if (p.has("sample_edges")) {
    m.sample_edges = uint32_t(std::min<uint64_t>(p.number("sample_edges"), max_sample_edges + 1));
    if (m.sample_edges == 0 || m.sample_edges > max_sample_edges) {
      throw base::InputError(path, "", "sample_edges must be between 1 and " + std::to_string(max_sample_edges));
    }
  }
  m.out = parse_edge_set(p, "out", unsigned(drives), m.compressed, m.sample_edges != 0);
  if (p.number("transpose")) m.in = parse_edge_set(p, "in", unsigned(drives), m.compressed, m.sample_edges != 0);
  return m;
}

std::string Manifest::text() const {
  std::ostringstream out;
  out << "sluice-graph " << version << "\n";
  out << "# sluice on-disk graph; see layout/README.md\n";
  out << "layout " << layout_id << "\n";
  out << "vertices " << info.vertices << "\n";
  out << "edges " << info.edges << "\n";
  out << "weighted " << (info.weighted ? 1 : 0) << "\n";
  out << "symmetric " << (info.symmetric ? 1 : 0) << "\n";
  out << "id_bytes " << info.id_bytes << "\n";
  if (weights) out << "weights " << exact(weights->least) << " " << exact(weights->most) << "\n";
  if (!ids.empty()) {
    out << "ids " << ids << "\n";
    out << "ids_xxh64 " << hex(ids_checksum) << "\n";
  }
  if (is_ranked()) {
    out << "ranks " << parts.size() << "\n";
    out << "alpha " << alpha << "\n";
    for (size_t r = 0; r < parts.size(); ++r) {
      out << "part." << r << ".manifest " << parts[r].manifest << "\n";
      if (!parts[r].transpose.empty()) out << "part." << r << ".transpose " << parts[r].transpose << "\n";
      out << "part." << r << ".begin " << parts[r].begin << "\n";
      out << "part." << r << ".end " << parts[r].end << "\n";
    }
    return out.str();
  }
  if (part) {
    out << "rank " << part->rank << "\n";
    out << "ranks " << part->ranks << "\n";
    out << "range_begin " << part->begin << "\n";
    out << "range_end " << part->end << "\n";
    out << "whole " << part->whole << "\n";
    out << "whole_layout " << part->whole_layout << "\n";
    if (part->transpose_graph) out << "transpose_graph 1\n";
  }
  out << "page_bytes " << page_bytes << "\n";
  out << "drives " << this->out.drives.size() << "\n";
  out << "transpose " << (in ? 1 : 0) << "\n";
  if (compressed) out << "compression gap-vbyte\n";
  if (sample_edges) out << "sample_edges " << sample_edges << "\n";
  print_edge_set(out, "out", this->out, compressed);
  if (in) print_edge_set(out, "in", *in, compressed);
  return out.str();
}

std::vector<base::NamedFile> Manifest::files(const std::string& manifest_path, std::optional<unsigned> rank) const {
  std::vector<base::NamedFile> files{{manifest_path, "the layout's manifest"}};
  if (!ids.empty()) files.push_back({path_in_layout(manifest_path, ids), "the layout's id map"});
  if (is_ranked()) {
    for (size_t r = 0; r < parts.size(); ++r) {
      if (rank && r != *rank) continue;
      const RankPart& p = parts[r];
      for (const std::string& manifest : {p.manifest, p.transpose}) {
        if (manifest.empty()) continue;
        const std::string part_path = path_in_layout(manifest_path, manifest);
        try {
          for (base::NamedFile& f : Manifest::read(part_path).files(part_path)) files.push_back(std::move(f));
        } catch (const std::exception&) {
          files.push_back({part_path, "a part's manifest"});
        }
      }
    }
    return files;
  }
  auto add = [&](const EdgeSetFiles& set, const std::string& name) {
    files.push_back({path_in_layout(manifest_path, set.index), "the layout's " + name + " index"});
    if (!set.sample.empty()) files.push_back({path_in_layout(manifest_path, set.sample), "the layout's " + name + " sample"});
    for (const std::string& d : set.drives) files.push_back({path_in_layout(manifest_path, d), "a drive file of the layout's " + name + " edges"});
  };
  add(out, "out");
  if (in) add(*in, "in");
  return files;
}

std::vector<base::NamedFile> sluice_layout_files(const std::string& manifest_path) {
  try {
    return Manifest::read(manifest_path).files(manifest_path);
  } catch (const std::exception&) {
    return {{manifest_path, "the layout's manifest"}};
  }
}

}  // namespace sluice::layout
