// How the module calls into sluice: C++ errors become the package's Python
// exceptions with the CLI's messages, long work runs with the GIL released
// and stops cleanly on Ctrl-C, and results move into numpy without a copy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "base/array.hpp"
#include "base/id_map.hpp"

namespace sluice::python {

namespace py = pybind11;

// Creates sluice._core.Error (RuntimeError), UsageError (Error and
// ValueError: a bad option or value, exit 2 on the command line) and
// InputError (Error: bad input, naming file and line or byte), and the
// translator that maps C++ exceptions to them (MemoryError, KeyboardInterrupt
// for their kinds).
void register_errors(py::module_& m);

// Runs `work` on a thread of its own with the GIL released; the calling
// thread checks for signals every 50 ms and, on KeyboardInterrupt, asks the
// work to stop (base/interruption.hpp), waits for it and raises. Errors
// of the work are rethrown here.
void run_released(const std::function<void()>& work);

// Parses CLI-style flags (["--threads", "2", ...]) against `options` as the
// command `who` would, with its errors ("did you mean", negative values).
boost::program_options::variables_map parse_flags(const std::string& who, boost::program_options::options_description& options,
                                                  const std::vector<std::string>& flags);

// Runs a `sluice` command (convert, generate) in process with argv
// {name, args...}; returns what it printed on stdout (its summary line).
std::string run_command_in_process(const std::string& name, int (*command)(int, char**), const std::vector<std::string>& args);

// A vector's storage handed to numpy: the array owns it, nothing is copied.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), owner);
}

template <class T>
py::array_t<T> to_numpy(base::Array<T>&& values) {
  auto* owned = new base::Array<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<base::Array<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), owner);
}

// Each vertex's id in the input: the map of a relabelled graph, else 0 .. vertices - 1.
py::array_t<uint64_t> input_ids(const base::IdMap& ids, uint64_t vertices);

}  // namespace sluice::python
