#include "runs.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <variant>
#include <nlohmann/json.hpp>

#include "algorithms/jtcc.hpp"
#include "algorithms/wcc.hpp"
#include "base/errors.hpp"
#include "graph.hpp"
#include "programs/algorithm_table.hpp"
#include "programs/input_ids.hpp"

namespace sluice::python {

namespace {

// Any row of the algorithm table, run as its program would run it: the same
// flags (the Python wrapper turns keywords into them), the same engines;
// the result's arrays as numpy arrays, its counts and parameters, and
// every EDGEMAP's statistics.
py::dict run(const std::string& name, const std::string& path, const std::vector<std::string>& flags,
             const std::map<std::string, py::array_t<double, py::array::c_style | py::array::forcecast>>& vectors) {
  const programs::Algorithm& algorithm = programs::find_algorithm(name);
  boost::program_options::options_description options(name);
  programs::add_algorithm_options(algorithm, options);
  const auto values = parse_flags("sluice." + name, options, flags);
  algorithm.check(values);
  std::map<std::string, std::vector<double>> given;
  for (const auto& [key, array] : vectors) {
    if (array.ndim() != 1) throw py::value_error(key + " must be a vector");
    given[key].assign(array.data(), array.data() + array.size());
  }
  programs::ProgramEngines engines;
  std::optional<programs::PreparedAlgorithm> read;  // the parameters, read before the edges are loaded
  run_released([&] {
    engines = programs::open_program_engines(name, path, values, algorithm.transpose(values), algorithm.arrays(values), nullptr,
                                             algorithm.reads, [&](const engine::DiskGraph& graph, const layout::DegreeArray*) {
                                               read = algorithm.prepare({values, graph, given, nullptr});
                                             });
  });
  const programs::PreparedAlgorithm& prepared = *read;
  algorithms::RunTrace trace(name);
  trace.keep_records(true);
  programs::AlgorithmResult r;
  run_released([&] {
    r = prepared.run({*engines.out, engines.in.get()}, trace);
    programs::widen_values(r);
  });
  // A relabelled layout's vertices are named by the input's ids, as the programs write them.
  const base::IdMap& ids = engines.out_graph->layout().ids();
  programs::name_by_input_ids(r, algorithm, ids);

  py::dict result;
  result["seconds"] = r.seconds;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  for (const algorithms::EdgeMapRecord& record : trace.records()) {
    nlohmann::ordered_json line = {{"phase", record.phase}, {"iteration", record.iteration}};
    algorithms::add_stats(line, record.stats);
    records.push_back(line);
  }
  result["edgemaps"] = records.dump();  // parsed by the Python side
  result["skip_threshold"] = engines.options.skip->text();
  result["skip_threshold_source"] = engines.skip_source;
  result["backend"] = std::string(engines.out->backend_name());
  result["threads"] = engines.out->threads();
  auto put = [&](const std::string& key, const auto& value) { result[py::str(key)] = value; };
  // (Named pairs, not structured bindings: clang 14 cannot capture those.)
  for (const auto& named : prepared.parameters) std::visit([&](const auto& v) { put(named.first, v); }, named.second);
  for (const auto& named : r.counts) std::visit([&](const auto& v) { put(named.first, v); }, named.second);
  for (auto& named : r.values) std::visit([&](auto& v) { result[py::str(named.first)] = to_numpy(std::move(v)); }, named.second);
  result["warnings"] = r.warnings;  // raised as RuntimeWarning by the wrapper
  if (!ids.empty()) result["ids"] = input_ids(ids, ids.originals().size());
  return result;
}

void put_components(py::dict& result, algorithms::ComponentsResult& r) {
  result["components"] = r.components;
  result["largest"] = r.largest;
  result["rounds"] = r.rounds;
  result["label"] = to_numpy(std::move(r.label));
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
  // A relabelled graph's components are named by the input's ids, as sluice jtcc writes them.
  const base::IdMap& ids = graph.source().ids();
  if (!ids.empty()) {
    programs::name_components_by_input_ids(std::span<uint64_t>(r.label), ids);
    result["ids"] = input_ids(ids, graph.info().vertices);
  }
  put_components(result, r);
  return result;
}

}  // namespace

void bind_runs(py::module_& m) {
  m.def("run", &run, py::arg("name"), py::arg("path"), py::arg("flags"), py::arg("vectors"));
  m.def("jtcc", &jtcc, py::arg("graph"), py::arg("seed"));
}

}  // namespace sluice::python
