#include "programs/algorithm_table.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "algorithms/bc.hpp"
#include "algorithms/bfs.hpp"
#include "algorithms/kcore.hpp"
#include "algorithms/mis.hpp"
#include "algorithms/pagerank.hpp"
#include "algorithms/radii.hpp"
#include "algorithms/spmv.hpp"
#include "algorithms/sssp.hpp"
#include "algorithms/tc.hpp"
#include "algorithms/wcc.hpp"
#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "programs/algorithm_run.hpp"
#include "programs/option_values.hpp"
#include "programs/owned_figures.hpp"
#include "programs/program_outputs.hpp"
#include "programs/verifiers.hpp"

namespace sluice::programs {

namespace {

Transpose not_needed(const po::variables_map&) { return Transpose::not_needed; }
Transpose needed(const po::variables_map&) { return Transpose::needed; }
Transpose undirected(const po::variables_map&) { return Transpose::undirected; }  // refused before the engines open
constexpr const char* undirected_note = "(needs an undirected graph: `sluice convert --symmetrize`, or --symmetric)";

std::string printed(const char* format, auto... values) {
  char text[192];
  std::snprintf(text, sizeof(text), format, values...);
  return text;
}

// Runs a kernel, timed alone: packing its result for the outputs is not
// the algorithm's time.
template <class Kernel>
auto timed(double& seconds, Kernel&& kernel) {
  const auto start = std::chrono::steady_clock::now();
  auto result = kernel();
  seconds = seconds_since(start);
  return result;
}

// On several ranks a kernel leaves each vertex's value on the rank that
// owns it, and there it stays: the summary's figures are reduced over the
// ranks (programs/owned_figures.hpp), and each rank writes its share of
// the outputs.
engine::RankExchange& owners(const AlgorithmEngines& e) { return e.out.ranks(); }

// --source: one vertex for every trial (default: the vertex of highest
// out-degree), a list of them (one per trial: the trials default to the
// list's length), or "random": each trial a different vertex with
// out-edges, drawn with a fixed seed, as GAPBS's -n trials are.
class SourcePlan {
 public:
  explicit SourcePlan(const AlgorithmSetup& s)
      : vertices_(s.graph.vertices()), degrees_(s), ids_(&s.graph.layout().ids()) {
    const std::string text = s.values.count("source") ? s.values["source"].as<std::string>() : "";
    if (text == "random") {
      if (vertices_ == 0) throw po::error("the graph has no vertices to start from");
      if (!degrees_.any()) throw po::error("--source random: no vertex has out-edges");
      random_ = true;
    } else if (!s.values.count("source")) {
      listed_.push_back(pick_source(s, std::nullopt));
    } else {
      for (const std::string& id : split_values(text, "--source")) listed_.push_back(pick_source(s, parse_vertex_id(id, "--source")));
    }
  }
  // What --stats' run record says of the sources.
  Scalar parameter() const {
    if (random_) return std::string("random");
    if (listed_.size() == 1) return named(listed_.front());
    std::string text;
    for (uint64_t v : listed_) text += (text.empty() ? "" : ",") + std::to_string(named(v));
    return text;
  }
  unsigned trials() const { return random_ || listed_.size() == 1 ? 0 : unsigned(listed_.size()); }
  // (Collective on ranks: every rank draws the same candidates, and asks
  // the ranks about 64 at a time.)
  uint64_t for_trial(uint64_t trial) const {
    if (!random_) return listed_[trial % listed_.size()];
    std::mt19937_64 draw(27491095 + trial);
    std::array<uint64_t, 64> candidates;
    for (;;) {
      for (uint64_t& v : candidates) v = draw() % vertices_;
      const uint64_t v = degrees_.first_with_edges(candidates);
      if (v != UINT64_MAX) return v;
    }
  }
  // A vertex as the user names it: by the input's id.
  uint64_t named(uint64_t v) const { return ids_->original(v); }
  // A source without out-edges reaches nothing else: worth a warning.
  void warn_if_stuck(uint64_t source, AlgorithmResult& result) const {
    if (degrees_.of(source) == 0) {
      result.warnings.push_back("source " + std::to_string(named(source)) +
                                " has no out-edges: the search reaches only itself (--source random picks vertices with out-edges)");
    }
  }

 private:
  uint64_t vertices_;
  OutDegrees degrees_;       // live as long as the engines (the graph's index, or on ranks ProgramEngines::whole_degrees)
  const base::IdMap* ids_;   // the layout's: lives as long as the engines too
  bool random_ = false;
  std::vector<uint64_t> listed_;
};

// A result's values by name, as the row stored them.
template <class T>
std::span<const T> values_named(const AlgorithmResult& result, const std::string& name) {
  for (const auto& [n, values] : result.values) {
    if (n != name) continue;
    return std::visit([&](const auto& array) -> std::span<const T> {
      if constexpr (std::is_same_v<typename std::decay_t<decltype(array)>::value_type, T>) return std::span<const T>(array);
      throw std::logic_error("the values named " + name + " are of another type");
    }, values);
  }
  throw std::logic_error("no values named " + name);
}
uint64_t count_named(const AlgorithmResult& result, const std::string& name) {
  for (const auto& [n, value] : result.counts) {
    if (n == name) return std::get<uint64_t>(value);
  }
  throw std::logic_error("no count named " + name);
}

const char* source_help = "start vertex, GAPBS's -r: V, a list V,W,... (one per trial), or random (a vertex with out-edges per trial); default: the vertex of highest out-degree";

// spmv's x from a file: text, one number per line, or binary float64
// values; of a relabelled graph, as --output writes it: "ID VALUE" lines,
// or records of a uint64 input id and a float64.
// x holds real numbers unless --allow-nonfinite-x: a nan or inf (or
// Python's None) would spread silently through y.
void check_finite(double value, bool allowed, const std::string& path, const std::string& where) {
  if (!allowed && !std::isfinite(value)) {
    throw base::InputError(path, where, std::string("x is ") + (value != value ? "nan" : "infinite") +
                                            "; x must hold finite numbers (pass --allow-nonfinite-x to take it as given)");
  }
}

std::vector<double> read_vector(const std::string& path, const std::string& format, uint64_t n, const base::IdMap& ids,
                                bool allow_nonfinite) {
  base::MappedFile file(path);
  const char* data = file.data();
  const size_t size = file.size();
  const bool named = !ids.empty() && !ids.permutes();  // a reordering's file lists values by input id: its line
  // A reordered graph's x, given in input order, in the layout's.
  auto in_layout_order = [&](std::vector<double> given) {
    if (ids.empty()) return given;
    std::vector<double> ordered(n);
    for (uint64_t v = 0; v < n; ++v) ordered[v] = given[ids.original(v)];
    return ordered;
  };
  std::vector<double> x(n, 0.0);
  std::vector<bool> given(named ? n : 0, false);
  uint64_t count = 0;
  // Vertex `id`'s value, where the file names vertices by the input's ids.
  auto place = [&](uint64_t id, double value, const std::string& where) {
    const std::optional<uint64_t> v = ids.vertex_of(id);
    if (!v) throw base::InputError(path, where, "vertex " + std::to_string(id) + " is not in the graph (no edge of its input names it)");
    if (given[*v]) throw base::InputError(path, where, "vertex " + std::to_string(id) + " is given twice");
    given[*v] = true;
    x[*v] = value;
  };
  if (format == "binary") {
    const size_t record = named ? 16 : 8;
    if (size != n * record) {
      throw base::InputError(path, "", "expected " + std::to_string(n) + (named ? " (uint64 id, float64 value) records (" : " float64 values (") +
                                           std::to_string(n * record) + " bytes), found " + std::to_string(size) + " bytes");
    }
    for (uint64_t i = 0; i < n; ++i) {
      double value;
      std::memcpy(&value, data + i * record + (named ? 8 : 0), 8);
      check_finite(value, allow_nonfinite, path, base::at_byte(i * record + (named ? 8 : 0)));
      if (!named) {
        x[i] = value;
        continue;
      }
      uint64_t id;
      std::memcpy(&id, data + i * record, 8);
      place(id, value, base::at_byte(i * record));
    }
    return named ? x : in_layout_order(std::move(x));
  }
  uint64_t line = 1;
  for (size_t at = 0; at < size;) {
    size_t end = at;
    while (end < size && data[end] != '\n') ++end;
    if (end > at) {
      const char* p = data + at;
      uint64_t id = 0;
      if (named) {
        auto [after_id, id_ec] = std::from_chars(p, data + end, id);
        if (id_ec != std::errc() || after_id == data + end || *after_id != ' ') {
          throw base::InputError(path, base::at_line(line), "expected 'ID VALUE': the graph was relabelled, so x names each vertex by its input id");
        }
        p = after_id + 1;
      }
      double value;
      auto [ptr, ec] = std::from_chars(p, data + end, value);
      if (ec == std::errc::result_out_of_range && ptr == data + end) {
        throw base::InputError(path, base::at_line(line), "the number is out of float64's range (magnitude at most 1.8e308)");
      }
      if (ec != std::errc() || ptr != data + end) throw base::InputError(path, base::at_line(line), named ? "expected 'ID VALUE'" : "expected one number");
      check_finite(value, allow_nonfinite, path, base::at_line(line));
      if (named) {
        place(id, value, base::at_line(line));
      } else if (count < n) {
        x[count] = value;
      }
      ++count;
    }
    at = end + 1;
    ++line;
  }
  if (count != n) {
    throw base::InputError(path, "", "expected " + std::to_string(n) + " values, one per vertex, found " + std::to_string(count));
  }
  return named ? x : in_layout_order(std::move(x));
}

// The budget's bytes a vertex of a row whose arrays its flags do not change.
auto per_vertex(engine::VertexBytes bytes) {
  return [bytes](const po::variables_map&) { return AlgorithmArrays{bytes, {}}; };
}
auto per_vertex(uint64_t every) { return per_vertex(engine::VertexBytes{every, 0}); }

Algorithm bfs_row() {
  Algorithm a;
  a.name = "bfs";
  a.summary = "breadth-first search: depth and parent of every vertex";
  a.usage = "[--source V] [--parents FILE]";
  a.output_help = "write each vertex's depth (-1: not reached) to this file";
  a.arrays = [](const po::variables_map&) {
    AlgorithmArrays arrays{algorithms::bfs_vertex_bytes, {}};
    arrays.exchanged_value_bytes = 0;  // its frontiers alone cross
    return arrays;
  };
  a.extra_outputs = {{"parents", "parent"}};
  a.vertex_valued = {"parent", "source"};
  a.reads.out_edges = a.reads.in_edges = true;  // a sparse level pushes, a dense one pulls
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("source,r", po::value<std::string>(), source_help)
      ("parents", po::value<std::string>()->default_value(""), "write each vertex's BFS parent (-1: not reached) to this file");
  };
  a.transpose = not_needed;
  a.prepare = [](const AlgorithmSetup& s) {
    const SourcePlan sources(s);
    return PreparedAlgorithm{{{"source", sources.parameter()}}, [sources](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      const uint64_t source = sources.for_trial(trace.trial());
      double seconds = 0;
      algorithms::BfsResult r = timed(seconds, [&] { return algorithms::bfs(e.out, source, trace); });
      AlgorithmResult result{r.levels, "", {}, {}, seconds};
      std::visit([&](auto& tree) {
        const int64_t deepest = owned_max(owners(e), tree.depth, int64_t(0));
        result.digest = "source " + std::to_string(sources.named(source)) + " reached " + std::to_string(r.reached) + " of " +
                        std::to_string(tree.depth.size()) + " vertices, depth " + std::to_string(deepest);
        result.values.emplace_back("depth", std::move(tree.depth));  // move-only arrays: no initializer list
        result.values.emplace_back("parent", std::move(tree.parent));
      }, r.tree);
      result.counts = {{"source", source}, {"reached", r.reached}, {"levels", r.levels}};
      sources.warn_if_stuck(source, result);
      return result;
    }, sources.trials(), [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_bfs(graph, count_named(r, "source"), values_named<int64_t>(r, "depth"), values_named<int64_t>(r, "parent"));
    }};
  };
  return a;
}

algorithms::PageRankOptions pagerank_options(const po::variables_map& v) {
  algorithms::PageRankOptions o;
  o.method = parse_pagerank_method(v["method"].as<std::string>());
  o.dangling = parse_dangling(v["dangling"].as<std::string>());
  o.damping = v["damping"].as<double>();
  o.tolerance = v["tolerance"].as<double>();
  o.max_iterations = v["iterations"].as<unsigned>();
  o.delta_threshold = v["delta-threshold"].as<double>();
  o.shares = parse_pagerank_shares(v["shares"].as<std::string>());
  return o;
}

Algorithm pagerank_row() {
  Algorithm a;
  a.name = "pagerank";
  a.summary = "PageRank, delta (Ligra/Blaze) or classic (GAPBS)";
  a.usage = "[--method auto|delta|classic]";
  a.output_help = "write each vertex's rank to this file";
  a.arrays = [](const po::variables_map& v) {
    const algorithms::PageRankOptions o = pagerank_options(v);
    AlgorithmArrays arrays{algorithms::pagerank_vertex_bytes(o), algorithms::pagerank_least_vertex_bytes(o)};
    // The shares cross as stored: floats only when asked for (auto turns to doubles near the end).
    arrays.exchanged_value_bytes = o.shares == algorithms::PageRankShares::float32 ? 4 : 8;
    return arrays;
  };
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("method", po::value<std::string>()->default_value("auto"),
       "delta (Ligra/Blaze: only changed vertices push), classic (GAPBS), or auto: delta, or classic where delta's 24 bytes a "
       "vertex do not fit the memory limit beside the engine's floor and classic's 16-20 do (classic with --dangling spread)")
      ("damping", po::value<double>()->default_value(0.85, "0.85"), "damping factor")
      ("tolerance", po::value<double>()->default_value(1e-4, "1e-4"), "stop when one iteration changes the ranks by less than this in total (L1)")
      ("iterations", po::value<unsigned>()->default_value(20), "iteration cap")
      ("delta-threshold", po::value<double>()->default_value(0.01, "0.01"), "delta: a vertex stays active while its change exceeds this share of its rank")
      ("dangling", po::value<std::string>()->default_value("drop"),
       "rank of vertices without out-edges: drop (GAPBS, Ligra, Blaze) or spread evenly (networkx; classic only)")
      ("shares", po::value<std::string>()->default_value("auto"),
       "what each vertex sends along its out-edges, stored as float (GAPBS's choice: half the vertex state every edge reads, "
       "faster once that outgrows the caches; ranks and sums stay double; 4 bytes a vertex more) or double; auto: classic on "
       "float while an iteration changes the ranks by more than 100 x 2^-24 / (1 - damping) (4e-5 at 0.85), where rounding "
       "is under 1% of that, double after; delta on double "
       "(float alone leaves an iteration's L1 change at a few 1e-9, so tolerances below about 1e-8 may not be reached)");
  };
  a.transpose = not_needed;
  a.reads.in_edges = true;  // it pulls (pushes without the transpose)
  a.prepare = [](const AlgorithmSetup& s) {
    const po::variables_map& v = s.values;
    const algorithms::PageRankOptions o = pagerank_options(v);
    NamedScalars parameters = {{"method", v["method"].as<std::string>()}, {"dangling", v["dangling"].as<std::string>()},
                               {"shares", v["shares"].as<std::string>()},
                               {"damping", o.damping}, {"tolerance", o.tolerance},
                               {"iterations", uint64_t(o.max_iterations)}, {"delta_threshold", o.delta_threshold}};
    const base::IdMap* ids = &s.graph.layout().ids();
    return PreparedAlgorithm{std::move(parameters), [o, ids](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::PageRankResult r = timed(seconds, [&] { return algorithms::pagerank(e.out, o, trace); });
      const TopVertex top = owned_top(owners(e), r.rank);
      const bool auto_classic = o.method == algorithms::PageRankMethod::automatic && r.method == algorithms::PageRankMethod::classic &&
                                o.dangling == algorithms::Dangling::drop;
      AlgorithmResult result{r.iterations, printed("sum of ranks %.6f, top vertex %llu (%.3g), last change %.3g, %s%s",
                                                   owned_sum(owners(e), r.rank),
                                                   (unsigned long long)ids->original(top.vertex), top.value, r.last_change,
                                                   !r.converged                  ? "not converged"
                                                   : r.last_change < o.tolerance ? "converged"
                                                                                 : "converged (no change above the delta threshold left)",
                                                   auto_classic ? "; classic: delta's arrays did not fit the memory limit" : ""),
                             {}, {}, seconds};
      result.values.emplace_back("rank", std::move(r.rank));
      result.counts = {{"method", std::string(r.method == algorithms::PageRankMethod::classic ? "classic" : "delta")},
                       {"iterations", uint64_t(r.iterations)}, {"last_change", r.last_change}, {"converged", r.converged},
                       {"float_share_iterations", uint64_t(r.float_share_iterations)}};
      if (!r.converged && o.tolerance > 0) {  // a tolerance of 0 asks for the cap: a fixed number of iterations
        result.warnings.push_back(printed("did not converge: stopped at the cap of %u iterations with a last change of %.3g, "
                                          "not below the tolerance %.3g (raise the iteration cap, or the tolerance)",
                                          o.max_iterations, r.last_change, o.tolerance));
      }
      return result;
    }, 0, [o](formats::BlockGraph& graph, const AlgorithmResult& r) {
      const bool delta = std::any_of(r.counts.begin(), r.counts.end(), [](const auto& count) {
        return count.first == "method" && std::get<std::string>(count.second) == "delta";
      });
      const double held_back = delta ? o.damping * o.delta_threshold : 0.0;
      return verify_pagerank(graph, values_named<double>(r, "rank"), o.damping, o.dangling == algorithms::Dangling::spread, o.tolerance,
                             held_back);
    }};
  };
  return a;
}

Algorithm wcc_row() {
  Algorithm a;
  a.name = "wcc";
  a.summary = "weakly connected components by Afforest over the engine (uses the transpose)";
  a.component_labels = {"label"};
  a.note = "(needs the transpose: `sluice convert --transpose`, or --symmetric)";
  a.output_help = "write each vertex's component (its smallest vertex id) to this file";
  a.arrays = per_vertex(algorithms::wcc_vertex_bytes);
  a.ranks_arrays = algorithms::wcc_ranks_vertex_bytes;
  a.reads.samples = true;  // Afforest's first step
  a.add_options = [](po::options_description&) {};
  a.transpose = needed;
  a.prepare = [](const AlgorithmSetup&) {
    return PreparedAlgorithm{{}, [](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::ComponentsResult r = timed(seconds, [&] { return algorithms::wcc(e.out, e.in, trace); });
      algorithms::summarize_components(r, owners(e));
      AlgorithmResult result{r.rounds, components_digest(r), {}, {}, seconds};
      result.values.emplace_back("label", std::move(r.label));
      result.counts = {{"components", r.components}, {"largest", r.largest}, {"rounds", r.rounds}};
      return result;
    }, 0, [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_components(graph, values_named<uint64_t>(r, "label"));
    }};
  };
  return a;
}

Algorithm spmv_row() {
  Algorithm a;
  a.name = "spmv";
  a.summary = "sparse matrix-vector product over the edge weights";
  a.usage = "[--x FILE] [--transposed]";
  a.note = "A[i][j] is the weight of edge i -> j (1 when unweighted); A x reads the transpose.";
  a.output_help = "write y, one value per vertex, to this file";
  a.arrays = per_vertex(algorithms::spmv_vertex_bytes);
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("x", po::value<std::string>()->default_value(""), "the vector x, one value per vertex (text, or float64 with --output-format binary; of a relabelled graph, as --output writes it: 'ID VALUE' lines or (uint64, float64) records); default all ones")
      ("transposed", po::bool_switch(), "compute A^T x over the out-edges (needs no transpose) instead of A x")
      ("allow-nonfinite-x", po::bool_switch(), "take nan and inf in x as given (refused by default)");
  };
  a.transpose = [](const po::variables_map& v) { return v["transposed"].as<bool>() ? Transpose::not_needed : Transpose::needed; };
  a.prepare = [](const AlgorithmSetup& s) {
    const bool transposed = s.values["transposed"].as<bool>();
    const std::string path = s.values["x"].as<std::string>();
    const bool allow_nonfinite = s.values["allow-nonfinite-x"].as<bool>();
    const uint64_t n = s.graph.vertices();
    std::vector<double> x;
    std::string x_name = "ones";
    if (auto given = s.vectors.find("x"); given != s.vectors.end()) {
      if (given->second.size() != n) {
        throw std::invalid_argument("x has " + std::to_string(given->second.size()) + " values; the graph has " +
                                    std::to_string(n) + " vertices");
      }
      x = given->second;
      for (uint64_t v = 0; v < n; ++v) check_finite(x[v], allow_nonfinite, "x[" + std::to_string(v) + "]", "");
      x_name = "given";
    } else if (!path.empty()) {
      if (s.outputs) s.outputs->read(path, "--x");
      x = read_vector(path, s.values.count("output-format") ? output_format(s.values) : "text", n, s.graph.layout().ids(), allow_nonfinite);
      x_name = path;
    } else {
      x.assign(n, 1.0);
    }
    NamedScalars parameters = {{"product", std::string(transposed ? "A^T x" : "A x")}, {"x", x_name}};
    // x is read by the run and by --verify.
    auto shared = std::make_shared<const std::vector<double>>(std::move(x));
    return PreparedAlgorithm{std::move(parameters), [transposed, shared](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      const std::vector<double>& x = *shared;
      double seconds = 0;
      base::Array<double> y = timed(seconds, [&] { return algorithms::spmv(transposed ? e.out : e.in_or_out(), x, trace); });
      const double sum = owned_sum(owners(e), y);
      const double norm = owned_sum(owners(e), y, [](double value) { return value * value; });
      AlgorithmResult result{1, printed("%s: sum of y %.6g, |y| %.6g", transposed ? "y = A^T x" : "y = A x", sum, std::sqrt(norm)), {}, {}, seconds};
      result.values.emplace_back("y", std::move(y));
      return result;
    }, 0, [transposed, shared](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_spmv(graph, *shared, values_named<double>(r, "y"), transposed);
    }};
  };
  return a;
}

Algorithm bc_row() {
  Algorithm a;
  a.name = "bc";
  a.summary = "betweenness centrality (Brandes) from one or more sources (uses the transpose)";
  a.usage = "[--sources V,W,...]";
  a.note = "(needs the transpose: `sluice convert --transpose`, or --symmetric)";
  a.output_help = "write each vertex's centrality to this file";
  a.arrays = per_vertex(algorithms::bc_vertex_bytes);
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("sources,s", po::value<std::string>()->default_value(""), "source vertices, comma-separated (default: the vertex of highest out-degree)")
      ("all-sources", po::bool_switch(), "every vertex a source: exact betweenness");
  };
  a.transpose = needed;
  a.reads.out_edges = a.reads.in_edges = true;  // its levels push and pull, forward and back
  a.check = [](const po::variables_map& v) {
    if (v["all-sources"].as<bool>() && !v["sources"].defaulted()) throw po::error("give --sources or --all-sources, not both");
  };
  a.prepare = [](const AlgorithmSetup& s) {
    const po::variables_map& v = s.values;
    std::vector<uint64_t> sources;
    if (v["all-sources"].as<bool>()) {
      for (uint64_t id = 0; id < s.graph.vertices(); ++id) sources.push_back(id);
    } else if (v["sources"].defaulted()) {
      sources.push_back(pick_source(s, std::nullopt));
    } else {
      for (const std::string& id : split_values(v["sources"].as<std::string>(), "--sources")) {
        sources.push_back(pick_source(s, parse_vertex_id(id, "--sources")));
      }
    }
    NamedScalars parameters = {{"sources", uint64_t(sources.size())}};
    const base::IdMap* ids = &s.graph.layout().ids();
    return PreparedAlgorithm{std::move(parameters), [sources, ids](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::BcResult r = timed(seconds, [&] { return algorithms::bc(e.out, e.in, sources, trace); });
      const TopVertex top = owned_top(owners(e), r.score);
      AlgorithmResult result{r.levels, printed("%llu source(s), sum of scores %.6g, top vertex %llu (%.6g)",
                                               (unsigned long long)r.sources, owned_sum(owners(e), r.score),
                                               (unsigned long long)ids->original(top.vertex), top.value), {}, {}, seconds};
      result.values.emplace_back("score", std::move(r.score));
      result.counts = {{"sources", r.sources}, {"levels", r.levels}};
      return result;
    }};
  };
  return a;
}

// --delta as given: a positive number or inf.
double given_delta(const std::string& text) {
  char* end = nullptr;
  const double delta = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(delta > 0)) {
    throw po::error("--delta must be a positive number, inf (Bellman-Ford) or auto (the largest weight), not '" + text + "'");
  }
  return delta;
}

// --delta auto: from the weights the layout records; on ranks, every
// part's together (each records its own edges').
algorithms::ChosenDelta delta_for_layout(const AlgorithmSetup& s) {
  std::optional<layout::WeightRange> weights = s.graph.layout().manifest().weights;
  if (s.communicator) {
    // A part's range as two floats in one word; all ones where none is recorded.
    constexpr uint64_t unknown = ~uint64_t(0);
    const uint64_t mine = weights ? uint64_t(std::bit_cast<uint32_t>(weights->least)) << 32 | std::bit_cast<uint32_t>(weights->most) : unknown;
    std::optional<layout::WeightRange> whole = layout::WeightRange{};
    for (const uint64_t theirs : s.communicator->all_gather_one(mine)) {
      if (theirs == unknown) {
        whole.reset();
        break;
      }
      whole->add(layout::WeightRange{std::bit_cast<float>(uint32_t(theirs >> 32)), std::bit_cast<float>(uint32_t(theirs))});
    }
    weights = whole;
  }
  return algorithms::delta_for_weights(s.graph.info().weighted, weights);
}

// Said where --delta auto found no weight range to follow.
void warn_if_unrecorded(const algorithms::ChosenDelta& chosen, AlgorithmResult& result) {
  if (!chosen.unrecorded) return;
  result.warnings.push_back("the layout records no range of its weights (an older sluice wrote it), so the bucket width is 1: "
                            "--delta near the largest weight, or converting the layout again, runs far faster out of core");
}

// How the summary names the bucket width.
std::string bucket_width_text(double delta) {
  return std::isinf(delta) ? "(Bellman-Ford)" : printed("of width %g", delta);
}

// sssp --from-every-vertex: one search with every vertex at distance 0.
PreparedAlgorithm sssp_from_every_vertex(const algorithms::SsspOptions& o, const algorithms::ChosenDelta& chosen) {
  NamedScalars parameters = {{"from_every_vertex", true}, {"delta", o.delta}, {"delta_from", std::string(chosen.reason)}};
  return PreparedAlgorithm{std::move(parameters), [o, chosen](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
    double seconds = 0;
    algorithms::SsspResult r = timed(seconds, [&] { return algorithms::sssp_from_every_vertex(e.out, o, trace); });
    const uint64_t below = owned_count(owners(e), r.distance, [](float d) { return d < 0; });
    const float least = owned_min(owners(e), r.distance, 0.0f);
    AlgorithmResult result{r.rounds, printed("from every vertex: %llu of %zu vertices below 0, least distance %.6g, %llu round(s)",
                                             (unsigned long long)below, r.distance.size(), double(least), (unsigned long long)r.rounds),
                           {}, {}, seconds};
    result.values.emplace_back("distance", std::vector<double>(r.distance.begin(), r.distance.end()));
    result.counts = {{"reached", r.reached}, {"below_zero", below}, {"buckets", r.buckets}, {"rounds", r.rounds}};
    warn_if_unrecorded(chosen, result);
    return result;
  }, 0, [](formats::BlockGraph& graph, const AlgorithmResult& r) {
    return verify_sssp(graph, std::nullopt, values_named<double>(r, "distance"));
  }};
}

Algorithm sssp_row() {
  Algorithm a;
  a.name = "sssp";
  a.summary = "single-source shortest paths by delta-stepping (GAPBS's sssp; --delta inf: Bellman-Ford)";
  a.vertex_valued = {"source"};
  a.usage = "[--source V | --from-every-vertex] [--delta D]";
  a.note = "Unweighted graphs have weight 1; negative weights need --delta inf (Bellman-Ford).";
  a.output_help = "write each vertex's distance (inf: not reached) to this file";
  a.arrays = [](const po::variables_map&) {
    AlgorithmArrays arrays{engine::VertexBytes{algorithms::sssp_bytes_per_vertex, 0}, {}};
    arrays.exchanged_value_bytes = sizeof(float);  // the distances, summed and stored in 32-bit floats
    return arrays;
  };
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("source,r", po::value<std::string>(), source_help)
      ("delta,d", po::value<std::string>()->default_value("auto"), "bucket width, GAPBS's -d: a number, inf (Bellman-Ford, which also takes negative weights), or auto: the layout's largest weight (1 unweighted; inf with negative weights), which out of core reads far fewer bytes than narrow buckets")
      ("from-every-vertex", po::bool_switch(), "start every vertex at distance 0 (a virtual source joined to each by weight 0): each vertex's least distance from any vertex, at most 0; with --delta inf, Johnson's potentials, and an error if the graph has a negative cycle anywhere");
  };
  a.transpose = not_needed;
  a.reads.out_edges = true;  // its buckets push
  a.check = [](const po::variables_map& v) {
    if (const std::string delta = v["delta"].as<std::string>(); delta != "auto") given_delta(delta);
    if (v["from-every-vertex"].as<bool>() && v.count("source")) throw po::error("give --source or --from-every-vertex, not both");
  };
  a.prepare = [](const AlgorithmSetup& s) {
    algorithms::SsspOptions o;
    const std::string given = s.values["delta"].as<std::string>();
    const algorithms::ChosenDelta chosen = given == "auto" ? delta_for_layout(s) : algorithms::ChosenDelta{given_delta(given), "given"};
    o.delta = chosen.delta;
    if (s.values["from-every-vertex"].as<bool>()) return sssp_from_every_vertex(o, chosen);
    const SourcePlan sources(s);
    NamedScalars parameters = {{"source", sources.parameter()}, {"delta", o.delta}, {"delta_from", std::string(chosen.reason)}};
    return PreparedAlgorithm{std::move(parameters), [sources, o, chosen](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      const uint64_t source = sources.for_trial(trace.trial());
      double seconds = 0;
      algorithms::SsspResult r;
      try {
        r = timed(seconds, [&] { return algorithms::sssp(e.out, source, o, trace); });
      } catch (const algorithms::NegativeWeight& error) {
        throw std::invalid_argument(algorithms::NegativeWeight::message(std::to_string(sources.named(error.vertex))));
      } catch (const algorithms::NegativeCycle& error) {
        throw std::runtime_error(algorithms::NegativeCycle::message(std::to_string(sources.named(error.vertex)), error.rounds));
      }
      const float farthest = owned_max(owners(e), r.distance, 0.0f,
                                       [](float d) { return d < std::numeric_limits<float>::infinity() ? d : 0.0f; });
      AlgorithmResult result{r.rounds, printed("source %llu reached %llu of %zu vertices, farthest at %.6g, %llu bucket(s) %s",
                                               (unsigned long long)sources.named(source), (unsigned long long)r.reached, r.distance.size(),
                                               double(farthest), (unsigned long long)r.buckets, bucket_width_text(o.delta).c_str()), {}, {}, seconds};
      result.values.emplace_back("distance", std::vector<double>(r.distance.begin(), r.distance.end()));
      result.counts = {{"source", source}, {"reached", r.reached}, {"buckets", r.buckets}, {"rounds", r.rounds}};
      sources.warn_if_stuck(source, result);
      warn_if_unrecorded(chosen, result);
      return result;
    }, sources.trials(), [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_sssp(graph, count_named(r, "source"), values_named<double>(r, "distance"));
    }};
  };
  return a;
}

Algorithm kcore_row() {
  Algorithm a;
  a.name = "kcore";
  a.summary = "k-core decomposition by peeling (Ligra's KCore): the coreness of every vertex (undirected graphs)";
  a.note = undirected_note;
  a.output_help = "write each vertex's coreness to this file";
  a.arrays = per_vertex(algorithms::kcore_vertex_bytes);
  a.add_options = [](po::options_description&) {};
  a.transpose = undirected;
  a.prepare = [](const AlgorithmSetup&) {
    return PreparedAlgorithm{{}, [](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::KcoreResult r = timed(seconds, [&] { return algorithms::kcore(e.out, trace); });
      AlgorithmResult result{r.rounds, printed("largest core %llu (%llu vertices), %llu peeling rounds",
                                               (unsigned long long)r.largest, (unsigned long long)r.in_largest,
                                               (unsigned long long)r.rounds), {}, {}, seconds};
      result.values.emplace_back("core", std::move(r.core));
      result.counts = {{"largest", r.largest}, {"in_largest", r.in_largest}, {"rounds", r.rounds}};
      return result;
    }, 0, [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_kcore(graph, values_named<uint64_t>(r, "core"));
    }};
  };
  return a;
}

Algorithm tc_row() {
  Algorithm a;
  a.name = "tc";
  a.summary = "triangle counting (GAPBS's tc, out of core as MGT): triangles per vertex, clustering, transitivity (undirected graphs)";
  a.usage = "[--list-memory SIZE] [--clustering FILE]";
  a.note = undirected_note;
  a.output_help = "write each vertex's triangle count to this file";
  a.arrays = per_vertex(algorithms::tc_bytes_per_vertex);
  a.extra_outputs = {{"clustering", "clustering"}};
  a.add_options = [](po::options_description& o) {
    o.add_options()
      ("list-memory", byte_size_value("0"), "DRAM for the oriented lists held at once, e.g. 512m; a smaller budget costs a scan of the graph per range "
                                            "(0: what --memory-limit leaves after the rest of the run)")
      ("clustering", po::value<std::string>()->default_value(""), "write each vertex's local clustering coefficient to this file");
  };
  a.transpose = undirected;
  a.prepare = [](const AlgorithmSetup& s) {
    algorithms::TcOptions o;
    o.list_memory = s.values["list-memory"].as<ByteSize>().bytes;
    NamedScalars parameters = {{"list_memory", o.list_memory}};
    return PreparedAlgorithm{std::move(parameters), [o](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      if (e.out.distributed()) {
        throw std::invalid_argument("tc does not run on ranks: it intersects whole neighbour lists, and a rank's part holds only the edges into its range");
      }
      double seconds = 0;
      algorithms::TcResult r = timed(seconds, [&] { return algorithms::tc(e.out, o, trace); });
      AlgorithmResult result{r.passes, printed("%llu triangles, transitivity %.6g, average clustering %.6g; %llu range(s) of lists, %llu pass(es) over the edges",
                                               (unsigned long long)r.total, r.transitivity, r.average_clustering,
                                               (unsigned long long)r.ranges, (unsigned long long)r.passes), {}, {}, seconds};
      result.values.emplace_back("triangles", std::move(r.triangles));
      result.values.emplace_back("clustering", std::move(r.clustering));
      result.counts = {{"total", r.total}, {"transitivity", r.transitivity}, {"average_clustering", r.average_clustering},
                       {"ranges", r.ranges}, {"passes", r.passes}, {"list_memory", r.list_memory}, {"held_bytes", r.held_bytes},
                       {"oriented_edges", r.oriented_edges}};
      return result;
    }, 0, [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_tc(graph, values_named<uint64_t>(r, "triangles"));
    }};
  };
  return a;
}

constexpr const char* seed_help = "the seed of the pseudo-random choices (the same seed, the same result)";

Algorithm mis_row() {
  Algorithm a;
  a.name = "mis";
  a.summary = "maximal independent set (Ligra's MIS): greedy by pseudo-random priorities (undirected graphs)";
  a.usage = "[--seed N]";
  a.note = undirected_note;
  a.output_help = "write each vertex's membership (1: in the set, 0: not) to this file";
  a.arrays = per_vertex(algorithms::mis_bytes_per_vertex);
  a.add_options = [](po::options_description& o) {
    o.add_options()("seed", po::value<uint64_t>()->default_value(1), seed_help);
  };
  a.transpose = undirected;
  a.prepare = [](const AlgorithmSetup& s) {
    const uint64_t seed = s.values["seed"].as<uint64_t>();
    NamedScalars parameters = {{"seed", seed}};
    return PreparedAlgorithm{std::move(parameters), [seed](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::MisResult r = timed(seconds, [&] { return algorithms::mis(e.out, seed, trace); });
      AlgorithmResult result{r.rounds, printed("%llu members of %zu vertices, %llu rounds", (unsigned long long)r.members, r.member.size(),
                                               (unsigned long long)r.rounds), {}, {}, seconds};
      result.values.emplace_back("member", std::move(r.member));
      result.counts = {{"members", r.members}, {"rounds", r.rounds}};
      return result;
    }, 0, [](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_mis(graph, values_named<uint64_t>(r, "member"));
    }};
  };
  return a;
}

Algorithm radii_row() {
  Algorithm a;
  a.name = "radii";
  a.summary = "radii estimation (Ligra's Radii): a BFS from 64 sampled sources at once; each vertex's eccentricity estimate";
  a.usage = "[--seed N]";
  a.note = "Every vertex is a source in graphs of 64 vertices or fewer: on an undirected graph the estimates are then the eccentricities.";
  a.output_help = "write each vertex's estimate (-1: no source reaches it) to this file";
  a.arrays = per_vertex(algorithms::radii_bytes_per_vertex);
  a.add_options = [](po::options_description& o) {
    o.add_options()("seed", po::value<uint64_t>()->default_value(1), seed_help);
  };
  a.transpose = not_needed;
  a.prepare = [](const AlgorithmSetup& s) {
    const uint64_t seed = s.values["seed"].as<uint64_t>();
    auto sources = std::make_shared<const std::vector<uint64_t>>(algorithms::radii_sources(s.graph.vertices(), seed));
    NamedScalars parameters = {{"seed", seed}, {"sources", uint64_t(sources->size())}};
    return PreparedAlgorithm{std::move(parameters), [sources](const AlgorithmEngines& e, algorithms::RunTrace& trace) {
      double seconds = 0;
      algorithms::RadiiResult r = timed(seconds, [&] { return algorithms::radii(e.out, *sources, trace); });
      const uint64_t reached = owned_count(owners(e), r.radius, [](int64_t radius) { return radius >= 0; });
      AlgorithmResult result{r.rounds, printed("%zu sources reached %llu vertices, largest estimate %lld, %llu rounds", r.sources.size(),
                                               (unsigned long long)reached, (long long)r.largest, (unsigned long long)r.rounds), {}, {}, seconds};
      result.values.emplace_back("radius", std::move(r.radius));
      result.counts = {{"sources", uint64_t(r.sources.size())}, {"reached", reached}, {"largest", uint64_t(std::max<int64_t>(r.largest, 0))},
                       {"rounds", r.rounds}};
      return result;
    }, 0, [sources](formats::BlockGraph& graph, const AlgorithmResult& r) {
      return verify_radii(graph, *sources, values_named<int64_t>(r, "radius"));
    }};
  };
  return a;
}

}  // namespace

const std::vector<Algorithm>& algorithm_table() {
  static const std::vector<Algorithm> table = {bfs_row(), pagerank_row(), wcc_row(), spmv_row(), bc_row(),
                                                sssp_row(), kcore_row(), tc_row(), mis_row(), radii_row()};
  return table;
}

const Algorithm& find_algorithm(const std::string& name) {
  std::string names;
  for (const Algorithm& a : algorithm_table()) {
    if (a.name == name) return a;
    names += (names.empty() ? "" : ", ") + a.name;
  }
  throw po::error("'" + name + "' is not one of the algorithms: " + names);
}

void widen_values(AlgorithmResult& result, uint64_t first, uint64_t last) {
  for (auto& [name, values] : result.values) {
    if (auto* narrow = std::get_if<base::Array<int32_t>>(&values)) {
      values = std::move(*narrow).widened<int64_t>("a result in int64", first, last);
    }
  }
}

void add_algorithm_options(const Algorithm& algorithm, po::options_description& options) {
  algorithm.add_options(options);
  add_engine_options(options);
  add_symmetric_option(options);
}

void add_every_algorithm_option(po::options_description& options) {
  for (const Algorithm& a : algorithm_table()) {
    po::options_description own;
    a.add_options(own);
    for (const auto& option : own.options()) {
      const bool output = std::any_of(a.extra_outputs.begin(), a.extra_outputs.end(),
                                      [&](const auto& o) { return o.first == option->long_name(); });
      if (!output && !options.find_nothrow(option->long_name(), false)) options.add(option);
    }
  }
}

}  // namespace sluice::programs
