#include "runs.hpp"

#include <chrono>
#include <optional>
#include <nlohmann/json.hpp>

#include "algorithms/bc.hpp"
#include "algorithms/bfs.hpp"
#include "algorithms/jtcc.hpp"
#include "algorithms/pagerank.hpp"
#include "algorithms/spmv.hpp"
#include "algorithms/wcc.hpp"
#include "base/errors.hpp"
#include "graph.hpp"
#include "tools/algorithm_program.hpp"

namespace sluice::python {

namespace {

using tools::Transpose;

// One run: the engines the program would open, and a trace keeping every
// EDGEMAP's statistics.
struct Run {
  Run(const char* name, const std::string& path, const std::vector<std::string>& flags, Transpose transpose,
      uint64_t bytes_per_vertex)
      : trace(name) {
    boost::program_options::options_description options(name);
    tools::add_engine_options(options);
    tools::add_symmetric_option(options);
    const auto values = parse_flags(std::string("sluice.") + name, options, flags);
    run_released([&] { engines = tools::open_program_engines(name, path, values, transpose, bytes_per_vertex); });
    trace.keep_records(true);
  }
  engine::Engine& out() { return *engines.out; }
  engine::Engine* in() { return engines.in.get(); }

  // Times `work` (GIL released), then fills the common fields of a result.
  py::dict run(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    run_released(work);
    py::dict result;
    result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (const algorithms::EdgeMapRecord& r : trace.records()) {
      nlohmann::ordered_json line = {{"phase", r.phase}, {"iteration", r.iteration}};
      const nlohmann::ordered_json fields = nlohmann::ordered_json::parse(r.stats.json());
      for (const auto& [key, value] : fields.items()) line[key] = value;
      records.push_back(line);
    }
    result["edgemaps"] = records.dump();  // parsed by the Python side
    result["skip_threshold"] = engines.options.skip->text();
    result["skip_threshold_source"] = engines.skip_source;
    result["backend"] = std::string(out().backend_name());
    result["threads"] = out().threads();
    return result;
  }

  tools::ProgramEngines engines;
  algorithms::RunTrace trace;
};

py::dict bfs(const std::string& path, std::optional<uint64_t> source, const std::vector<std::string>& flags) {
  Run run("bfs", path, flags, Transpose::not_needed, algorithms::bfs_bytes_per_vertex);
  const uint64_t start = tools::pick_source(*run.engines.out_graph, source);
  algorithms::BfsResult r;
  py::dict result = run.run([&] { r = algorithms::bfs(run.out(), start, run.trace); });
  result["source"] = start;
  result["reached"] = r.reached;
  result["levels"] = r.levels;
  result["depth"] = to_numpy(std::move(r.depth));
  result["parent"] = to_numpy(std::move(r.parent));
  return result;
}

py::dict pagerank(const std::string& path, const std::string& method, const std::string& dangling, double damping,
                  double tolerance, unsigned max_iterations, double delta_threshold, const std::vector<std::string>& flags) {
  algorithms::PageRankOptions o;
  o.method = algorithms::PageRankOptions::parse_method(method);
  o.dangling = algorithms::PageRankOptions::parse_dangling(dangling);
  o.damping = damping;
  o.tolerance = tolerance;
  o.max_iterations = max_iterations;
  o.delta_threshold = delta_threshold;
  Run run("pagerank", path, flags, Transpose::not_needed, algorithms::pagerank_bytes_per_vertex);
  algorithms::PageRankResult r;
  py::dict result = run.run([&] { r = algorithms::pagerank(run.out(), o, run.trace); });
  result["iterations"] = r.iterations;
  result["last_change"] = r.last_change;
  result["rank"] = to_numpy(std::move(r.rank));
  return result;
}

void put_components(py::dict& result, algorithms::ComponentsResult& r) {
  result["components"] = r.components;
  result["largest"] = r.largest;
  result["rounds"] = r.rounds;
  result["label"] = to_numpy(std::move(r.label));
}

py::dict wcc(const std::string& path, const std::vector<std::string>& flags) {
  Run run("wcc", path, flags, Transpose::needed, algorithms::wcc_bytes_per_vertex);
  algorithms::ComponentsResult r;
  py::dict result = run.run([&] { r = algorithms::wcc(run.out(), run.in(), run.trace); });
  put_components(result, r);
  return result;
}

// x: one value per vertex, or none (ones: the programs' default).
py::dict spmv(const std::string& path, const std::optional<py::array_t<double, py::array::c_style | py::array::forcecast>>& x,
              bool transposed, const std::vector<std::string>& flags) {
  Run run("spmv", path, flags, transposed ? Transpose::not_needed : Transpose::needed, algorithms::spmv_bytes_per_vertex);
  const uint64_t n = run.engines.out_graph->vertices();
  std::vector<double> xs;
  if (!x) {
    xs.assign(n, 1.0);
  } else if (uint64_t(x->size()) != n) {
    throw py::value_error("x has " + std::to_string(x->size()) + " values; the graph has " + std::to_string(n) + " vertices");
  } else {
    xs.assign(x->data(), x->data() + n);
  }
  std::vector<double> y;
  py::dict result = run.run([&] { y = algorithms::spmv(transposed ? run.out() : run.engines.in_or_out(), xs, run.trace); });
  result["y"] = to_numpy(std::move(y));
  return result;
}

py::dict bc(const std::string& path, const std::vector<uint64_t>& requested, bool all_sources, const std::vector<std::string>& flags) {
  Run run("bc", path, flags, Transpose::needed, algorithms::bc_bytes_per_vertex);
  const engine::DiskGraph& graph = *run.engines.out_graph;
  std::vector<uint64_t> sources;
  if (all_sources) {
    for (uint64_t s = 0; s < graph.vertices(); ++s) sources.push_back(s);
  } else if (requested.empty()) {
    sources.push_back(tools::pick_source(graph, std::nullopt));
  } else {
    for (uint64_t s : requested) sources.push_back(tools::pick_source(graph, s));
  }
  algorithms::BcResult r;
  py::dict result = run.run([&] { r = algorithms::bc(run.out(), run.in(), sources, run.trace); });
  result["sources"] = r.sources;
  result["levels"] = r.levels;
  result["score"] = to_numpy(std::move(r.score));
  return result;
}

py::dict jtcc(GraphHandle& handle, uint64_t seed) {
  formats::BlockGraph& graph = handle.graph();
  base::require_memory(graph.info().vertices * algorithms::jtcc_bytes_per_vertex, "the union-find's parent and label arrays");
  algorithms::JtccResult r;
  const auto start = std::chrono::steady_clock::now();
  run_released([&] { r = algorithms::jtcc(graph, seed); });
  py::dict result;
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result["edges"] = r.edges;
  put_components(result, r);
  return result;
}

}  // namespace

void bind_runs(py::module_& m) {
  m.def("bfs", &bfs, py::arg("path"), py::arg("source"), py::arg("flags"));
  m.def("pagerank", &pagerank, py::arg("path"), py::arg("method"), py::arg("dangling"), py::arg("damping"), py::arg("tolerance"),
        py::arg("max_iterations"), py::arg("delta_threshold"), py::arg("flags"));
  m.def("wcc", &wcc, py::arg("path"), py::arg("flags"));
  m.def("spmv", &spmv, py::arg("path"), py::arg("x"), py::arg("transposed"), py::arg("flags"));
  m.def("bc", &bc, py::arg("path"), py::arg("sources"), py::arg("all_sources"), py::arg("flags"));
  m.def("jtcc", &jtcc, py::arg("graph"), py::arg("seed"));
}

}  // namespace sluice::python
