#include <charconv>
#include <cstring>
#include <limits>

#include "base/atomic_file.hpp"
#include "base/progress.hpp"
#include "formats/blaze_layout.hpp"
#include "formats/sluice_format.hpp"
#include "formats/writers.hpp"
#include "layout/sluice_layout.hpp"

namespace sluice::formats {

namespace {

// Appends numbers as text to a line buffer, shortest exact form for floats.
class TextLine {
 public:
  void number(uint64_t value) { put(std::to_chars(cursor(), limit(), value).ptr); }
  void number(float value) { put(std::to_chars(cursor(), limit(), value).ptr); }
  void text(std::string_view s) {
    std::memcpy(cursor(), s.data(), s.size());
    used_ += s.size();
  }
  void flush_if_full(base::AtomicFile& file) {
    if (used_ > sizeof(buffer_) - 128) flush(file);
  }
  void flush(base::AtomicFile& file) {
    file.write(buffer_, used_);
    used_ = 0;
  }

 private:
  char* cursor() { return buffer_ + used_; }
  char* limit() { return buffer_ + sizeof(buffer_); }
  void put(char* end) { used_ = size_t(end - buffer_); }
  char buffer_[1 << 16];
  size_t used_ = 0;
};

// Edge lists name vertices by the input's ids (a relabelled graph's map
// undone), so a layout converted with --relabel converts back unchanged.
void write_edge_lines(BlockGraph& graph, base::AtomicFile& file, bool weights, uint64_t base, const WriteOptions& options) {
  const base::IdMap& ids = graph.source().ids();
  TextLine line;
  base::Progress progress("writing " + file.path(), graph.info().edges, options.progress);
  for_each_block_in_order(graph, 0, graph.info().vertices, [&](const EdgeBlock& block) {
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin] - block.first_edge();
           e < block.offsets[v - block.begin + 1] - block.first_edge(); ++e) {
        line.number(ids.original(v) + base);
        line.text(" ");
        line.number(ids.original(block.target(e)) + base);
        if (weights) {
          line.text(" ");
          line.number(block.weights ? block.weights[e] : 1.0f);
        }
        line.text("\n");
        line.flush_if_full(file);
      }
    }
    progress.advance(block.edges);
  });
  line.flush(file);
}

void write_adjacency(BlockGraph& graph, base::AtomicFile& file) {
  const base::GraphInfo& info = graph.info();
  TextLine line;
  line.text(info.weighted ? "WeightedAdjacencyGraph\n" : "AdjacencyGraph\n");
  line.number(info.vertices);
  line.text("\n");
  line.number(info.edges);
  line.text("\n");
  graph.for_each_vertex([&](uint64_t, uint64_t offset, uint64_t) {
    line.number(offset);
    line.text("\n");
    line.flush_if_full(file);
  });
  for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
    for (uint64_t e = 0; e < block.edges; ++e) {
      line.number(block.target(e));
      line.text("\n");
      line.flush_if_full(file);
    }
  });
  if (info.weighted) {
    for_each_block_in_order(graph, 0, info.vertices, [&](const EdgeBlock& block) {
      for (uint64_t e = 0; e < block.edges; ++e) {
        line.number(block.weights[e]);
        line.text("\n");
        line.flush_if_full(file);
      }
    });
  }
  line.flush(file);
}

// The largest id an edge list of the graph names: the input's, when relabelled.
uint64_t largest_id(const BlockGraph& graph) {
  const base::IdMap& ids = graph.source().ids();
  if (graph.info().vertices == 0) return 0;
  if (ids.empty()) return graph.info().vertices - 1;
  return ids.original(ids.in_original_order(graph.info().vertices - 1));
}

// The ids an edge list of the graph spans: 0 to the largest, plus one.
uint64_t id_count(const BlockGraph& graph) { return graph.info().vertices == 0 ? 0 : largest_id(graph) + 1; }

template <class Id>
void write_binary_pairs(BlockGraph& graph, base::AtomicFile& file) {
  if (largest_id(graph) > uint64_t(std::numeric_limits<Id>::max())) {
    throw std::runtime_error(file.path() + ": vertex ids do not fit in 32 bits; write .bel64 instead");
  }
  const base::IdMap& ids = graph.source().ids();
  std::vector<Id> pairs;
  for_each_block_in_order(graph, 0, graph.info().vertices, [&](const EdgeBlock& block) {
    pairs.clear();
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        pairs.push_back(Id(ids.original(v)));
        pairs.push_back(Id(ids.original(block.target(e - block.first_edge()))));
      }
    }
    file.write(pairs.data(), pairs.size() * sizeof(Id));
  });
}

}  // namespace

namespace {
SluiceWriteOptions layout_options(const WriteOptions& options) {
  SluiceWriteOptions layout;
  layout.drive_dirs = options.drive_dirs;
  layout.progress = options.progress;
  layout.force = options.force;
  layout.with_ids = options.with_ids;
  layout.compress = options.compress;
  layout.compress_required = options.compress_required;
  layout.sample_edges = options.sample_edges;
  return layout;
}
}  // namespace

std::vector<base::NamedFile> files_to_write(const std::string& path, const std::string& format, const WriteOptions& options) {
  if (format == "sluice") return sluice_layout_files_to_write(path, options.with_transpose || options.transpose, layout_options(options));
  if (format == "blaze") return blaze_layout_files_to_write(path, options.drive_dirs);
  return {{path, "the output"}};
}

void write_graph(BlockGraph& graph, const std::string& path, const std::string& format, const WriteOptions& options) {
  const base::GraphInfo& info = graph.info();
  if (format == "sluice") return write_sluice_layout(graph, options.transpose, path, layout_options(options));
  if (!graph.source().ids().empty() && (format == "adj" || format == "blaze")) {
    throw std::runtime_error("the graph was relabelled (convert --relabel), and " + format +
                             " numbers vertices by position, which would lose the input's ids: write el, wel, mtx, bel64 or sluice");
  }
  if (format == "blaze") return write_blaze_layout(graph, path, options.drive_dirs);
  base::AtomicFile file(path);
  if (format == "el" || format == "wel") {
    std::string header = "# Nodes: " + std::to_string(info.vertices) + " Edges: " + std::to_string(info.edges) + "\n";
    file.write(header);
    write_edge_lines(graph, file, format == "wel" || info.weighted, 0, options);
  } else if (format == "mtx") {
    std::string header = std::string("%%MatrixMarket matrix coordinate ") + (info.weighted ? "real" : "pattern") +
                         " general\n% written by sluice\n" + std::to_string(id_count(graph)) + " " +
                         std::to_string(id_count(graph)) + " " + std::to_string(info.edges) + "\n";
    file.write(header);
    write_edge_lines(graph, file, info.weighted, 1, options);
  } else if (format == "adj") {
    write_adjacency(graph, file);
  } else if (format == "bel") {
    write_binary_pairs<uint32_t>(graph, file);
  } else if (format == "bel64") {
    write_binary_pairs<uint64_t>(graph, file);
  } else {
    throw std::invalid_argument("cannot write format '" + format + "' (el, wel, mtx, adj, bel, bel64, sluice, blaze)");
  }
  file.commit();
}

}  // namespace sluice::formats
