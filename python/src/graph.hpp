// sluice._core.Graph: a graph of any format opened through the block API
// (formats/block_graph.hpp): counts, offsets, edges of vertex ranges as
// numpy arrays, and iteration over blocks. close() cancels what its block
// iterators have outstanding and joins the library's threads.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "calls.hpp"
#include "formats/block_graph.hpp"

namespace sluice::python {

class BlockIterator;

class GraphHandle {
 public:
  // `flags`: the read and rebuild options of `sluice convert` (--format,
  // --threads, --base, --symmetrize...).
  GraphHandle(const std::string& path, const std::vector<std::string>& flags);
  ~GraphHandle();

  formats::BlockGraph& graph();  // raises ValueError once closed
  const std::string& path() const { return path_; }
  bool closed() const { return !graph_; }
  void close();

  py::array_t<uint64_t> offsets(uint64_t begin, uint64_t end);
  // (targets, weights or None) of the edges of vertices [begin, end).
  py::tuple edges(uint64_t begin, uint64_t end);

  // Iterators register so that close() can stop them first.
  void attach(BlockIterator* iterator) { iterators_.insert(iterator); }
  void detach(BlockIterator* iterator) { iterators_.erase(iterator); }

 private:
  std::string path_;
  std::unique_ptr<formats::BlockGraph> graph_;
  std::set<BlockIterator*> iterators_;
};

// Adds Graph to the module.
void bind_graph(py::module_& m);

}  // namespace sluice::python
