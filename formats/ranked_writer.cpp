#include "formats/ranked_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/directory_lock.hpp"
#include "base/open_file_limit.hpp"
#include "base/signal_cleanup.hpp"
#include "formats/external_csr.hpp"
#include "formats/graph_source.hpp"
#include "layout/drive_header.hpp"
#include "layout/id_map_file.hpp"
#include "layout/manifest.hpp"
#include "layout/sampled_targets.hpp"

namespace sluice::formats {

namespace fs = std::filesystem;

namespace {

// Every vertex's in-degree, in one pass over the blocks.
std::vector<uint64_t> in_degrees_of(BlockGraph& graph) {
  std::vector<uint64_t> degrees(graph.info().vertices, 0);
  for_each_block_in_order(graph, 0, graph.info().vertices, [&](const EdgeBlock& block) {
    for (uint64_t i = 0; i < block.edges; ++i) ++degrees[block.target(i)];
  });
  return degrees;
}

// The edges of `graph` into each rank of [first, last), kept in their
// order, as in-memory graphs over every vertex id: one pass over the
// input for the whole group of ranks.
template <class V>
std::vector<std::unique_ptr<BlockGraph>> parts_into(BlockGraph& graph, const std::vector<uint64_t>& bounds, unsigned first,
                                                    unsigned last, const std::vector<uint64_t>& part_edges) {
  const base::GraphInfo& info = graph.info();
  std::vector<Csr<V>> csrs(last - first);
  for (unsigned r = first; r < last; ++r) {
    Csr<V>& csr = csrs[r - first];
    csr.vertices = info.vertices;
    csr.weighted = info.weighted;
    csr.symmetric = info.symmetric;  // a part records the whole graph's symmetry (it never pulls over its out-edges)
    csr.offsets = base::Array<uint64_t>(info.vertices + 1, "a part's offsets");
    csr.targets = base::Array<V>(part_edges[r], "a part's targets");
    if (info.weighted) csr.weights = base::Array<float>(part_edges[r], "a part's weights");
  }
  std::vector<uint64_t> kept(last - first, 0);
  const uint64_t group_begin = bounds[first], group_end = bounds[last];
  uint64_t next_vertex = 0;
  for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
    for (uint64_t u = block.begin; u < block.end; ++u) {
      for (size_t i = 0; i < csrs.size(); ++i) csrs[i].offsets[u] = kept[i];
      for (uint64_t i = block.offsets[u - block.begin] - block.first_edge(); i < block.offsets[u - block.begin + 1] - block.first_edge(); ++i) {
        const uint64_t target = block.target(i);
        if (target < group_begin || target >= group_end) continue;
        const size_t part = size_t(std::upper_bound(bounds.begin() + first + 1, bounds.begin() + last + 1, target) - bounds.begin()) - 1 - first;
        Csr<V>& csr = csrs[part];
        csr.targets[kept[part]] = V(target);
        if (info.weighted) csr.weights[kept[part]] = block.weights[i];
        ++kept[part];
      }
    }
    next_vertex = block.end;
  });
  std::vector<std::unique_ptr<BlockGraph>> parts;
  for (size_t i = 0; i < csrs.size(); ++i) {
    for (uint64_t u = next_vertex; u <= info.vertices; ++u) csrs[i].offsets[u] = kept[i];
    if (kept[i] != part_edges[first + i]) throw std::logic_error("a part's edge count changed between two passes over the input");
    parts.push_back(std::make_unique<BlockGraph>(std::make_unique<InMemorySource<V>>(std::move(csrs[i]), graph.format()), graph.options()));
  }
  return parts;
}

// A part built in memory: offsets over every vertex, its edges.
uint64_t part_bytes(const base::GraphInfo& info, uint64_t edges) {
  return 8 * (info.vertices + 1) + edges * (info.id_bytes + (info.weighted ? 4 : 0));
}

// Consecutive groups of ranks whose parts are built in one pass each: as
// many as fit in max(the largest part, 256 MiB) or, bounded, in `cap`, so
// that a layout of many small parts costs a few passes over the input,
// not one per rank.
std::vector<unsigned> pass_groups(const base::GraphInfo& info, const std::vector<uint64_t>& part_edges, uint64_t cap) {
  auto bytes_of = [&](unsigned r) { return part_bytes(info, part_edges[r]); };
  uint64_t budget = uint64_t(256) << 20;
  for (unsigned r = 0; r < part_edges.size(); ++r) budget = std::max(budget, bytes_of(r));
  if (cap) budget = cap;
  std::vector<unsigned> starts{0};
  uint64_t held = 0;
  for (unsigned r = 0; r < part_edges.size(); ++r) {
    if (held + bytes_of(r) > budget && r > starts.back()) starts.push_back(r), held = 0;
    held += bytes_of(r);
  }
  starts.push_back(unsigned(part_edges.size()));
  return starts;
}

std::vector<std::unique_ptr<BlockGraph>> parts_into(BlockGraph& graph, const std::vector<uint64_t>& bounds, unsigned first,
                                                    unsigned last, const std::vector<uint64_t>& part_edges) {
  return graph.info().id_bytes == 4 ? parts_into<uint32_t>(graph, bounds, first, last, part_edges)
                                    : parts_into<uint64_t>(graph, bounds, first, last, part_edges);
}

// Each rank's share of `degrees`: the edges into (or out of) its range.
std::vector<uint64_t> per_rank(const std::vector<uint64_t>& degrees, const std::vector<uint64_t>& bounds) {
  std::vector<uint64_t> sums(bounds.size() - 1, 0);
  for (size_t r = 0; r + 1 < bounds.size(); ++r) {
    for (uint64_t v = bounds[r]; v < bounds[r + 1]; ++v) sums[r] += degrees[v];
  }
  return sums;
}

bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// The part manifests of the ranked layout now at `manifest_path` (none
// when there is none, or it is not ranked).
std::vector<std::string> previous_parts(const std::string& manifest_path, std::string& layout_id) {
  std::vector<std::string> parts;
  try {
    const layout::Manifest top = layout::Manifest::read(manifest_path);
    layout_id = top.layout_id;
    for (const layout::RankPart& p : top.parts) {
      for (const std::string& m : {p.manifest, p.transpose}) {
        if (!m.empty()) parts.push_back(layout::path_in_layout(manifest_path, m));
      }
    }
  } catch (const std::exception&) {
    // Missing or not a layout: none of its parts may be replaced without --force.
  }
  return parts;
}

// Removes a part of the old layout that the new one does not have: its
// files that still belong to it, then its manifest.
void remove_old_part(const std::string& part_path, const std::string& old_layout_id) {
  try {
    const layout::Manifest part = layout::Manifest::read(part_path);
    if (!part.part || part.part->whole_layout != old_layout_id) return;  // not the old layout's any more
    layout::LayoutReplacement(part_path, {}, false).remove_leftovers({});
    ::unlink(part_path.c_str());
  } catch (const std::exception&) {
    // Damaged or gone: not ours to judge.
  }
}

// The drive directories a conversion makes for "{rank}" patterns, removed
// again (when empty) if it fails or is interrupted.
class MadeDirectories {
 public:
  MadeDirectories() = default;
  MadeDirectories(const MadeDirectories&) = delete;
  MadeDirectories& operator=(const MadeDirectories&) = delete;
  ~MadeDirectories() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      if (!kept_) ::rmdir(it->first.c_str());
      base::forget_on_signals(it->second);
    }
  }
  void make(const std::string& dir) {
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
      missing.push_back(p);
      if (p == p.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (!fs::create_directory(*it, ec) && ec) throw std::runtime_error(it->string() + ": cannot make the drive directory: " + ec.message());
      made_.emplace_back(it->string(), base::remove_on_signals(it->string(), true));
    }
  }
  void keep() { kept_ = true; }

 private:
  std::vector<std::pair<std::string, size_t>> made_;
  bool kept_ = false;
};

std::string relative_to_manifest(const std::string& manifest_path, const std::string& path) {
  return fs::path(path).lexically_relative(fs::path(manifest_path).parent_path()).string();
}

}  // namespace

std::vector<uint64_t> rank_boundaries(const std::vector<uint64_t>& in_degrees, unsigned ranks, double alpha) {
  const uint64_t n = in_degrees.size();
  double total = 0;
  for (uint64_t d : in_degrees) total += alpha + double(d);
  std::vector<uint64_t> bounds{0};
  double sum = 0;
  uint64_t v = 0;
  // On graphs of many pieces, a bound moves to the nearest piece of the
  // sample file (layout/sampled_targets.hpp): a rank reads its range's
  // samples by whole pieces, and a range of whole pieces reads none of
  // its neighbours'. Half a piece shifts a range's weight by little there.
  constexpr uint64_t piece = layout::SampleFile::piece_vertices;
  const bool align = n >= uint64_t(ranks) * piece * 8;
  for (unsigned r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    while (v < n && sum + (alpha + double(in_degrees[v])) / 2 < target) sum += alpha + double(in_degrees[v++]);
    bounds.push_back(align ? std::max(bounds.back(), std::min(n, (v + piece / 2) / piece * piece)) : v);
  }
  bounds.push_back(n);
  return bounds;
}

std::string part_manifest_path(const std::string& manifest_path, unsigned rank, bool transpose_graph) {
  const fs::path p(manifest_path);
  return (p.parent_path() / (p.stem().string() + ".part" + std::to_string(rank) + (transpose_graph ? ".t" : "") + ".sluice")).string();
}

std::vector<std::string> part_drive_dirs(const std::vector<std::string>& patterns, unsigned rank) {
  std::vector<std::string> dirs;
  for (std::string d : patterns) {
    for (size_t at = d.find("{rank}"); at != std::string::npos; at = d.find("{rank}", at)) d.replace(at, 6, std::to_string(rank));
    dirs.push_back(std::move(d));
  }
  return dirs;
}

namespace {

std::vector<unsigned> every_rank(unsigned ranks) {
  std::vector<unsigned> all(ranks);
  std::iota(all.begin(), all.end(), 0u);
  return all;
}

// A part's layout options: its drive directories; no id map of its own
// (the whole layout's is beside the top manifest).
SluiceWriteOptions part_write_options(const RankedWriteOptions& options, unsigned rank) {
  SluiceWriteOptions part = options.layout;
  part.drive_dirs = part_drive_dirs(options.drive_patterns, rank);
  part.with_ids = false;
  return part;
}

// The files of the parts of `ranks` and, when `top`, of the top manifest
// and id map, first.
std::vector<base::NamedFile> files_of(const std::string& manifest_path, const RankedWriteOptions& options,
                                      const std::vector<unsigned>& ranks, bool top) {
  std::vector<base::NamedFile> files;
  if (top) {
    files.push_back({manifest_path, "the output's manifest"});
    if (options.layout.with_ids) files.push_back({id_map_path(manifest_path), "the output's id map"});
  }
  for (unsigned r : ranks) {
    for (bool transposed : {false, true}) {
      if (transposed && !options.transpose) break;
      for (base::NamedFile& f : sluice_layout_files_to_write(part_manifest_path(manifest_path, r, transposed), options.transpose,
                                                             part_write_options(options, r))) {
        files.push_back(std::move(f));
      }
    }
  }
  return files;
}

}  // namespace

std::vector<base::NamedFile> ranked_layout_files_to_write(const std::string& manifest_path, const RankedWriteOptions& options) {
  return files_of(manifest_path, options, every_rank(options.ranks), true);
}

namespace {

// Held beside a bounded build, per vertex: the in- and out-degrees, the
// graph's and its transpose's offsets, a part's and its transpose's
// offsets, the writer's degrees and index (56 bytes), and the block
// buffers of the graphs open at once (measured: 96 in all keeps RMAT 20
// on 4 ranks within its limit).
constexpr uint64_t held_per_vertex = 96;

}  // namespace

struct RankedPartsWriter::State {
  std::string manifest_path;
  RankedWriteOptions options;
  std::vector<unsigned> ranks_here;
  bool writes_top = false;
  std::vector<base::NamedFile> to_write;
  std::optional<layout::LayoutReplacement> top_replacement;
  std::string old_layout_id;
  std::vector<std::string> old_parts;
  MadeDirectories made;
  std::vector<StagedLayout> staged;
  std::vector<base::AtomicFile> top_files;
  layout::Manifest top;
  BuildMemory bounded_memory;

  SluiceWriteOptions part_options(unsigned r, bool weighted) const {
    SluiceWriteOptions o = part_write_options(options, r);
    if (weighted) o.sample_edges = 0;
    return o;
  }
};

RankedPartsWriter::RankedPartsWriter(const std::string& manifest_path, const RankedWriteOptions& options,
                                     std::vector<unsigned> ranks_here, bool writes_top, bool relabelled)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.manifest_path = manifest_path;
  s.options = options;
  s.ranks_here = std::move(ranks_here);
  s.writes_top = writes_top;
  s.bounded_memory = options.memory;
  s.bounded_memory.held_per_vertex = held_per_vertex;
  s.to_write = files_of(manifest_path, options, s.ranks_here, writes_top);
  base::reserve_open_files(s.to_write.size(), "a layout split for " + std::to_string(options.ranks) + " ranks");

  // Before anything is written: every file may be replaced. A part's
  // manifest only if the layout now at manifest_path lists it.
  s.top_replacement.emplace(manifest_path, std::vector<std::string>{}, options.layout.force);
  s.old_parts = previous_parts(manifest_path, s.old_layout_id);
  auto was_listed = [&](const std::string& part_path) {
    return std::any_of(s.old_parts.begin(), s.old_parts.end(), [&](const std::string& p) { return same_path(p, part_path); });
  };
  for (unsigned r : s.ranks_here) {
    for (bool transposed : {false, true}) {
      if (transposed && !options.transpose) break;
      const std::string part_path = part_manifest_path(manifest_path, r, transposed);
      std::error_code ec;
      if (!options.layout.force && fs::exists(part_path, ec) && !was_listed(part_path)) {
        throw std::runtime_error(part_path + ": exists and is not a part of the layout " + manifest_path +
                                 "; converting would replace it (pass --force to overwrite it, or choose another name)");
      }
      check_replaceable(layout::LayoutReplacement(part_path, {}, options.layout.force), part_path, options.transpose,
                        s.part_options(r, false));
    }
  }
  if (writes_top && relabelled) s.top_replacement->check_id_map(id_map_path(manifest_path));
  sweep_dead_temporaries(manifest_path, {});
  std::vector<std::string> swept_dirs;
  for (const std::string& pattern : options.drive_patterns) {
    for (unsigned r : s.ranks_here) {
      const std::string d = part_drive_dirs({pattern}, r).front();
      if (std::find(swept_dirs.begin(), swept_dirs.end(), d) != swept_dirs.end()) continue;
      if (pattern.find("{rank}") != std::string::npos) s.made.make(d);
      sweep_dead_temporaries(manifest_path, {d});
      swept_dirs.push_back(d);
    }
  }
}

RankedPartsWriter::~RankedPartsWriter() = default;

void RankedPartsWriter::stage(BlockGraph& part, unsigned r, bool transposed, const std::vector<uint64_t>& bounds,
                              const std::string& layout_id) {
  State& s = *state_;
  std::unique_ptr<BlockGraph> by_destination;
  if (s.options.transpose) by_destination = transpose_of(part, s.options.threads, s.bounded_memory);
  const std::string part_path = part_manifest_path(s.manifest_path, r, transposed);
  SluiceWriteOptions o = s.part_options(r, part.info().weighted);
  o.part = layout::PartOf{r, s.options.ranks, bounds[r], bounds[r + 1], relative_to_manifest(part_path, s.manifest_path), layout_id,
                          transposed};
  if (s.options.layout.progress) {
    std::fprintf(stderr, "%s %u of %u: vertices [%llu, %llu), %llu edges\n", transposed ? "transpose's part" : "part", r,
                 s.options.ranks, (unsigned long long)bounds[r], (unsigned long long)bounds[r + 1],
                 (unsigned long long)part.info().edges);
  }
  s.staged.push_back(stage_sluice_layout(part, by_destination.get(), part_path, o));
}

void RankedPartsWriter::publish_parts() {
  for (StagedLayout& part : state_->staged) {
    for (base::AtomicFile& f : part.files) f.publish();
  }
}

void RankedPartsWriter::publish_top(const base::GraphInfo& info, const base::IdMap& ids, const std::vector<uint64_t>& bounds,
                                    const std::string& layout_id) {
  State& s = *state_;
  const std::string& manifest_path = s.manifest_path;
  layout::Manifest& top = s.top;
  top.layout_id = layout_id;
  top.info = info;
  top.alpha = ranked_layout_alpha;
  for (unsigned r = 0; r < s.options.ranks; ++r) {
    const std::string part_path = part_manifest_path(manifest_path, r);
    layout::RankPart listed{relative_to_manifest(manifest_path, part_path), "", bounds[r], bounds[r + 1]};
    if (s.options.transpose) listed.transpose = relative_to_manifest(manifest_path, part_manifest_path(manifest_path, r, true));
    top.parts.push_back(std::move(listed));
  }
  // The id map of a relabelled graph: one for the whole layout, beside its top manifest.
  if (!ids.empty()) {
    s.top_files.emplace_back(id_map_path(manifest_path));
    top.ids = fs::path(id_map_path(manifest_path)).filename().string();
    top.ids_checksum = layout::write_id_map_file(s.top_files.back(), ids);
  }
  s.top_files.emplace_back(manifest_path).write(top.text());
  for (base::AtomicFile& f : s.top_files) f.finish();
  for (base::AtomicFile& f : s.top_files) f.publish();
  // Then what the old layout had and the new one does not.
  std::vector<base::NamedFile> written = ranked_layout_files_to_write(manifest_path, s.options);
  if (top.ids.empty()) {
    std::erase_if(written, [&](const base::NamedFile& f) { return f.path == id_map_path(manifest_path); });
  }
  s.top_replacement->remove_leftovers(written);
  for (const std::string& old : s.old_parts) {
    const bool rewritten = std::any_of(written.begin(), written.end(), [&](const base::NamedFile& f) { return same_path(f.path, old); });
    if (!rewritten) remove_old_part(old, s.old_layout_id);
  }
}

void RankedPartsWriter::finish() {
  State& s = *state_;
  s.made.keep();
  for (StagedLayout& part : s.staged) part.replacement.remove_leftovers(part.written);
}

void write_ranked_sluice_layout(BlockGraph& graph, const std::string& manifest_path, const RankedWriteOptions& options) {
  if (options.ranks == 0) throw std::invalid_argument("--ranks must be at least 1");
  if (options.ranks > max_ranks) {
    throw std::invalid_argument("--ranks " + std::to_string(options.ranks) + " is more than the " + std::to_string(max_ranks) +
                                " ranks a layout may be split for");
  }
  const base::GraphInfo& info = graph.info();
  if (options.ranks > std::max<uint64_t>(info.vertices, 1)) {
    throw std::invalid_argument("--ranks " + std::to_string(options.ranks) + " is more than the graph's " +
                                std::to_string(info.vertices) + " vertices");
  }
  RankedPartsWriter writer(manifest_path, options, every_rank(options.ranks), true, !graph.source().ids().empty());

  const std::vector<uint64_t> in_degrees = in_degrees_of(graph);
  const std::vector<uint64_t> bounds = rank_boundaries(in_degrees, options.ranks, ranked_layout_alpha);
  const std::string layout_id = layout::new_layout_id();
  BuildMemory bounded_memory = options.memory;
  bounded_memory.held_per_vertex = held_per_vertex;
  // Splits `source` by destination over the ranks, a group of parts a pass.
  auto stage_parts = [&](BlockGraph& source, const std::vector<uint64_t>& part_edges, bool transposed) {
    // Bounded, a part in memory and its transpose's build (about 3 times
    // the part) share what the limit leaves.
    const uint64_t held = (info.vertices + 1) * held_per_vertex;
    const uint64_t cap = !options.memory.bounded() ? 0 : options.memory.limit > held ? (options.memory.limit - held) / 4 : 1;
    const std::vector<unsigned> groups = pass_groups(info, part_edges, cap);
    for (size_t g = 0; g + 1 < groups.size(); ++g) {
      if (cap && groups[g + 1] == groups[g] + 1 && part_bytes(info, part_edges[groups[g]]) > cap) {
        // Alone beyond the cap: built on scratch files from a pass over `source`.
        const unsigned r = groups[g];
        BuildOptions build;
        build.threads = options.threads;
        build.memory = bounded_memory;
        build.sorted_for_pages = options.layout.compress;
        EdgePasses edges = passes_into(source.source(), bounds[r], bounds[r + 1], chunk_edges(bounded_memory));
        edges.edges = part_edges[r];
        BlockGraph part(build_external_csr(std::move(edges), build), source.options());
        writer.stage(part, r, transposed, bounds, layout_id);
        continue;
      }
      std::vector<std::unique_ptr<BlockGraph>> parts = parts_into(source, bounds, groups[g], groups[g + 1], part_edges);
      for (unsigned r = groups[g]; r < groups[g + 1]; ++r) {
        writer.stage(*parts[r - groups[g]], r, transposed, bounds, layout_id);
        parts[r - groups[g]].reset();
      }
    }
  };
  stage_parts(graph, per_rank(in_degrees, bounds), false);
  // With the transpose, the transpose graph too, split over the same
  // ranges: rank r's part holds the edges out of its range, reversed.
  if (options.transpose) {
    std::unique_ptr<BlockGraph> reversed = transpose_of(graph, options.threads, bounded_memory);
    std::vector<uint64_t> out_degrees(info.vertices, 0);
    graph.for_each_vertex([&](uint64_t v, uint64_t, uint64_t degree) { out_degrees[v] = degree; });
    stage_parts(*reversed, per_rank(out_degrees, bounds), true);
  }
  // In place: every part, then the top manifest; one conversion at a time.
  {
    const base::DirectoryLock lock(fs::path(manifest_path).parent_path().string());
    writer.publish_parts();
    writer.publish_top(info, graph.source().ids(), bounds, layout_id);
  }
  writer.finish();
}

}  // namespace sluice::formats
