// sluice convert IN OUT: any readable format to any writable one, through
// the block API; onto N drives when OUT is a sluice or Blaze layout.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "base/format_names.hpp"
#include "base/errors.hpp"
#include "base/launcher.hpp"
#include "base/temp_file.hpp"
#include "base/output_guard.hpp"
#include "formats/external_csr.hpp"
#include "formats/ranked_writer.hpp"
#include "formats/writers.hpp"
#include "layout/manifest.hpp"
#include "programs/command_line.hpp"
#include "programs/convert_on_ranks.hpp"
#include "programs/graph_commands.hpp"
#include "programs/option_values.hpp"

namespace sluice::programs {

int convert_command(int argc, char** argv, engine::Communicator* communicator) {
  po::options_description options("sluice convert IN OUT");
  options.add_options()
    ("input", po::value<std::string>()->required(), "input graph")
    ("output", po::value<std::string>()->required(), "output path (NAME.sluice for sluice's layout, NAME.gr.index for Blaze's)")
    ("to", po::value<std::string>()->default_value(""), "output format (default: from OUT's extension)")
    ("force", po::bool_switch(), "overwrite drive files that belong to another layout (refused by default, naming it)")
    ("drives", po::value<std::string>()->default_value(""), "comma-separated directories, one per drive (layouts only)")
    ("transpose", po::bool_switch(), "also store the transpose (sluice layout)")
    ("sample-edges", po::value<uint32_t>()->default_value(2), "store each vertex's first K targets beside the index (sluice layout, unweighted; 0: none): WCC's sampling reads them instead of every page")
    ("memory-limit", byte_size_value("0"), "bytes the conversion may hold in DRAM, e.g. 2g (0: half the memory available, "
                                           "within a cgroup's limit, shared by the ranks of a job on one machine); a graph whose build would not fit is built on scratch files")
    ("temp-dir", po::value<std::string>()->default_value(""), "directory for the scratch files of a conversion in bounded memory "
                                                               "(default: the first drive directory, else the output's)")
    ("ranks", po::value<unsigned>()->default_value(0), "split the sluice layout for this many MPI ranks by destination (a part per rank; a drive directory may name {rank})");
  add_page_options(options);
  add_read_options(options);
  add_rebuild_options(options);
  po::positional_options_description positionals;
  positionals.add("input", 1).add("output", 1);
  po::variables_map values;
  if (!parse_command_line(argc, argv,
                          "usage: sluice convert IN OUT [--to FORMAT] [--drives DIR[,DIR...]] [options]\n"
                          "Formats: el wel mtx adj bel bel64 sluice blaze (reading also: bv).",
                          options, positionals, values)) {
    return exit_ok;
  }
  const std::string output = values["output"].as<std::string>();
  std::string to = values["to"].as<std::string>();
  if (to.empty()) to = base::format_from_extension(output);
  if (to.empty()) throw po::error("cannot tell the output format from '" + output + "'; give --to");

  const std::string input = values["input"].as<std::string>();
  formats::OpenOptions open_options = open_options_from(values);
  formats::WriteOptions write;
  write.drive_dirs = split_list(values["drives"].as<std::string>());
  write.with_transpose = values["transpose"].as<bool>();
  write.progress = true;
  write.force = values["force"].as<bool>();
  page_options_from(values, to, write);
  write.sample_edges = values["sample-edges"].as<uint32_t>();
  if (write.sample_edges > layout::max_sample_edges) throw po::error("--sample-edges must be at most " + std::to_string(layout::max_sample_edges));
  if (!values["sample-edges"].defaulted() && to != "sluice") throw po::error("--sample-edges applies to sluice's layout only");
  if (write.with_transpose && to != "sluice") throw po::error("--transpose is stored only in sluice's layout");
  if ((open_options.build.relabel || open_options.build.order_by_degree) && to != "sluice") {
    throw po::error(std::string(open_options.build.relabel ? "--relabel" : "--reorder degree") +
                    " keeps its map from the new ids to the input's in a sluice layout only: convert to NAME.sluice");
  }
  if (!write.drive_dirs.empty() && to != "sluice" && to != "blaze") throw po::error("--drives applies to sluice and blaze layouts");
  const unsigned ranks = values["ranks"].as<unsigned>();
  if (!values["ranks"].defaulted()) {
    if (to != "sluice") throw po::error("--ranks splits a sluice layout only");
    if (ranks == 0) throw po::error("--ranks must be at least 1");
    if (ranks > formats::max_ranks) {
      throw po::error("--ranks " + std::to_string(ranks) + " is more than the " + std::to_string(formats::max_ranks) +
                      " ranks a layout may be split for");
    }
  }
  // Under mpirun the ranks convert together, each writing its own part.
  const bool by_ranks = communicator && (communicator->size() > 1 || !values["ranks"].defaulted());
  if (by_ranks && (to != "sluice" || values["ranks"].defaulted())) {
    throw po::error("sluice convert started as one of " + std::to_string(communicator->size()) +
                    " MPI ranks converts by the ranks: give OUT.sluice and --ranks " + std::to_string(communicator->size()) +
                    " (each rank writes its own part), or run it without mpirun");
  }
  // Within the memory given: a build that would not fit is done on
  // scratch files (formats/external_csr.hpp), which are never left behind.
  formats::BuildMemory& memory = open_options.build.memory;
  open_options.build.transpose_alongside = write.with_transpose;
  open_options.build.sorted_for_pages = to == "sluice" && write.compress;
  memory.limit = values["memory-limit"].as<ByteSize>().bytes;
  // By the ranks, the ranks on one machine share that half.
  const uint64_t sharing = by_ranks ? uint64_t(std::max(base::launched_ranks_here(), 1)) : 1;
  if (memory.limit == 0) memory.limit = std::max<uint64_t>(base::available_memory() / 2 / sharing, 1);
  memory.temp_dir = values["temp-dir"].as<std::string>();
  if (memory.temp_dir.empty() && !by_ranks) {  // by the ranks: each rank's first drive (programs/convert_on_ranks.hpp)
    const bool per_rank = !write.drive_dirs.empty() && write.drive_dirs[0].find("{rank}") != std::string::npos;
    if (!write.drive_dirs.empty() && !per_rank && std::filesystem::is_directory(write.drive_dirs[0])) {
      memory.temp_dir = write.drive_dirs[0];
    } else if (output != "-") {
      memory.temp_dir = std::filesystem::path(output).parent_path().string();
    }
    if (memory.temp_dir.empty()) memory.temp_dir = ".";
  }
  open_options.blocks.block_edges = std::min(open_options.blocks.block_edges, formats::block_edges(memory));
  if (!ranks) require_output_directories(output, to, write);
  if (!memory.temp_dir.empty() && !std::filesystem::is_directory(memory.temp_dir)) throw po::error("--temp-dir " + memory.temp_dir + ": not a directory");
  formats::RankedWriteOptions ranked;
  ranked.ranks = ranks;
  // The guard's list of files names the id map a layout may get (from
  // --relabel, or from a relabelled input).
  ranked.layout.with_ids = write.with_ids = true;
  ranked.drive_patterns = write.drive_dirs;
  ranked.transpose = write.with_transpose;
  ranked.layout.progress = true;
  ranked.layout.force = write.force;
  ranked.layout.compress = write.compress;
  ranked.layout.compress_required = write.compress_required;
  ranked.layout.sample_edges = write.sample_edges;
  ranked.threads = open_options.load.threads;
  ranked.memory = memory;
  // Before any work: no file written may be one that is read.
  base::OutputGuard guard;
  guard.inputs(formats::graph_files(by_ranks ? formats::part_drive_dirs({input}, communicator->rank()).front() : input, open_options));
  for (const base::NamedFile& f : ranks ? formats::ranked_layout_files_to_write(output, ranked) : formats::files_to_write(output, to, write)) {
    guard.output(f.path, f.what);
  }

  auto start = std::chrono::steady_clock::now();
  if (by_ranks) {
    const ConvertedOnRanks done = convert_on_ranks(input, open_options, output, ranked, *communicator);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t figures[2] = {done.routed_bytes, base::TempFile::bytes_written()};
    communicator->sum(std::span<uint64_t>(figures, 2));
    if (communicator->rank() == 0) {
      const base::GraphInfo& info = done.info;
      std::cout << "converted " << done.format << " -> sluice by " << ranks << " ranks: " << info.vertices << " vertices, "
                << info.edges << " edges" << (info.weighted ? " (weighted)" : "") << " in " << seconds << " s -> " << output
                << ", " << base::byte_count(figures[0]) << " of edges sent between ranks, " << base::byte_count(figures[1])
                << " of scratch files written\n";
    }
    return exit_ok;
  }
  auto graph = formats::BlockGraph::open(input, open_options);
  if (ranks) {
    formats::write_ranked_sluice_layout(*graph, output, ranked);
  } else {
    std::unique_ptr<formats::BlockGraph> transpose;
    if (write.with_transpose) transpose = formats::transpose_of(*graph, open_options.load.threads, memory);
    write.transpose = transpose.get();
    formats::write_graph(*graph, output, to, write);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const base::GraphInfo& info = graph->info();
  // With the graph on standard output, the summary goes to standard error.
  (output == "-" ? std::cerr : std::cout) << "converted " << graph->format() << " -> " << to << ": " << info.vertices << " vertices, " << info.edges
            << " edges" << (info.weighted ? " (weighted)" : "") << " in " << seconds << " s -> " << output << (ranks ? " (" + std::to_string(ranks) + " ranks)" : std::string())
            << (base::TempFile::bytes_written() ? ", " + base::byte_count(base::TempFile::bytes_written()) + " of scratch files written" : std::string())
            << "\n";
  return exit_ok;
}

}  // namespace sluice::programs
