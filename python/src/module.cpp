// sluice._core: the native half of the Python package. The Python half
// (python/sluice) turns keyword arguments into the programs' flags, so the
// options, their checks and their messages are the command line's.
#include "array_source.hpp"
#include "block_iterator.hpp"
#include "calls.hpp"
#include "graph.hpp"
#include "runs.hpp"
#include "programs/graph_commands.hpp"

namespace py = pybind11;
using namespace sluice::python;

PYBIND11_MODULE(_core, m) {
  m.doc() = "sluice's native module; use the package sluice.";
  m.attr("version") = SLUICE_VERSION;
  register_errors(m);
  bind_graph(m);
  bind_block_iterator(m);
  bind_array_writer(m);
  bind_runs(m);
  m.def("convert", [](const std::vector<std::string>& args) { return run_command_in_process("sluice convert", [](int argc, char** argv) { return sluice::programs::convert_command(argc, argv); }, args); },
        py::arg("args"));
  m.def("generate", [](const std::vector<std::string>& args) { return run_command_in_process("sluice generate", sluice::programs::generate_command, args); },
        py::arg("args"));
}
