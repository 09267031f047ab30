// Iteration over the blocks of a vertex range in vertex order, through the
// block API's asynchronous requests: the library threads read and decode
// blocks in parallel into its buffers; each step waits (GIL released) for
// the next block in order, copies it into numpy arrays the caller owns and
// returns the buffer at once, so a kept block never holds the library up.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>

#include "calls.hpp"
#include "formats/block_graph.hpp"

namespace sluice::python {

class GraphHandle;

class BlockIterator {
 public:
  // `graph`: the Python Graph object (kept alive by the iterator).
  BlockIterator(py::object graph, uint64_t begin, uint64_t end);
  ~BlockIterator();
  BlockIterator(const BlockIterator&) = delete;
  BlockIterator& operator=(const BlockIterator&) = delete;

  // A dict: begin, end, offsets (uint64, end - begin + 1 global offsets),
  // targets (uint32 or uint64), weights (float32 or None).
  py::dict next();
  // Cancels the request, returns every buffer and detaches from the graph.
  void stop();

 private:
  py::object owner_;
  GraphHandle* handle_;
  formats::BlockGraph* graph_;
  formats::BlockGraph::RequestId request_ = 0;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::map<uint64_t, formats::EdgeBlock> arrived_;  // by index in the request
  uint64_t next_ = 0;
  bool finished_ = false, stopped_ = false;
};

void bind_block_iterator(py::module_& m);

}  // namespace sluice::python
