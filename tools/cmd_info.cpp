// sluice info GRAPH: counts, degree statistics and, for sluice's layout, the
// drives, bytes per drive, index memory and checksum verification.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/disk_graph.hpp"
#include "base/format_names.hpp"
#include "formats/sluice_format.hpp"
#include "layout/sluice_layout.hpp"
#include "programs/command_line.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

struct DegreeStats {
  uint64_t min = UINT64_MAX, max = 0, zero = 0, max_vertex = 0;
};

DegreeStats degree_stats(formats::BlockGraph& graph) {
  DegreeStats s;
  graph.for_each_vertex([&](uint64_t v, uint64_t, uint64_t d) {
    s.min = std::min(s.min, d);
    if (d > s.max) s.max = d, s.max_vertex = v;
    s.zero += d == 0;
  });
  if (graph.info().vertices == 0) s.min = 0;
  return s;
}

int describe_ranked_layout(const std::string& path, const layout::Manifest& top, bool json) {
  nlohmann::ordered_json parts = nlohmann::ordered_json::array();
  for (const layout::RankPart& part : top.parts) {
    const std::string part_path = layout::path_in_layout(path, part.manifest);
    const layout::Manifest m = layout::Manifest::read(part_path);
    parts.push_back({{"manifest", part_path}, {"begin", part.begin}, {"end", part.end}, {"edges", m.info.edges},
                     {"drives", m.out.drives.size()}, {"transpose", m.in.has_value()}});
  }
  if (json) {
    nlohmann::ordered_json o = {{"graph", path}, {"format", "sluice"}, {"vertices", top.info.vertices}, {"edges", top.info.edges},
                                {"weighted", top.info.weighted}, {"symmetric", top.info.symmetric}, {"ranks", top.parts.size()},
                                {"alpha", top.alpha}, {"layout_id", top.layout_id}, {"parts", parts},
                                {"relabelled", !top.ids.empty()}};
    std::cout << o.dump() << "\n";
    return exit_ok;
  }
  std::cout << "graph       " << path << " (sluice, ranked)\n"
            << "vertices    " << top.info.vertices << "\n"
            << "edges       " << top.info.edges << "\n"
            << "weighted    " << (top.info.weighted ? "yes" : "no") << "\n"
            << "ranks       " << top.parts.size() << ", ranges balancing " << top.alpha << " x vertices + in-edges\n";
  if (!top.ids.empty()) {
    std::cout << "ids         the layout's own (convert --relabel or --reorder degree), mapped in " << layout::path_in_layout(path, top.ids)
              << "; every vertex shown or typed is the input's id\n";
  }
  for (size_t r = 0; r < parts.size(); ++r) {
    std::cout << "part " << r << "      vertices [" << parts[r]["begin"] << ", " << parts[r]["end"] << "), " << parts[r]["edges"]
              << " edges, " << parts[r]["drives"] << " drive(s)" << (parts[r]["transpose"].get<bool>() ? " + by destination" : "")
              << ": " << parts[r]["manifest"].get<std::string>() << "\n";
  }
  std::cout << "layout id   " << top.layout_id << " (run with mpirun -np " << top.parts.size() << "; --rank N describes one part)\n";
  return exit_ok;
}

// --files: every path, or with --json each with what it is and its size
// (a file that is missing has none: copy it from where it was converted).
int list_files(const std::vector<base::NamedFile>& files, bool json) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const base::NamedFile& f : files) {
    if (!json) {
      std::cout << f.path << "\n";
      continue;
    }
    std::error_code error;
    const uintmax_t bytes = std::filesystem::file_size(f.path, error);
    list.push_back({{"path", f.path}, {"what", f.what}, {"bytes", error ? nlohmann::ordered_json() : nlohmann::ordered_json(bytes)}});
  }
  if (json) std::cout << list.dump() << "\n";
  return exit_ok;
}

}  // namespace

int cmd_info(int argc, char** argv) {
  po::options_description options("sluice info GRAPH");
  options.add_options()
    ("graph", po::value<std::string>()->required(), "graph to describe")
    ("verify", po::bool_switch(), "read every page and check its checksum (sluice layout)")
    ("json", po::bool_switch(), "print one JSON object instead of text")
    ("rank", po::value<unsigned>(), "of a ranked layout (convert --ranks), describe this rank's part")
    ("files", po::bool_switch(), "list the layout's files instead, one path a line (with --rank: what the machine running that rank needs)");
  add_read_options(options);
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map values;
  if (!parse_command_line(argc, argv, "usage: sluice info GRAPH [--verify] [--json] [--rank N] [--files]", options, positionals, values)) {
    return exit_ok;
  }
  const std::string path = values["graph"].as<std::string>();
  // A ranked layout: its parts, or with --rank one of them.
  std::optional<layout::RankChoice> rank;
  const bool sluice = std::filesystem::is_regular_file(path) &&
                      (base::format_from_extension(path) == "sluice" || values["format"].as<std::string>() == "sluice");
  const std::optional<layout::Manifest> top = sluice ? std::optional(layout::Manifest::read(path)) : std::nullopt;
  if (top && top->is_ranked()) {
    const unsigned ranks = unsigned(top->parts.size());
    if (values.count("rank")) {
      rank = layout::RankChoice{values["rank"].as<unsigned>(), ranks};
      if (rank->rank >= ranks) throw po::error("--rank " + std::to_string(rank->rank) + ": the layout has ranks 0 to " + std::to_string(ranks - 1));
    }
  } else if (values.count("rank")) {
    throw po::error("--rank applies to a ranked layout (sluice convert --ranks); " + path + " is not one");
  }
  if (values["files"].as<bool>()) {
    if (!top) throw po::error("--files lists the files of a sluice layout; " + path + " is not one");
    return list_files(top->files(path, rank ? std::optional(rank->rank) : std::nullopt), values["json"].as<bool>());
  }
  if (top && top->is_ranked() && !rank) return describe_ranked_layout(path, *top, values["json"].as<bool>());
  const formats::OpenOptions open_options = open_options_from(values);
  std::unique_ptr<formats::BlockGraph> graph =
      rank ? std::make_unique<formats::BlockGraph>(formats::open_sluice_layout(path, false, rank), open_options.blocks)
           : formats::BlockGraph::open(path, open_options);
  const base::GraphInfo& info = graph->info();
  DegreeStats degrees = degree_stats(*graph);
  const base::IdMap& ids = graph->source().ids();
  degrees.max_vertex = ids.original(degrees.max_vertex);  // as the input named it
  // A relabelled graph's input ids: their span and where the map is.
  auto relabelled = [&] {
    const uint64_t n = info.vertices;
    return std::pair(ids.original(ids.in_original_order(0)), ids.original(ids.in_original_order(n - 1)));
  };
  double mean = info.vertices ? double(info.edges) / double(info.vertices) : 0.0;

  std::unique_ptr<layout::SluiceLayout> layout;
  if (graph->format() == "sluice" && !open_options_from(values).build.changes_edges()) {
    layout = std::make_unique<layout::SluiceLayout>(path, rank);
  }
  bool verified = false;
  if (values["verify"].as<bool>()) {
    if (!layout) throw po::error("--verify checks the checksums of sluice's layout; " + path + " is " + graph->format());
    layout->verify();
    // A rank's machine holds the transpose graph's part too (WCC reads it).
    if (rank && !top->parts[rank->rank].transpose.empty()) {
      layout::SluiceLayout(path, layout::RankChoice{rank->rank, rank->ranks, /*transpose_graph=*/true}).verify();
    }
    verified = true;
  }

  if (values["json"].as<bool>()) {
    nlohmann::ordered_json o = {{"graph", path}, {"format", graph->format()}, {"vertices", info.vertices},
                                {"edges", info.edges}, {"weighted", info.weighted}, {"symmetric", info.symmetric}, {"id_bytes", info.id_bytes},
                                {"degree_min", degrees.min}, {"degree_max", degrees.max}, {"degree_mean", mean},
                                {"zero_degree_vertices", degrees.zero}};
    o["relabelled"] = !ids.empty();
    if (!ids.empty()) o["input_ids"] = {{"smallest", relabelled().first}, {"largest", relabelled().second}};
    if (layout) {
      const auto& edges = layout->out().edges();
      nlohmann::ordered_json drives = nlohmann::ordered_json::array();
      for (unsigned d = 0; d < edges.interleaving().drives; ++d) {
        drives.push_back({{"path", edges.paths()[d]}, {"bytes", edges.drive_bytes(d)}});
      }
      o["drives"] = drives;
      o["pages"] = edges.pages();
      o["page_bytes"] = edges.interleaving().page_bytes;
      o["compressed"] = layout->manifest().compressed;
      o["sample_edges"] = layout->manifest().sample_edges;
      if (const auto& w = layout->manifest().weights; w && !w->empty()) o["weights"] = {{"least", w->least}, {"largest", w->most}};
      o["edge_page_bytes_per_edge"] = info.edges ? double(edges.pages() * edges.interleaving().page_bytes) / double(info.edges) : 0.0;
      o["index_memory_bytes"] = layout->out().index().memory_bytes();
      o["engine_memory_bytes"] = engine::DiskGraph(path, false, rank).memory_bytes();
      if (rank) o["part"] = {{"rank", rank->rank}, {"ranks", rank->ranks}, {"begin", layout->owned_begin()}, {"end", layout->owned_end()}};
      o["transpose"] = layout->in() != nullptr;
      o["layout_id"] = layout->manifest().layout_id;
      if (verified) o["verified"] = true;
    }
    std::cout << o.dump() << "\n";
    return exit_ok;
  }

  std::cout << "graph       " << path << " (" << graph->format() << ")\n"
            << "vertices    " << info.vertices << "\n"
            << "edges       " << info.edges << "\n"
            << "weighted    " << (info.weighted ? "yes" : "no") << "\n"
            << "symmetric   " << (!info.symmetric ? "not known" : rank ? "yes (the whole graph; a part holds the edges into its range)"
                                                                         : "yes (every edge stored both ways)") << "\n"
            << "id bytes    " << info.id_bytes << "\n";
  if (!ids.empty()) {
    std::cout << "ids         " << (ids.permutes() ? "reordered (convert --reorder degree)" : "relabelled densely from 0 (convert --relabel)")
              << "; the input's ran from " << relabelled().first << " to "
              << relabelled().second << (layout ? ", mapped in " + layout::path_in_layout(layout->whole_path(), layout::Manifest::read(layout->whole_path()).ids) : std::string())
              << "; every vertex shown or typed is the input's id\n";
  }
  std::cout
            << "degree      min " << degrees.min << ", max " << degrees.max << " (vertex " << degrees.max_vertex
            << "), mean " << std::fixed << std::setprecision(2) << mean << ", zero-degree vertices " << degrees.zero << "\n";
  if (layout) {
    const auto& m = layout->manifest();
    const auto& edges = layout->out().edges();
    std::cout << "layout      version " << m.version << ", " << edges.interleaving().drives << " drive(s), "
              << edges.interleaving().page_bytes << "-byte pages, " << edges.pages() << " pages, "
              << (m.compressed ? std::string("gap-coded (the default)")
                               : std::to_string(edges.layout().record_bytes()) + "-byte edge records (convert --plain)")
              << ", " << std::setprecision(2) << std::fixed
              << (info.edges ? double(edges.pages() * edges.interleaving().page_bytes) / double(info.edges) : 0.0)
              << " bytes per edge, transpose " << (layout->in() ? "yes" : "no") << "\n";
    for (unsigned d = 0; d < edges.interleaving().drives; ++d) {
      std::cout << "drive " << d << "     " << edges.paths()[d] << ": " << edges.drive_bytes(d) << " bytes\n";
    }
    if (m.weights) {
      auto shown = [](float w) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", double(w));
        return std::string(text);
      };
      std::cout << "weights     " << (m.weights->empty() ? std::string("none (no edges)")
                                                       : "least " + shown(m.weights->least) + ", largest " +
                                                             shown(m.weights->most) + " (sssp's bucket width by default)")
                << (rank ? " in this part" : "") << "\n";
    }
    if (m.sample_edges) {
      std::cout << "sample      the first " << m.sample_edges << " targets of each vertex beside the index"
                << (layout->in() ? ", both edge sets" : "") << " (WCC's sampling reads them, not the pages)\n";
    }
    std::cout << "index       " << layout->out().index().memory_bytes() << " bytes in memory ("
              << std::setprecision(2) << (info.vertices ? double(layout->out().index().memory_bytes()) / double(info.vertices) : 0.0)
              << " per vertex)\n";
    engine::DiskGraph disk(path, false, rank);
    std::cout << "engine      " << disk.memory_bytes() << " bytes in memory for the index and the page-to-vertex map ("
              << disk.pages() << " pages x 8 bytes)\n";
    const uint64_t pages = edges.pages() + (layout->in() ? layout->in()->edges().pages() : 0);
    std::cout << "checksums   one per page, " << pages << " pages" << (layout->in() ? " (with the transpose's)" : "")
              << (verified ? ": verified" : " (checked on every read; all at once with --verify)") << "\n";
    std::cout << "layout id   " << m.layout_id << " (in every drive file's header page)\n";
    if (rank) {
      std::cout << "part        rank " << rank->rank << " of " << rank->ranks << ": the edges into vertices [" << layout->owned_begin()
                << ", " << layout->owned_end() << "), from " << layout->path() << "\n";
    }
  }
  return exit_ok;
}

}  // namespace sluice::tools
