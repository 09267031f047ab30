#include "formats/ranked_writer.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "formats/graph_source.hpp"
#include "layout/drive_header.hpp"
#include "layout/id_map_file.hpp"
#include "layout/manifest.hpp"

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

// The edges of `graph` whose target is in [begin, end), kept in their
// order, as an in-memory graph over every vertex id.
template <class V>
std::unique_ptr<BlockGraph> edges_into(BlockGraph& graph, uint64_t begin, uint64_t end, uint64_t edges) {
  const base::GraphInfo& info = graph.info();
  Csr<V> csr;
  csr.vertices = info.vertices;
  csr.weighted = info.weighted;
  csr.symmetric = info.symmetric;  // a part records the whole graph's symmetry (it never pulls over its out-edges)
  csr.offsets = base::Array<uint64_t>(info.vertices + 1, "a part's offsets");
  csr.targets = base::Array<V>(edges, "a part's targets");
  if (info.weighted) csr.weights = base::Array<float>(edges, "a part's weights");
  uint64_t kept = 0, next_vertex = 0;
  for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
    for (uint64_t u = block.begin; u < block.end; ++u) {
      csr.offsets[u] = kept;
      for (uint64_t i = block.offsets[u - block.begin] - block.first_edge(); i < block.offsets[u - block.begin + 1] - block.first_edge(); ++i) {
        const uint64_t target = block.target(i);
        if (target < begin || target >= end) continue;
        csr.targets[kept] = V(target);
        if (info.weighted) csr.weights[kept] = block.weights[i];
        ++kept;
      }
    }
    next_vertex = block.end;
  });
  for (uint64_t u = next_vertex; u <= info.vertices; ++u) csr.offsets[u] = kept;
  if (kept != edges) throw std::logic_error("a part's edge count changed between two passes over the input");
  return std::make_unique<BlockGraph>(std::make_unique<InMemorySource<V>>(std::move(csr), graph.format()), graph.options());
}

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
  for (unsigned r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    while (v < n && sum + (alpha + double(in_degrees[v])) / 2 < target) sum += alpha + double(in_degrees[v++]);
    bounds.push_back(v);
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

std::vector<base::NamedFile> ranked_layout_files_to_write(const std::string& manifest_path, const RankedWriteOptions& options) {
  std::vector<base::NamedFile> files{{manifest_path, "the output's manifest"}};
  if (options.layout.with_ids) files.push_back({id_map_path(manifest_path), "the output's id map"});
  for (unsigned r = 0; r < options.ranks; ++r) {
    SluiceWriteOptions part = options.layout;
    part.drive_dirs = part_drive_dirs(options.drive_patterns, r);
    part.with_ids = false;  // the whole layout's map is beside the top manifest
    for (bool transposed : {false, true}) {
      if (transposed && !options.transpose) break;
      for (base::NamedFile& f : sluice_layout_files_to_write(part_manifest_path(manifest_path, r, transposed), options.transpose, part)) {
        files.push_back(std::move(f));
      }
    }
  }
  return files;
}

void write_ranked_sluice_layout(BlockGraph& graph, const std::string& manifest_path, const RankedWriteOptions& options) {
  if (options.ranks == 0) throw std::invalid_argument("--ranks must be at least 1");
  const base::GraphInfo& info = graph.info();
  if (options.ranks > std::max<uint64_t>(info.vertices, 1)) {
    throw std::invalid_argument("--ranks " + std::to_string(options.ranks) + " is more than the graph's " +
                                std::to_string(info.vertices) + " vertices");
  }
  for (const std::string& pattern : options.drive_patterns) {
    if (pattern.find("{rank}") == std::string::npos) continue;
    for (unsigned r = 0; r < options.ranks; ++r) fs::create_directories(part_drive_dirs({pattern}, r).front());
  }
  const std::vector<uint64_t> in_degrees = in_degrees_of(graph);
  const std::vector<uint64_t> bounds = rank_boundaries(in_degrees, options.ranks, ranked_layout_alpha);

  layout::Manifest top;
  top.layout_id = layout::new_layout_id();
  top.info = info;
  top.alpha = ranked_layout_alpha;
  std::vector<std::string> written;  // parts committed, removed again on an error
  // Writes the edges of `source` into rank r's range as a part.
  auto write_part = [&](BlockGraph& source, unsigned r, uint64_t edges, const std::string& part_path, bool transposed) {
    std::unique_ptr<BlockGraph> part = info.id_bytes == 4 ? edges_into<uint32_t>(source, bounds[r], bounds[r + 1], edges)
                                                          : edges_into<uint64_t>(source, bounds[r], bounds[r + 1], edges);
    std::unique_ptr<BlockGraph> by_destination;
    if (options.transpose) by_destination = transpose_of(*part, options.threads);
    SluiceWriteOptions part_options = options.layout;
    part_options.drive_dirs = part_drive_dirs(options.drive_patterns, r);
    part_options.part = layout::PartOf{r, options.ranks, bounds[r], bounds[r + 1], relative_to_manifest(part_path, manifest_path),
                                       top.layout_id, transposed};
    if (options.layout.progress) {
      std::fprintf(stderr, "%s %u of %u: vertices [%llu, %llu), %llu edges\n", transposed ? "transpose's part" : "part", r,
                   options.ranks, (unsigned long long)bounds[r], (unsigned long long)bounds[r + 1], (unsigned long long)edges);
    }
    write_sluice_layout(*part, by_destination.get(), part_path, part_options);
    written.push_back(part_path);
  };
  // With the transpose, the transpose graph too, split over the same ranges.
  std::unique_ptr<BlockGraph> reversed;
  std::vector<uint64_t> reversed_in_degrees;  // the graph's out-degrees
  if (options.transpose) {
    reversed = transpose_of(graph, options.threads);
    reversed_in_degrees.assign(info.vertices, 0);
    graph.for_each_vertex([&](uint64_t v, uint64_t, uint64_t degree) { reversed_in_degrees[v] = degree; });
  }
  try {
    for (unsigned r = 0; r < options.ranks; ++r) {
      uint64_t edges = 0;
      for (uint64_t v = bounds[r]; v < bounds[r + 1]; ++v) edges += in_degrees[v];
      // The part: the edges into the range, by source and by destination.
      const std::string part_path = part_manifest_path(manifest_path, r);
      write_part(graph, r, edges, part_path, false);
      layout::RankPart listed{relative_to_manifest(manifest_path, part_path), "", bounds[r], bounds[r + 1]};
      // The transpose's part: the edges out of the range, reversed.
      if (reversed) {
        uint64_t out_edges = 0;
        for (uint64_t v = bounds[r]; v < bounds[r + 1]; ++v) out_edges += reversed_in_degrees[v];
        const std::string transpose_path = part_manifest_path(manifest_path, r, true);
        write_part(*reversed, r, out_edges, transpose_path, true);
        listed.transpose = relative_to_manifest(manifest_path, transpose_path);
      }
      top.parts.push_back(std::move(listed));
    }
    // The id map of a relabelled graph: one for the whole layout, beside its top manifest.
    std::vector<base::AtomicFile> top_files;
    if (!graph.source().ids().empty()) {
      top_files.emplace_back(id_map_path(manifest_path));
      top.ids = fs::path(id_map_path(manifest_path)).filename().string();
      top.ids_checksum = layout::write_id_map_file(top_files.back(), graph.source().ids());
    }
    top_files.emplace_back(manifest_path).write(top.text());
    base::commit_all(top_files);
  } catch (...) {
    for (const std::string& part : written) {
      for (const base::NamedFile& f : layout::sluice_layout_files(part)) {
        std::error_code ignored;
        fs::remove(f.path, ignored);
      }
    }
    throw;
  }
}

}  // namespace sluice::formats
