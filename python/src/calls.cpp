#include "calls.hpp"

#include <chrono>
#include <exception>
#include <future>
#include <iostream>
#include <sstream>
#include <new>
#include <thread>

#include "base/errors.hpp"
#include "base/interruption.hpp"
#include "programs/command_line.hpp"

namespace sluice::python {

namespace {

// Owned by the module for the interpreter's lifetime (never decref'd at
// exit, when the interpreter may already be gone).
PyObject* error_type = nullptr;
PyObject* usage_error_type = nullptr;
PyObject* input_error_type = nullptr;

PyObject* new_exception_type(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  py::dict namespace_;
  namespace_["__doc__"] = doc;
  namespace_["__module__"] = "sluice";
  py::object type = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(name, bases, namespace_);
  m.attr(name) = type;
  return type.release().ptr();
}

}  // namespace

void register_errors(py::module_& m) {
  error_type = new_exception_type(m, "Error", py::make_tuple(py::handle(PyExc_RuntimeError)),
                                  "An error of sluice: the message is the one the command line prints.");
  usage_error_type = new_exception_type(m, "UsageError", py::make_tuple(py::handle(error_type), py::handle(PyExc_ValueError)),
                                        "A bad option or value (the command line exits 2 for these).");
  input_error_type = new_exception_type(m, "InputError", py::make_tuple(py::handle(error_type)),
                                        "Bad input: a file that is missing, malformed, truncated or inconsistent; "
                                        "the message names the file and the line or byte.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own (StopIteration, IndexError...): its translator's
    } catch (const py::error_already_set&) {
      throw;
    } catch (const boost::program_options::error& e) {
      PyErr_SetString(usage_error_type, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(usage_error_type, e.what());
    } catch (const base::InputError& e) {
      PyErr_SetString(input_error_type, e.what());
    } catch (const base::Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory");
    } catch (const std::exception& e) {
      PyErr_SetString(error_type, e.what());
    }
  });
}

void run_released(const std::function<void()>& work) {
  std::exception_ptr error;
  std::promise<void> finished;
  std::future<void> done = finished.get_future();
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      error = std::current_exception();
    }
    finished.set_value();
  });
  bool interrupted = false;
  {
    py::gil_scoped_release released;
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (interrupted) continue;
      py::gil_scoped_acquire held;
      if (PyErr_CheckSignals() != 0) {  // a Python exception (KeyboardInterrupt) is now set
        interrupted = true;
        base::request_interruption();
      }
    }
    worker.join();
  }
  if (interrupted) {
    base::clear_interruption();
    throw py::error_already_set();  // the KeyboardInterrupt, whatever the work ended with
  }
  if (error) std::rethrow_exception(error);
}

boost::program_options::variables_map parse_flags(const std::string& who, boost::program_options::options_description& options,
                                                  const std::vector<std::string>& flags) {
  std::vector<std::string> args{who};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  boost::program_options::variables_map values;
  programs::parse_command_line(int(args.size()), argv.data(), who.c_str(), options, {}, values);
  return values;
}

std::string run_command_in_process(const std::string& name, int (*command)(int, char**), const std::vector<std::string>& args) {
  std::ostringstream summary;
  run_released([&] {
    std::vector<std::string> all{name};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The command's summary line is returned, not printed: a library
    // called from Python does not write to the process's stdout.
    std::streambuf* stdout_buffer = std::cout.rdbuf(summary.rdbuf());
    int status;
    try {
      status = command(int(all.size()), argv.data());
    } catch (...) {
      std::cout.rdbuf(stdout_buffer);
      throw;
    }
    std::cout.rdbuf(stdout_buffer);
    if (status != programs::exit_ok) throw std::runtime_error(name + " stopped with status " + std::to_string(status));
  });
  std::string line = summary.str();
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

py::array_t<uint64_t> input_ids(const base::IdMap& ids, uint64_t vertices) {
  std::vector<uint64_t> values(ids.empty() ? vertices : ids.originals().size());
  for (uint64_t v = 0; v < values.size(); ++v) values[v] = ids.original(v);
  return to_numpy(std::move(values));
}

}  // namespace sluice::python
