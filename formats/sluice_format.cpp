#include "formats/sluice_format.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <utility>

#include "base/directory_lock.hpp"
#include "base/errors.hpp"
#include "base/progress.hpp"
#include "base/serial_worker.hpp"
#include "formats/list_sort.hpp"
#include "layout/compressed_pages.hpp"
#include "layout/id_map_file.hpp"
#include "layout/index_file.hpp"
#include "layout/layout_replacement.hpp"
#include "layout/sampled_targets.hpp"
#include "layout/sluice_layout.hpp"

namespace sluice::formats {

namespace fs = std::filesystem;

namespace {

class SluiceSource : public GraphSource {
 public:
  SluiceSource(std::shared_ptr<layout::SluiceLayout> layout, bool transpose)
      : layout_(std::move(layout)), set_(transpose ? layout_->in() : &layout_->out()) {
    if (!set_) throw base::InputError(layout_->path(), "", "the layout was written without a transpose");
  }
  base::GraphInfo info() const override { return layout_->info(); }
  std::string format_name() const override { return "sluice"; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override {
    set_->index().read_offsets(begin, end, out);
  }
  const base::IdMap& ids() const override { return layout_->ids(); }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const override {
    uint64_t first = set_->index().offset(begin);
    uint64_t last = end == begin ? first : set_->index().offset(end - 1) + set_->index().degree(end - 1);
    set_->read_edges(first, last - first, targets, weights);
  }

 private:
  std::shared_ptr<layout::SluiceLayout> layout_;
  const layout::EdgeSet* set_;
};

std::string relative_to(const std::string& dir, const std::string& path) {
  std::error_code ec;
  fs::path abs_dir = fs::absolute(dir.empty() ? "." : dir, ec);
  fs::path abs = fs::absolute(path, ec);
  fs::path rel = abs.lexically_relative(abs_dir);
  if (!rel.empty() && *rel.begin() != "..") return rel.string();
  return abs.string();
}

// The lists of every block, in order, sorted and put into compressed pages
// (and their first targets into the sample file) in two stages that
// overlap: this thread copies a block's lists and sorts them (gaps need
// sorted lists; a weighted list by target, then by the weight's bits, so
// that equal targets come in one order whatever the input's), a worker
// puts the previous block's into pages. The pages are those one thread
// putting every list in turn makes; two blocks' sorted copies are held.
// Every block of an edge set in vertex order, once.
using EachBlock = std::function<void(const std::function<void(const EdgeBlock&)>&)>;

template <class Id>
void put_sorted_lists(const EachBlock& each_block, const base::GraphInfo& info, layout::CompressedPageEncoder& encoder,
                      layout::SampledTargetsWriter* sample, base::Progress& progress) {
  struct SortedBlock {
    uint64_t begin = 0, end = 0;     // its vertices
    std::vector<uint64_t> offsets;   // of each list in targets, and the end
    std::vector<Id> targets;
    std::vector<float> weights;      // weighted graphs
  };
  SortedBlock sorted[2];
  ListSort<Id> sort(unsigned(std::bit_width(std::max<uint64_t>(info.vertices, 2) - 1)));
  base::SerialWorker pages;  // after `sorted`: its queued tasks run before the copies go
  base::SerialWorker::Ticket putting[2] = {0, 0};
  uint64_t blocks = 0;
  each_block([&](const EdgeBlock& block) {
    const size_t b = blocks++ % 2;
    if (putting[b]) pages.wait(putting[b]);  // the block before last is in pages: its copy is free
    SortedBlock& s = sorted[b];
    const Id* targets = static_cast<const Id*>(block.targets);
    s.begin = block.begin;
    s.end = block.end;
    s.offsets.resize(block.end - block.begin + 1);
    s.targets.assign(targets, targets + block.edges);
    if (info.weighted) s.weights.assign(block.weights, block.weights + block.edges);
    for (uint64_t v = block.begin; v <= block.end; ++v) s.offsets[v - block.begin] = block.offsets[v - block.begin] - block.first_edge();
    for (uint64_t i = 0; i + 1 < s.offsets.size(); ++i) {
      sort.into_stored_order(s.targets.data() + s.offsets[i], info.weighted ? s.weights.data() + s.offsets[i] : nullptr,
                             s.offsets[i + 1] - s.offsets[i]);
    }
    putting[b] = pages.submit([&s, &encoder, sample, &progress, weighted = info.weighted] {
      for (uint64_t v = s.begin; v < s.end; ++v) {
        const uint64_t first = s.offsets[v - s.begin], count = s.offsets[v - s.begin + 1] - first;
        encoder.add_list(v, s.targets.data() + first, count, weighted ? s.weights.data() + first : nullptr);
        if (sample) sample->add(v, s.targets.data() + first, count);
      }
      progress.advance(s.offsets.back());
    });
  });
  pages.wait(std::max(putting[0], putting[1]));
}

// Where one edge set of a layout goes: NAME.SET.index beside the manifest,
// NAME.SET.D in drive directory D (beside the manifest when none given).
struct EdgeSetPaths {
  std::string index;
  std::string sample;  // "" when none is written
  std::vector<std::string> drives;
};
EdgeSetPaths edge_set_paths(const std::string& manifest_path, const std::string& set, const SluiceWriteOptions& options) {
  const std::string dir = fs::path(manifest_path).parent_path().string();
  const std::string stem = fs::path(manifest_path).stem().string();
  EdgeSetPaths paths;
  paths.index = (fs::path(dir) / (stem + "." + set + ".index")).string();
  if (options.sample_edges) paths.sample = (fs::path(dir) / (stem + "." + set + ".sample")).string();
  const std::vector<std::string> dirs = options.drive_dirs.empty() ? std::vector<std::string>{dir} : options.drive_dirs;
  for (size_t d = 0; d < dirs.size(); ++d) {
    paths.drives.push_back((fs::path(dirs[d].empty() ? "." : dirs[d]) / (stem + "." + set + "." + std::to_string(d))).string());
  }
  return paths;
}

// With `weights` (a weighted graph's out-edges), the least and the largest
// weight noted as the blocks pass.
layout::EdgeSetFiles write_edge_set(BlockGraph& graph, const std::string& manifest_path, const layout::Manifest& manifest,
                            const std::string& suffix, const SluiceWriteOptions& options,
                            std::vector<base::AtomicFile>& outputs, layout::WeightRange* weights = nullptr) {
  const base::GraphInfo& info = graph.info();
  const std::string dir = fs::path(manifest_path).parent_path().string();
  const layout::DriveHeader identity = layout::drive_identity(manifest, manifest_path, suffix);

  const EdgeSetPaths paths = edge_set_paths(manifest_path, suffix, options);
  const std::vector<std::string>& drive_paths = paths.drives;
  layout::EdgeSetFiles files;
  for (const std::string& p : drive_paths) files.drives.push_back(relative_to(dir, p));

  // Degrees, from the blocks as they pass (a bounded build hands its lists
  // over as it places them, and has no offsets before).
  base::Array<uint32_t> degrees(info.vertices, "degrees");
  const EachBlock each_block = [&](const std::function<void(const EdgeBlock&)>& f) {
    for_each_block_once(graph, [&](const EdgeBlock& block) {
      for (uint64_t u = block.begin; u < block.end; ++u) {
        const uint64_t degree = block.offsets[u - block.begin + 1] - block.offsets[u - block.begin];
        if (degree > std::numeric_limits<uint32_t>::max()) {
          throw std::runtime_error("vertex " + std::to_string(u) + " has " + std::to_string(degree) +
                                   " edges; the layout stores degrees in 32 bits");
        }
        degrees[u] = uint32_t(degree);
      }
      if (weights && block.weights) weights->add(block.weights, block.edges);
      f(block);
    });
  };

  const layout::PageInterleaving interleaving{options.page_bytes, unsigned(drive_paths.size()), options.page_bytes};
  base::Progress progress("writing " + suffix + " edges" + (options.compress ? " (compressed)" : ""), info.edges, options.progress);
  std::optional<layout::InterleavedEdgeWriter> writer;
  std::vector<uint64_t> page_starts;
  // Each vertex's first targets as stored, beside the index.
  std::optional<base::AtomicFile> sample_file;
  std::optional<layout::SampledTargetsWriter> sample;
  if (!paths.sample.empty()) {
    sample_file.emplace(paths.sample);
    sample.emplace(*sample_file, layout::SampleShape{manifest.layout_id, info.vertices, options.sample_edges, info.id_bytes});
  }
  if (options.compress) {
    writer.emplace(drive_paths, interleaving, identity);
    layout::CompressedPageEncoder encoder(options.page_bytes, info.weighted, [&](const char* page, uint64_t first_edge) {
      writer->append_page(page);
      page_starts.push_back(first_edge);
    }, info.id_bytes == 8);
    if (info.id_bytes == 8) {
      put_sorted_lists<uint64_t>(each_block, info, encoder, sample ? &*sample : nullptr, progress);
    } else {
      put_sorted_lists<uint32_t>(each_block, info, encoder, sample ? &*sample : nullptr, progress);
    }
    encoder.finish();
    files.pages = encoder.pages();
  } else {
    writer.emplace(drive_paths, layout::RecordLayout{info.id_bytes, info.weighted}, interleaving, info.edges, identity);
    each_block([&](const EdgeBlock& block) {
      writer->append(block.targets, block.weights, block.edges);
      if (sample) {
        const char* targets = static_cast<const char*>(block.targets);
        for (uint64_t v = block.begin; v < block.end; ++v) {
          const uint64_t begin = block.offsets[v - block.begin] - block.first_edge();
          sample->add(v, targets + begin * info.id_bytes, block.offsets[v - block.begin + 1] - block.offsets[v - block.begin]);
        }
      }
      progress.advance(block.edges);
    });
  }
  progress.done();
  std::vector<uint64_t> sums = writer->finish();
  for (auto& f : writer->files()) outputs.push_back(std::move(f));
  if (sample) {
    files.sample = relative_to(dir, paths.sample);
    files.sample_checksum = sample->finish();
    sample.reset();
    outputs.push_back(std::move(*sample_file));
  }

  const std::string& index_path = paths.index;
  outputs.emplace_back(index_path);
  files.index = relative_to(dir, index_path);
  files.index_checksum = layout::write_index_file(outputs.back(), {degrees.data(), degrees.size()}, sums, page_starts);
  return files;
}

}  // namespace

void manifest_ids(layout::Manifest& manifest, const std::string& manifest_path, const base::IdMap& ids,
                  std::vector<base::AtomicFile>& outputs) {
  const std::string path = id_map_path(manifest_path);
  outputs.emplace_back(path);
  manifest.ids = fs::path(path).filename().string();
  manifest.ids_checksum = layout::write_id_map_file(outputs.back(), ids);
}

std::string id_map_path(const std::string& manifest_path) {
  const fs::path p(manifest_path);
  return (p.parent_path() / (p.stem().string() + ".ids")).string();
}

std::vector<base::NamedFile> sluice_layout_files_to_write(const std::string& manifest_path, bool transpose,
                                                    const SluiceWriteOptions& options) {
  std::vector<base::NamedFile> files{{manifest_path, "the output's manifest"}};
  if (options.with_ids) files.push_back({id_map_path(manifest_path), "the output's id map"});
  for (const char* set : {"out", "in"}) {
    if (std::string(set) == "in" && !transpose) break;
    const EdgeSetPaths paths = edge_set_paths(manifest_path, set, options);
    files.push_back({paths.index, std::string("the output's ") + set + " index"});
    if (!paths.sample.empty()) files.push_back({paths.sample, std::string("the output's ") + set + " sample"});
    for (const std::string& d : paths.drives) files.push_back({d, std::string("a drive file of the output's ") + set + " edges"});
  }
  return files;
}

std::unique_ptr<GraphSource> open_sluice_layout(const std::string& manifest_path, bool transpose, std::optional<layout::RankChoice> rank) {
  return std::make_unique<SluiceSource>(std::make_shared<layout::SluiceLayout>(manifest_path, rank), transpose);
}

void check_replaceable(const layout::LayoutReplacement& replacement, const std::string& manifest_path, bool transpose,
                       const SluiceWriteOptions& options) {
  for (const char* set : {"out", "in"}) {
    if (std::string(set) == "in" && !transpose) break;
    const EdgeSetPaths paths = edge_set_paths(manifest_path, set, options);
    for (const std::string& p : paths.drives) replacement.check_drive_file(p);
    replacement.check_index(paths.index);
    if (!paths.sample.empty()) replacement.check_sample(paths.sample);
  }
  if (options.with_ids) replacement.check_id_map(id_map_path(manifest_path));
}

void sweep_dead_temporaries(const std::string& manifest_path, const std::vector<std::string>& drive_dirs) {
  const fs::path p(manifest_path);
  const std::string prefix = p.stem().string() + ".";
  base::remove_dead_temporaries(p.parent_path().string(), prefix);
  for (const std::string& d : drive_dirs) base::remove_dead_temporaries(d, prefix);
}

namespace {

// The options as written: a weighted graph gets no sample (Afforest's
// sample is of unweighted edges), a part no id map of its own.
SluiceWriteOptions options_for(const BlockGraph& graph, const SluiceWriteOptions& requested) {
  SluiceWriteOptions options = requested;
  if (graph.info().weighted) options.sample_edges = 0;
  const base::GraphInfo& info = graph.info();
  if (options.compress && !layout::compressed_pages_hold(info.vertices, info.id_bytes)) {
    if (options.compress_required) {
      throw std::runtime_error("--compress with 32-bit ids holds at most 2^31 vertices (" + std::to_string(info.vertices) +
                               "): convert with --wide-ids, or without --compress");
    }
    options.compress = false;
    if (options.progress) {
      std::cerr << "plain edge pages: compressed pages of 32-bit ids hold at most 2^31 vertices (this graph has " +
                       std::to_string(info.vertices) + "; --wide-ids compresses)\n";
    }
  }
  options.with_ids = !options.part && !graph.source().ids().empty();
  return options;
}

}  // namespace

StagedLayout stage_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                                 const SluiceWriteOptions& requested) {
  if (requested.sample_edges > layout::max_sample_edges) {
    throw std::invalid_argument("--sample-edges must be at most " + std::to_string(layout::max_sample_edges));
  }
  const SluiceWriteOptions options = options_for(graph, requested);
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
  StagedLayout staged{{}, layout::LayoutReplacement(manifest_path, options.drive_dirs, options.force),
                      sluice_layout_files_to_write(manifest_path, transpose != nullptr, options)};
  check_replaceable(staged.replacement, manifest_path, transpose != nullptr, options);
  sweep_dead_temporaries(manifest_path, options.drive_dirs);
  std::vector<base::AtomicFile>& outputs = staged.files;
  layout::Manifest manifest;
  manifest.layout_id = layout::new_layout_id();
  manifest.info = graph.info();
  manifest.page_bytes = options.page_bytes;
  manifest.compressed = options.compress;
  manifest.sample_edges = options.sample_edges;
  manifest.part = options.part;
  manifest.out.drives.resize(options.drive_dirs.empty() ? 1 : options.drive_dirs.size());  // the drive count, for the headers
  if (graph.info().weighted) manifest.weights.emplace();
  manifest.out = write_edge_set(graph, manifest_path, manifest, "out", options, outputs, manifest.weights ? &*manifest.weights : nullptr);
  if (transpose) manifest.in = write_edge_set(*transpose, manifest_path, manifest, "in", options, outputs);
  if (options.with_ids) manifest_ids(manifest, manifest_path, graph.source().ids(), outputs);
  outputs.emplace_back(manifest_path);
  outputs.back().write(manifest.text());
  for (base::AtomicFile& f : outputs) f.finish();
  return staged;
}

void publish_sluice_layout(StagedLayout& staged) {
  const base::DirectoryLock lock(fs::path(staged.files.back().path()).parent_path().string());
  for (base::AtomicFile& f : staged.files) f.publish();  // the manifest last
  staged.replacement.remove_leftovers(staged.written);
}

void write_sluice_layout(BlockGraph& graph, BlockGraph* transpose, const std::string& manifest_path,
                         const SluiceWriteOptions& options) {
  StagedLayout staged = stage_sluice_layout(graph, transpose, manifest_path, options);
  publish_sluice_layout(staged);
}

}  // namespace sluice::formats
