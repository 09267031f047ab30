// Format detection and BlockGraph::open: every format behind one call.
#include <atomic>
#include <exception>
#include <algorithm>
#include <cstring>
#include <optional>
#include <filesystem>
#include <fcntl.h>
#include <unistd.h>

#include "base/errors.hpp"
#include "base/first_error.hpp"
#include "base/format_names.hpp"
#include "base/mapped_file.hpp"
#include "formats/blaze_layout.hpp"
#include "formats/block_graph.hpp"
#include "formats/csr_builder.hpp"
#include "formats/external_csr.hpp"
#include "formats/relabel.hpp"
#include "formats/sluice_format.hpp"
#include "formats/spilled_edges.hpp"
#include "formats/webgraph_bv.hpp"
#include "formats/windows_behind.hpp"
#include "layout/sluice_layout.hpp"

namespace sluice::formats {

namespace {

// symmetric: the edges were known to be symmetric before the build (which
// keeps that: no build option removes one direction of an edge alone).
// ids: the input's ids, when the graph was relabelled.
std::unique_ptr<GraphSource> in_memory(AnyCsr csr, const std::string& format, bool symmetric = false, base::IdMap ids = {}) {
  return std::visit(
      [&](auto& c) -> std::unique_ptr<GraphSource> {
        using V = typename std::decay_t<decltype(c)>::id_type;
        c.symmetric = c.symmetric || symmetric;
        return std::make_unique<InMemorySource<V>>(std::move(c), format, std::move(ids));
      },
      csr);
}

// An edge list built into CSR, relabelled first if asked (then the
// relabelling's map, composed with `ids`, the map the list came with).
// Relabelled 64-bit ids come down to 32 bits when they fit, unless
// `wide_ids` (--id-bytes 8).
std::unique_ptr<GraphSource> built(AnyEdgeList edges, const BuildOptions& build, const std::string& format, bool symmetric,
                                   const base::IdMap& ids = {}, bool wide_ids = false) {
  base::IdMap map = build.relabel ? std::visit([&](auto& list) { return compose(ids, compact_ids(list, build.threads)); }, edges)
                                  : ids.copy();
  if (build.relabel) {
    auto* wide = std::get_if<EdgeList<uint64_t>>(&edges);
    if (wide && !wide_ids && wide->vertices <= (uint64_t(1) << 32)) edges = narrowed(std::move(*wide), build.threads);
  }
  if (build.order_by_degree) map = std::visit([&](auto& list) { return compose(map, order_by_degree(list, build.threads)); }, edges);
  return in_memory(build_any_csr(edges, build), format, symmetric, std::move(map));
}

// Every edge of a source as an edge list, for rebuilding with options.
template <class V>
EdgeList<V> edge_list_of(const GraphSource& source, int threads) {
  base::GraphInfo info = source.info();
  EdgeList<V> edges;
  edges.vertices = info.vertices;
  edges.weighted = info.weighted;
  edges.sources = base::Array<V>(info.edges, "edge sources");
  edges.targets = base::Array<V>(info.edges, "edge targets");
  if (info.weighted) edges.weights = base::Array<float>(info.edges, "edge weights");
  base::Array<uint64_t> offsets(info.vertices + 1, "offsets");
  source.read_offsets(0, info.vertices, offsets.data());
  const uint64_t step = 1 << 14;
  // An exception may not leave an OpenMP loop: the first is kept and
  // rethrown after it (a damaged page of a layout, a bad BV code).
  base::FirstError error;
#pragma omp parallel for num_threads(base::resolve_threads(threads)) schedule(dynamic, 1)
  for (uint64_t v = 0; v < info.vertices; v += step) {
    if (error.failed()) continue;
    try {
      uint64_t end = std::min(info.vertices, v + step);
      source.read_edges(v, end, edges.targets.data() + offsets[v], info.weighted ? edges.weights.data() + offsets[v] : nullptr);
      for (uint64_t u = v; u < end; ++u) {
        std::fill(edges.sources.data() + offsets[u], edges.sources.data() + offsets[u + 1], V(u));
      }
    } catch (...) {
      error.capture();
    }
  }
  error.rethrow();
  return edges;
}

// Conversion in bounded memory. The peak of an in-memory build of `edges`
// edges: the edge list, the builder's records (2 bytes of owner, the
// target, the weight), the offsets and what is held beside them and,
// from a file, its mapped bytes.
uint64_t in_memory_build_bytes(uint64_t edges, uint64_t vertices, uint64_t input_bytes, const BuildOptions& build,
                               unsigned id_bytes, bool weighted) {
  const uint64_t w = weighted ? 4 : 0, records = build.symmetrize ? 2 * edges : edges;
  return input_bytes + edges * (2 * id_bytes + w) + records * (2 + id_bytes + w) +
         (vertices + 1) * (8 + build.memory.held_per_vertex);
}

// Beyond the limit, or beyond what the machine (or the cgroup) has now.
bool exceeds(const BuildMemory& memory, uint64_t bytes) {
  return memory.bounded() && (bytes > memory.limit || bytes > base::available_memory());
}

// Edge lines in a text file: at most one per 4 bytes ("0 1\n"); counted
// when that bound does not fit the budget.
uint64_t most_edges_in_text(const base::MappedFile& file, const BuildOptions& build, unsigned id_bytes) {
  const uint64_t bound = file.size() / 4 + 1;
  if (!exceeds(build.memory, in_memory_build_bytes(bound, 0, file.size(), build, id_bytes, true))) return bound;
  uint64_t lines = 1;
  const uint64_t window = window_bytes(build.memory);  // the pages read, then released
  for (uint64_t at = 0; at < file.size(); at += window) {
    const uint64_t end = std::min(file.size(), at + window);
    lines += uint64_t(std::count(file.data() + at, file.data() + end, '\n'));
    file.release(at, end);
  }
  return lines;
}

// What a pass over an input would find, when it is known without one.
struct KnownShape {
  WindowedRead read;
  uint64_t edges = 0, largest = 0;
};

// An edge-list file read window by window, then built on scratch files.
// Parsed text is spilled (parsing it again would cost more than reading
// 16 bytes an edge back); binary pairs are read again at every pass, the
// first of which only counts, unless `known` says what it would find.
template <class Read>
std::unique_ptr<GraphSource> built_in_bounded_memory(const std::string& format, const LoadOptions& load, BuildOptions build,
                                                     Read&& read, bool read_again, std::optional<KnownShape> known = {}) {
  const uint64_t window = window_bytes(build.memory);
  std::optional<SpilledEdges> spilled;
  if (!read_again) spilled.emplace(build.memory.temp_dir, window);
  uint64_t largest = 0, edges = 0;
  WindowedRead got;
  if (known && read_again) {
    got = known->read;
    edges = known->edges;
    largest = known->largest;
  } else {
    got = read(EdgeWindows{window, [&](EdgeList<uint64_t>& w) {
      if (spilled) return spilled->append(w);
      for (uint64_t e = 0; e < w.size(); ++e) largest = std::max({largest, w.sources[e], w.targets[e]});
      edges += w.size();
    }});
  }
  EdgePasses passes;
  if (spilled) {
    passes = spilled->passes(chunk_edges(build.memory));
    largest = spilled->largest_id();
  } else {
    passes.edges = edges;
    passes.pass = [&read, window](const EdgeConsumer& consume) {
      WindowsBehind behind([&](EdgeList<uint64_t>& w) {
        consume(EdgeChunk{w.sources.data(), w.targets.data(), w.weighted ? w.weights.data() : nullptr, w.size()});
      });
      read(EdgeWindows{window, [&](EdgeList<uint64_t>& w) { behind.hand_over(w); }});
      behind.finish();
    };
  }
  passes.vertices = got.vertices;
  passes.weighted = got.weighted;
  passes.format = format;
  passes.keep_wide = load.id_bytes == 8;
  // 32-bit ids when every id fits, as the loaders choose.
  const bool narrow = load.id_bytes != 8 && largest <= UINT32_MAX && got.vertices <= (uint64_t(1) << 32);
  passes.id_bytes = narrow ? 4 : 8;
  build.symmetrize = build.symmetrize || got.symmetric;
  return build_external_csr(std::move(passes), build);
}

std::unique_ptr<GraphSource> rebuilt(std::unique_ptr<GraphSource> source, const BuildOptions& build) {
  if (!build.changes_edges()) return source;
  const base::GraphInfo info = source->info();
  if (exceeds(build.memory, in_memory_build_bytes(info.edges, info.vertices, 0, build, info.id_bytes, info.weighted))) {
    return build_external_csr(passes_of(*source, chunk_edges(build.memory)), build);
  }
  const std::string name = source->format_name();
  const bool symmetric = source->info().symmetric;
  if (source->info().id_bytes == 4) return built(AnyEdgeList(edge_list_of<uint32_t>(*source, build.threads)), build, name, symmetric, source->ids());
  return built(AnyEdgeList(edge_list_of<uint64_t>(*source, build.threads)), build, name, symmetric, source->ids());
}

// A weighted source served without its weights.
class UnweightedView : public GraphSource {
 public:
  explicit UnweightedView(std::unique_ptr<GraphSource> source) : source_(std::move(source)) {}
  base::GraphInfo info() const override {
    base::GraphInfo info = source_->info();
    info.weighted = false;
    return info;
  }
  std::string format_name() const override { return source_->format_name(); }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override { source_->read_offsets(begin, end, out); }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float*) const override {
    source_->read_edges(begin, end, targets, nullptr);
  }
  const base::IdMap& ids() const override { return source_->ids(); }

 private:
  std::unique_ptr<GraphSource> source_;
};

}  // namespace

std::unique_ptr<BlockGraph> transpose_of(BlockGraph& graph, int threads, const BuildMemory& memory) {
  BuildOptions build;
  build.transpose = true;
  build.threads = threads;
  build.memory = memory;
  const GraphSource& source = graph.source();
  if (std::unique_ptr<GraphSource> alongside = source.built_transpose()) return std::make_unique<BlockGraph>(std::move(alongside), graph.options());
  const base::GraphInfo info = source.info();
  if (exceeds(memory, in_memory_build_bytes(info.edges, info.vertices, 0, build, info.id_bytes, info.weighted))) {
    return std::make_unique<BlockGraph>(build_external_csr(passes_of(source, chunk_edges(memory)), build), graph.options());
  }
  std::unique_ptr<GraphSource> t;
  const bool symmetric = source.info().symmetric;
  if (source.info().id_bytes == 4) {
    t = in_memory(build_csr(edge_list_of<uint32_t>(source, threads), build), source.format_name(), symmetric, source.ids().copy());
  } else {
    t = in_memory(build_csr(edge_list_of<uint64_t>(source, threads), build), source.format_name(), symmetric, source.ids().copy());
  }
  return std::make_unique<BlockGraph>(std::move(t), graph.options());
}

std::string format_from_content(const base::MappedFile& file) {
  if (file.size() == 0) throw base::InputError(file.path(), "", "file is empty");
  const std::string format = base::format_from_bytes(std::string_view(file.data(), std::min<uint64_t>(file.size(), 32)));
  if (!format.empty()) return format;
  throw base::InputError(file.path(), "", "cannot tell the format from the name or the first bytes; give --format "
                                    "(el, wel, mtx, adj, bel, bel64, sluice, blaze, bv)");
}

std::string detect_format(const std::string& path) {
  std::string by_name = base::format_from_extension(path);
  return by_name.empty() ? format_from_content(base::MappedFile(path, /*allow_empty=*/true)) : by_name;
}

std::vector<base::NamedFile> graph_files(const std::string& path, const OpenOptions& options) {
  if (path == "-") return {};
  std::string format = options.format.empty() ? base::format_from_extension(path) : options.format;
  if (format.empty() && !base::is_read_once(path)) {  // a pipe is never peeked at: its bytes would be gone
    char start[16] = {};
    base::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (file.get() >= 0 && ::pread(file.get(), start, sizeof(start), 0) > 0) format = base::format_from_bytes(std::string_view(start, sizeof(start)));
  }
  if (format == "sluice") return layout::sluice_layout_files(path);
  if (format == "blaze") return blaze_layout_files(path, options.adjacency_dirs);
  if (format == "bv") {
    const std::string base = bv_basename(path);
    return {{base + ".graph", "the BV graph"}, {base + ".offsets", "the BV graph's offsets"}, {base + ".properties", "the BV graph's properties"}};
  }
  return {{path, "the input graph"}};
}

std::unique_ptr<BlockGraph> BlockGraph::open(const std::string& path, const OpenOptions& options) {
  if (std::filesystem::is_directory(path)) throw base::InputError(path, "", "is a directory, expected a graph file");
  std::string format = options.format.empty() ? base::format_from_extension(path) : options.format;
  // A pipe or standard input can be read once: read it before looking at
  // its first bytes, and parse what was read.
  std::optional<base::MappedFile> loaded;
  if (format.empty() || base::is_read_once(path)) {
    loaded.emplace(path, /*allow_empty=*/format == "bel" || format == "bel64", options.load.progress,
                   options.build.memory.bounded() ? (options.build.memory.temp_dir.empty() ? "." : options.build.memory.temp_dir) : "");
    if (format.empty()) format = format_from_content(*loaded);
  }
  // Bounded, a compressed input or a pipe is decoded onto disk, not into memory.
  const std::string scratch = options.build.memory.bounded() ? options.build.memory.temp_dir : std::string();
  auto input = [&](bool allow_empty) {
    base::MappedFile file = loaded ? std::move(*loaded) : base::MappedFile(path, allow_empty, options.load.progress, scratch);
    if (file.size() == 0 && !allow_empty) throw base::InputError(file.path(), "", "file is empty");
    return file;
  };
  const bool streamable = format == "el" || format == "wel" || format == "mtx" || format == "adj" || format == "bel" ||
                          format == "bel64";
  if (!streamable && base::is_read_once(path)) {
    throw base::InputError(path == "-" ? "standard input" : path, "",
                     "a " + format + " graph is read in place: give its file, not a pipe (pipes carry el, wel, mtx, adj, bel, bel64)");
  }
  BuildOptions build = options.build;
  if (build.threads == 0) build.threads = options.load.threads;
  LoadOptions load = options.load;
  load.relabel = build.relabel;
  std::unique_ptr<GraphSource> source;
  // Ids are taken as 8 bytes when they may be (a conservative estimate).
  const unsigned estimated_id_bytes = load.id_bytes == 8 || load.relabel ? 8 : 4;
  if (format == "el" || format == "wel") {
    base::MappedFile file = input(false);
    // A share of the lines (LoadOptions::shares) holds about its share of the edges and bytes.
    const uint64_t shares = std::max(load.shares, 1u);
    if (exceeds(build.memory, in_memory_build_bytes(most_edges_in_text(file, build, estimated_id_bytes) / shares + 1, 0,
                                                    file.size() / shares, build, estimated_id_bytes, format == "wel"))) {
      source = built_in_bounded_memory(format, load, build, [&](const EdgeWindows& w) { return read_text_edge_list(file, load, format == "wel", w); }, false);
    } else {
      source = built(read_text_edge_list(file, load, format == "wel"), build, format, false, {}, load.id_bytes == 8);
    }
  } else if (format == "mtx") {
    base::MappedFile file = input(false);
    BuildOptions symmetric = build;  // the header may ask for it
    symmetric.symmetrize = true;
    if (exceeds(build.memory, in_memory_build_bytes(most_edges_in_text(file, symmetric, estimated_id_bytes), 0, file.size(), symmetric,
                                                    estimated_id_bytes, true))) {
      source = built_in_bounded_memory(format, load, build, [&](const EdgeWindows& w) { return read_matrix_market(file, load, w); }, false);
    } else {
      MatrixMarketGraph mtx = read_matrix_market(file, load);
      build.symmetrize = build.symmetrize || mtx.symmetric;
      source = built(std::move(mtx.edges), build, format, false, {}, load.id_bytes == 8);
    }
  } else if (format == "bel" || format == "bel64") {
    base::MappedFile file = input(true);
    const unsigned stored = format == "bel" ? 4 : 8;
    const uint64_t share_bytes = file.size() / std::max(load.shares, 1u);  // a share of the pairs (LoadOptions::shares)
    if (exceeds(build.memory, in_memory_build_bytes(share_bytes / (2 * stored), 0, share_bytes, build, std::max(stored, estimated_id_bytes), false))) {
      // With --vertices, the pairs come from the file's size and every id
      // is below the count (the reader checks each at every pass): no pass
      // to count them.
      std::optional<KnownShape> known;
      if (load.vertices && !load.relabel && file.size() % (2 * stored) == 0) {
        const auto [first, last] = share_of_pairs(file.size() / (2 * stored), load);
        known = KnownShape{WindowedRead{load.vertices, false, false}, last - first, load.vertices - 1};
      }
      source = built_in_bounded_memory(format, load, build, [&](const EdgeWindows& w) { return read_binary_edge_list(file, stored, load, w); }, true,
                                       known);
    } else {
      source = built(read_binary_edge_list(file, stored, load), build, format, false, {}, load.id_bytes == 8);
    }
  } else if (format == "adj") {
    base::MappedFile file = input(false);
    if (exceeds(build.memory, 4 * file.size())) {
      // Its offsets stay held while the edges pass, window by window.
      build.memory.held_per_vertex += 8;
      source = built_in_bounded_memory(format, load, build, [&](const EdgeWindows& w) { return read_adjacency_graph(file, load, w); }, true);
    } else {
      source = rebuilt(in_memory(read_adjacency_graph(file, load), format), build);
    }
  } else if (format == "sluice") {
    source = rebuilt(open_sluice_layout(path), build);
  } else if (format == "blaze") {
    source = rebuilt(open_blaze_layout(path, options.adjacency_dirs), build);
  } else if (format == "bv") {
    source = rebuilt(open_bv_graph(path, BvOpenOptions{options.save_offsets, options.load.threads}), build);
  } else {
    throw std::invalid_argument("unknown format '" + format + "' (el, wel, mtx, adj, bel, bel64, sluice, blaze, bv)");
  }
  if (options.drop_weights && source->info().weighted) source = std::make_unique<UnweightedView>(std::move(source));
  return std::make_unique<BlockGraph>(std::move(source), options.blocks);
}

}  // namespace sluice::formats
