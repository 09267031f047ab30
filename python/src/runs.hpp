// The algorithms over a sluice layout, as the programs run them (the same
// engine flags, the same engines), returning numpy arrays and the
// statistics of every EDGEMAP; jtcc over any Graph.
#pragma once

#include "calls.hpp"

namespace sluice::python {

void bind_runs(py::module_& m);

}  // namespace sluice::python
