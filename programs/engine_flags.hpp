// The engine's flags, shared by every program that runs the engine (and by
// the Python module, which takes the same flags): --threads, --io,
// --skip-threshold, --bins, --bin-space, --direction, --edgemap,
// --pull-cache, --memory-limit, --no-verify-reads, --symmetric; and the
// graph opened into engines from them.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "programs/command_line.hpp"

namespace sluice::programs {

// --threads --io --skip-threshold --bins --bin-space --direction
// --edgemap --memory-limit --no-verify-reads. bench-edgemap passes its own
// defaults; a null skip_default leaves --skip-threshold out (sweep).
void add_engine_options(po::options_description& options, const char* skip_default = "",
                        const char* edgemap_default = "binning", const char* edgemap_help = "binning or atomic",
                        const char* direction_default = "auto");
// The engine's options from those flags; the variant is set by the caller
// when --edgemap names more than one.
engine::EngineOptions engine_options_from(const po::variables_map& values, const engine::DiskGraph& graph,
                                          std::string* skip_source = nullptr);

// Whether a program needs the transpose (on MPI ranks: the transpose
// graph's part). `undirected`: no transpose, but every edge stored both
// ways (a layout that records symmetry, or --symmetric checked), refused
// otherwise before any edge is loaded.
enum class Transpose { not_needed, needed, undirected };
// Whether a program with that need runs an engine over the transpose.
inline bool opens_transpose(Transpose t) { return t == Transpose::needed; }

// The graph at `path` opened into engines as a program needs it, from the
// engine flags (and --symmetric): the out-edges' engine, and the
// transpose's when needed (null with --symmetric, where the out-edges
// serve). Refuses, naming `program`, a needed transpose the layout lacks.
struct ProgramEngines {
  std::unique_ptr<engine::DiskGraph> out_graph, in_graph;  // in_graph: on ranks, the transpose's part
  std::unique_ptr<layout::DegreeArray> whole_degrees;  // on ranks, the whole graph's out-degrees of the own range (the engines read them)
  // `in` is destroyed first: in one process it is out's transposed() engine.
  std::unique_ptr<engine::Engine> out, in;
  engine::EngineOptions options;  // as the engines run (λ resolved)
  std::string skip_source;        // where λ came from: flag, profile, default
  bool symmetric = false;         // recorded in the layout, or --symmetric and checked
  std::string symmetry_check;     // what that check found, when it ran
  // --memory-limit as asked (0: none). On ranks with the transpose's part
  // the two engines' options each hold a share of it.
  uint64_t memory_limit = 0;
  double ready_seconds = 0;  // readying the reads of AlgorithmReads' edge sets
  unsigned sharing_drives = 1;  // on ranks: the ranks on this machine that read this rank's devices (shared_drives.hpp)

  // The engine over the transpose, or over the out-edges of a symmetric graph.
  engine::Engine& in_or_out() { return in ? *in : *out; }
};
// What a program does once its graph is open and checked, before the
// engines open (with --io memory, before any edge is loaded): it reads its
// parameters there, so that a bad one costs no load. out_degrees: the
// whole graph's, on ranks too, there of the own range alone (element i is
// the range's first vertex + i's).
using GraphOpened = std::function<void(const engine::DiskGraph& graph, const layout::DegreeArray* out_degrees)>;
// An algorithm's own arrays, counted in the memory budget, and those of a
// smaller way it can run, taken where the first do not fit (none: no
// other way; EngineOptions::algorithm_bytes_least).
struct AlgorithmArrays {
  engine::VertexBytes bytes, least;
  unsigned exchanged_value_bytes = 8;  // EngineOptions::exchanged_value_bytes
  AlgorithmArrays() = default;
  // Bytes a vertex over every vertex id, as a program of its own states them.
  AlgorithmArrays(uint64_t bytes_per_vertex) : bytes{bytes_per_vertex, 0} {}  // implicit: AlgorithmRun(..., 16)
  AlgorithmArrays(engine::VertexBytes bytes, engine::VertexBytes least) : bytes(bytes), least(least) {}
};
// What an algorithm reads besides its arrays, for the engines to ready
// when they open, outside the trials' time.
struct AlgorithmReads {
  bool samples = false;  // edge_map_first over the sample files: EngineOptions::hold_samples
  // The edge sets its EDGEMAPs read (Engine::ready_reads), their IO
  // buffers pinned at the opening, not at a first read within the first
  // trial. A set it reads seldom or never is left out: pinned, its
  // buffers would be resident for nothing.
  bool out_edges = false, in_edges = false;
};
// With a communicator of several ranks, opens this rank's part of a ranked
// layout and never a transpose engine (a part's other edge set serves
// pull only).
ProgramEngines open_program_engines(const std::string& program, const std::string& path, const po::variables_map& values,
                                    Transpose transpose, AlgorithmArrays arrays,
                                    engine::Communicator* communicator = nullptr, AlgorithmReads reads = {},
                                    const GraphOpened& graph_opened = {});
// --symmetric alone (add_program_options adds it).
void add_symmetric_option(po::options_description& options);

}  // namespace sluice::programs
