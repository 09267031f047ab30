// sluice info GRAPH: counts, degree statistics and, for sluice's layout, the
// drives, bytes per drive, index memory and checksum verification.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/disk_graph.hpp"
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

}  // namespace

int cmd_info(int argc, char** argv) {
  po::options_description options("sluice info GRAPH");
  options.add_options()
    ("graph", po::value<std::string>()->required(), "graph to describe")
    ("verify", po::bool_switch(), "read every page and check its checksum (sluice layout)")
    ("json", po::bool_switch(), "print one JSON object instead of text");
  add_read_options(options);
  po::positional_options_description positionals;
  positionals.add("graph", 1);
  po::variables_map values;
  if (!parse_command_line(argc, argv, "usage: sluice info GRAPH [--verify] [--json]", options, positionals, values)) {
    return exit_ok;
  }
  const std::string path = values["graph"].as<std::string>();
  auto graph = formats::BlockGraph::open(path, open_options_from(values));
  const base::GraphInfo& info = graph->info();
  DegreeStats degrees = degree_stats(*graph);
  double mean = info.vertices ? double(info.edges) / double(info.vertices) : 0.0;

  std::unique_ptr<layout::SluiceLayout> layout;
  if (graph->format() == "sluice" && !open_options_from(values).build.changes_edges()) {
    layout = std::make_unique<layout::SluiceLayout>(path);
  }
  bool verified = false;
  if (values["verify"].as<bool>()) {
    if (!layout) throw po::error("--verify checks the checksums of sluice's layout; " + path + " is " + graph->format());
    layout->verify();
    verified = true;
  }

  if (values["json"].as<bool>()) {
    nlohmann::ordered_json o = {{"graph", path}, {"format", graph->format()}, {"vertices", info.vertices},
                                {"edges", info.edges}, {"weighted", info.weighted}, {"symmetric", info.symmetric}, {"id_bytes", info.id_bytes},
                                {"degree_min", degrees.min}, {"degree_max", degrees.max}, {"degree_mean", mean},
                                {"zero_degree_vertices", degrees.zero}};
    if (layout) {
      const auto& edges = layout->out().edges();
      nlohmann::ordered_json drives = nlohmann::ordered_json::array();
      for (unsigned d = 0; d < edges.interleaving().drives; ++d) {
        drives.push_back({{"path", edges.paths()[d]}, {"bytes", edges.drive_bytes(d)}});
      }
      o["drives"] = drives;
      o["pages"] = edges.pages();
      o["page_bytes"] = edges.interleaving().page_bytes;
      o["index_memory_bytes"] = layout->out().index().memory_bytes();
      o["engine_memory_bytes"] = engine::DiskGraph(path).memory_bytes();
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
            << "symmetric   " << (info.symmetric ? "yes (every edge stored both ways)" : "not known") << "\n"
            << "id bytes    " << info.id_bytes << "\n"
            << "degree      min " << degrees.min << ", max " << degrees.max << " (vertex " << degrees.max_vertex
            << "), mean " << std::fixed << std::setprecision(2) << mean << ", zero-degree vertices " << degrees.zero << "\n";
  if (layout) {
    const auto& m = layout->manifest();
    const auto& edges = layout->out().edges();
    std::cout << "layout      version " << m.version << ", " << edges.interleaving().drives << " drive(s), "
              << edges.interleaving().page_bytes << "-byte pages, " << edges.pages() << " pages, "
              << edges.layout().record_bytes() << "-byte edge records, transpose " << (layout->in() ? "yes" : "no") << "\n";
    for (unsigned d = 0; d < edges.interleaving().drives; ++d) {
      std::cout << "drive " << d << "     " << edges.paths()[d] << ": " << edges.drive_bytes(d) << " bytes\n";
    }
    std::cout << "index       " << layout->out().index().memory_bytes() << " bytes in memory ("
              << std::setprecision(2) << (info.vertices ? double(layout->out().index().memory_bytes()) / double(info.vertices) : 0.0)
              << " per vertex)\n";
    engine::DiskGraph disk(path);
    std::cout << "engine      " << disk.memory_bytes() << " bytes in memory for the index and the page-to-vertex map ("
              << disk.pages() << " pages x 8 bytes)\n";
    const uint64_t pages = edges.pages() + (layout->in() ? layout->in()->edges().pages() : 0);
    std::cout << "checksums   one per page, " << pages << " pages" << (layout->in() ? " (with the transpose's)" : "")
              << (verified ? ": verified" : " (checked on every read; all at once with --verify)") << "\n";
    std::cout << "layout id   " << m.layout_id << " (in every drive file's header page)\n";
  }
  return exit_ok;
}

}  // namespace sluice::tools
