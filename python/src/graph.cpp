#include "graph.hpp"

#include <stdexcept>

#include "block_iterator.hpp"
#include "programs/command_line.hpp"

namespace sluice::python {

GraphHandle::GraphHandle(const std::string& path, const std::vector<std::string>& flags) : path_(path) {
  boost::program_options::options_description options("sluice.open");
  programs::add_read_options(options);
  programs::add_rebuild_options(options);
  const formats::OpenOptions open_options = programs::open_options_from(parse_flags("sluice.open", options, flags));
  run_released([&] { graph_ = formats::BlockGraph::open(path, open_options); });
}

GraphHandle::~GraphHandle() { close(); }

formats::BlockGraph& GraphHandle::graph() {
  if (!graph_) throw py::value_error("the graph " + path_ + " is closed");
  return *graph_;
}

void GraphHandle::close() {
  // Each iterator detaches itself as it stops.
  while (!iterators_.empty()) (*iterators_.begin())->stop();
  graph_.reset();  // joins the library threads
}

py::array_t<uint64_t> GraphHandle::offsets(uint64_t begin, uint64_t end) {
  formats::BlockGraph& g = graph();
  if (begin > end || end > g.info().vertices) {
    throw py::index_error("vertices [" + std::to_string(begin) + ", " + std::to_string(end) + ") are not within the " +
                          std::to_string(g.info().vertices) + " vertices");
  }
  py::array_t<uint64_t> out(end - begin + 1);
  uint64_t* data = out.mutable_data();
  run_released([&] { g.read_offsets(begin, end, data); });
  return out;
}

py::tuple GraphHandle::edges(uint64_t begin, uint64_t end) {
  formats::BlockGraph& g = graph();
  py::array_t<uint64_t> bounds = offsets(begin, end);
  const uint64_t count = bounds.at(end - begin) - bounds.at(0);
  const base::GraphInfo& info = g.info();
  py::array targets = info.id_bytes == 4 ? py::array(py::array_t<uint32_t>(count)) : py::array(py::array_t<uint64_t>(count));
  py::object weights = py::none();
  float* weight_data = nullptr;
  if (info.weighted) {
    py::array_t<float> w(count);
    weight_data = w.mutable_data();
    weights = std::move(w);
  }
  void* target_data = targets.mutable_data();
  run_released([&] { g.read_edges(begin, end, target_data, weight_data); });
  return py::make_tuple(targets, weights);
}

void bind_graph(py::module_& m) {
  py::class_<GraphHandle>(m, "Graph", "A graph opened through the block API (use sluice.open).")
      .def(py::init<const std::string&, const std::vector<std::string>&>(), py::arg("path"), py::arg("flags"))
      .def_property_readonly("path", &GraphHandle::path)
      .def_property_readonly("closed", &GraphHandle::closed)
      .def_property_readonly("vertices", [](GraphHandle& h) { return h.graph().info().vertices; })
      .def_property_readonly("edges_count", [](GraphHandle& h) { return h.graph().info().edges; })
      .def_property_readonly("weighted", [](GraphHandle& h) { return h.graph().info().weighted; })
      .def_property_readonly("symmetric", [](GraphHandle& h) { return h.graph().info().symmetric; })
      .def_property_readonly("id_bytes", [](GraphHandle& h) { return h.graph().info().id_bytes; })
      .def_property_readonly("format", [](GraphHandle& h) { return h.graph().format(); })
      .def_property_readonly("relabelled", [](GraphHandle& h) { return !h.graph().source().ids().empty(); })
      .def_property_readonly("ids", [](GraphHandle& h) { return input_ids(h.graph().source().ids(), h.graph().info().vertices); })
      .def("offsets", &GraphHandle::offsets, py::arg("begin"), py::arg("end"))
      .def("edges", &GraphHandle::edges, py::arg("begin"), py::arg("end"))
      .def("blocks", [](py::object self, uint64_t begin, uint64_t end) { return std::make_unique<BlockIterator>(self, begin, end); },
           py::arg("begin"), py::arg("end"))
      .def("close", &GraphHandle::close);
}

}  // namespace sluice::python
