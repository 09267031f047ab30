// A graph held in numpy arrays (a CSR: indptr, indices, weights), served
// through the block API without copying, so that sluice's writers turn a
// scipy matrix or a networkx graph into any format, a layout included.
#pragma once

#include "calls.hpp"

namespace sluice::python {

// Adds write_arrays(indptr, indices, weights, vertices, path, flags), with
// the flags --to, --drives, --transpose, --force, --threads.
void bind_array_writer(py::module_& m);

}  // namespace sluice::python
