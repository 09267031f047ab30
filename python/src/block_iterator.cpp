#include "block_iterator.hpp"

#include <cstring>

#include "graph.hpp"

namespace sluice::python {

BlockIterator::BlockIterator(py::object graph, uint64_t begin, uint64_t end) : owner_(std::move(graph)) {
  handle_ = owner_.cast<GraphHandle*>();
  graph_ = &handle_->graph();
  const uint64_t n = graph_->info().vertices;
  if (begin > end || end > n) {
    throw py::index_error("vertices [" + std::to_string(begin) + ", " + std::to_string(end) + ") are not within the " +
                          std::to_string(n) + " vertices");
  }
  handle_->attach(this);
  if (begin == end) {
    finished_ = true;
    return;
  }
  request_ = graph_->request(
      begin, end,
      [this](const formats::EdgeBlock& block) {
        std::lock_guard lock(mutex_);
        arrived_.emplace(block.index, block);
        ready_.notify_all();
      },
      [this] {
        std::lock_guard lock(mutex_);
        finished_ = true;
        ready_.notify_all();
      });
}

BlockIterator::~BlockIterator() { stop(); }

py::dict BlockIterator::next() {
  if (stopped_) throw py::stop_iteration();
  formats::EdgeBlock block;
  bool found = false;
  run_released([&] {
    std::unique_lock lock(mutex_);
    // Wait in slices, so that run_released's Ctrl-C check gets its turn.
    while (!arrived_.count(next_) && !finished_) ready_.wait_for(lock, std::chrono::milliseconds(50));
    auto it = arrived_.find(next_);
    if (it == arrived_.end()) return;
    block = it->second;
    arrived_.erase(it);
    found = true;
  });
  if (!found) {
    // Finished: every block was handed out, or an error stopped the request.
    const formats::BlockGraph::RequestId request = request_;
    request_ = 0;
    stop();
    if (request) graph_->wait(request);  // rethrows the request's error, if any
    throw py::stop_iteration();
  }
  ++next_;
  const uint64_t vertices = block.end - block.begin;
  py::array_t<uint64_t> offsets(vertices + 1);
  std::memcpy(offsets.mutable_data(), block.offsets, (vertices + 1) * sizeof(uint64_t));
  py::array targets = block.id_bytes == 4 ? py::array(py::array_t<uint32_t>(block.edges)) : py::array(py::array_t<uint64_t>(block.edges));
  if (block.edges) std::memcpy(targets.mutable_data(), block.targets, block.edges * block.id_bytes);
  py::object weights = py::none();
  if (block.weights) {
    py::array_t<float> w(block.edges);
    if (block.edges) std::memcpy(w.mutable_data(), block.weights, block.edges * sizeof(float));
    weights = std::move(w);
  }
  graph_->release(block);
  py::dict out;
  out["begin"] = block.begin;
  out["end"] = block.end;
  out["offsets"] = offsets;
  out["targets"] = targets;
  out["weights"] = weights;
  return out;
}

void BlockIterator::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (request_) {
    graph_->cancel(request_);
    {
      py::gil_scoped_release released;
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return finished_; });
    }
    try {
      graph_->wait(request_);
    } catch (...) {
      // Stopped early: an error of the rest of the request is not the caller's.
    }
    request_ = 0;
  }
  for (auto& [index, block] : arrived_) graph_->release(block);
  arrived_.clear();
  handle_->detach(this);
}

void bind_block_iterator(py::module_& m) {
  py::class_<BlockIterator>(m, "BlockIterator", "Blocks of a vertex range, in vertex order (Graph.blocks).")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &BlockIterator::next)
      .def("close", &BlockIterator::stop);
}

}  // namespace sluice::python
