#include "formats/block_graph.hpp"

#include <system_error>

#include "base/thread_count.hpp"

#include <algorithm>
#include <cstring>

#include "base/errors.hpp"
#include "base/interruption.hpp"

namespace sluice::formats {

template <class V>
std::span<const V> EdgeBlock::targets_as() const {
  if (sizeof(V) != id_bytes) {
    throw std::logic_error("EdgeBlock::targets_as: the graph has " + std::to_string(id_bytes * 8) + "-bit ids");
  }
  return {static_cast<const V*>(targets), edges};
}
template std::span<const uint32_t> EdgeBlock::targets_as() const;
template std::span<const uint64_t> EdgeBlock::targets_as() const;

BlockGraph::BlockGraph(std::unique_ptr<GraphSource> source, const BlockOptions& options)
    : source_(std::move(source)), options_(options), info_(source_->info()) {
  if (options_.buffers == 0) throw std::invalid_argument("the block API needs at least one buffer");
  if (options_.block_edges == 0) throw std::invalid_argument("the block size must be at least one edge");
  options_.threads = options_.threads > 0 ? base::resolve_threads(options_.threads, "the block API's threads")
                                          : std::min(base::resolve_threads(0), int(options_.buffers));
  buffers_.resize(options_.buffers);
}

BlockGraph::~BlockGraph() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [id, request] : requests_) request.cancelled = true;
  }
  work_ready_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void BlockGraph::check_range(uint64_t begin, uint64_t end) const {
  if (begin > end || end > info_.vertices) {
    throw std::out_of_range("vertex range [" + std::to_string(begin) + ", " + std::to_string(end) +
                            ") is outside the graph's " + std::to_string(info_.vertices) + " vertices");
  }
}

void BlockGraph::read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const {
  check_range(begin, end);
  source_->read_offsets(begin, end, out);
}

std::vector<uint64_t> BlockGraph::offsets(uint64_t begin, uint64_t end) const {
  std::vector<uint64_t> out(end >= begin ? end - begin + 1 : 0);
  read_offsets(begin, end, out.data());
  return out;
}

void BlockGraph::read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const {
  check_range(begin, end);
  source_->read_edges(begin, end, targets, info_.weighted ? weights : nullptr);
}

int BlockGraph::take_buffer_locked() {
  for (size_t b = 0; b < buffers_.size(); ++b) {
    if (buffers_[b].free) {
      buffers_[b].free = false;
      return int(b);
    }
  }
  return -1;
}

EdgeBlock BlockGraph::fill(int buffer_id, uint64_t begin, uint64_t end) {
  Buffer& buffer = buffers_[buffer_id];  // owned by this thread until released
  buffer.offsets.resize(end - begin + 1);
  source_->read_offsets(begin, end, buffer.offsets.data());
  uint64_t edges = buffer.offsets.back() - buffer.offsets.front();
  buffer.targets.resize(edges * info_.id_bytes);
  if (info_.weighted) buffer.weights.resize(edges);
  source_->read_edges(begin, end, buffer.targets.data(), info_.weighted ? buffer.weights.data() : nullptr);
  EdgeBlock block;
  block.begin = begin;
  block.end = end;
  block.offsets = buffer.offsets.data();
  block.edges = edges;
  block.targets = buffer.targets.data();
  block.id_bytes = info_.id_bytes;
  block.weights = info_.weighted ? buffer.weights.data() : nullptr;
  block.buffer = buffer_id;
  return block;
}

EdgeBlock BlockGraph::read_block(uint64_t begin, uint64_t end) {
  check_range(begin, end);
  int buffer;
  {
    std::unique_lock lock(mutex_);
    work_ready_.wait(lock, [&] { return (buffer = take_buffer_locked()) >= 0; });
  }
  try {
    EdgeBlock block = fill(buffer, begin, end);
    block.last = true;
    return block;
  } catch (...) {
    std::lock_guard lock(mutex_);
    buffers_[buffer].free = true;
    work_ready_.notify_all();
    throw;
  }
}

void BlockGraph::release(const EdgeBlock& block) {
  if (block.buffer < 0) return;
  {
    std::lock_guard lock(mutex_);
    if (size_t(block.buffer) >= buffers_.size() || buffers_[block.buffer].free) {
      throw std::logic_error("release of a block whose buffer is not held");
    }
    buffers_[block.buffer].free = true;
  }
  work_ready_.notify_all();
}

uint64_t BlockGraph::block_end_locked(uint64_t begin, uint64_t end) const {
  // Grow the block vertex by vertex until it would exceed block_edges; the
  // offsets come from the in-memory index of every format, a window at a time.
  uint64_t window[257];
  uint64_t limit = options_.block_edges;
  uint64_t v = begin;
  uint64_t first = UINT64_MAX;
  while (v < end) {
    uint64_t stop = std::min(end, v + 256);
    source_->read_offsets(v, stop, window);
    if (first == UINT64_MAX) first = window[0];
    for (uint64_t i = 1; i <= stop - v; ++i) {
      if (window[i] - first > limit) return std::max(begin + 1, v + i - 1);
    }
    v = stop;
  }
  return end;
}

BlockGraph::RequestId BlockGraph::request(uint64_t begin, uint64_t end, Callback callback,
                                          std::function<void()> on_done) {
  check_range(begin, end);
  RequestId id;
  std::function<void()> done_now;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) throw std::logic_error("request on a closing graph");
    if (begin != end) start_threads_locked();  // before the request exists: a failure leaves none behind
    id = next_id_++;
    Request& request = requests_[id];
    request.next = begin;
    request.end = end;
    request.callback = std::move(callback);
    request.on_done = std::move(on_done);
    if (begin == end) {
      request.finished = true;
      done_now = std::move(request.on_done);
    } else {
      queue_.push_back(id);
    }
  }
  if (done_now) done_now();
  work_ready_.notify_all();
  return id;
}

void BlockGraph::start_threads_locked() {
  if (!threads_.empty()) return;
  threads_.reserve(size_t(options_.threads));
  try {
    for (int t = 0; t < options_.threads; ++t) threads_.emplace_back([this] { worker(); });
  } catch (const std::system_error& e) {
    // The threads that started wait for work, and the destructor joins them.
    base::throw_thread_start_failed("threads of the block API", int(threads_.size()), options_.threads, e);
  }
}

void BlockGraph::finish_if_done_locked(RequestId, Request& request, std::vector<std::function<void()>>& done) {
  bool nothing_left = request.cancelled || request.next >= request.end;
  if (!request.finished && nothing_left && request.in_flight == 0) {
    request.finished = true;
    if (request.on_done) done.push_back(std::move(request.on_done));
    request_done_.notify_all();
  }
}

void BlockGraph::worker() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // Drop finished or cancelled requests from the front of the queue.
    while (!queue_.empty()) {
      auto front = requests_.find(queue_.front());
      if (front != requests_.end() && !front->second.cancelled && front->second.next < front->second.end) break;
      queue_.pop_front();
    }
    if (stopping_ && queue_.empty()) return;
    int buffer = queue_.empty() ? -1 : take_buffer_locked();
    if (buffer < 0) {
      work_ready_.wait(lock);
      continue;
    }
    // Blocks get their buffers in request order, so an in-order consumer
    // holding later blocks can never starve the block it waits for.
    RequestId id = queue_.front();
    Request& request = requests_.at(id);
    uint64_t begin = request.next;
    uint64_t end;
    try {
      end = block_end_locked(begin, request.end);
    } catch (...) {
      request.error = std::current_exception();
      request.cancelled = true;
      buffers_[buffer].free = true;
      std::vector<std::function<void()>> done;
      finish_if_done_locked(id, request, done);
      lock.unlock();
      for (auto& f : done) f();
      lock.lock();
      continue;
    }
    request.next = end;
    uint64_t index = request.next_index++;
    bool last = end == request.end;
    ++request.in_flight;
    lock.unlock();

    bool handed_over = false;
    std::exception_ptr error;
    try {
      EdgeBlock block = fill(buffer, begin, end);
      block.request = id;
      block.index = index;
      block.last = last;
      handed_over = true;  // from here the callback owns the buffer
      request.callback(block);
    } catch (...) {
      error = std::current_exception();
    }

    lock.lock();
    if (!handed_over) buffers_[buffer].free = true;
    --request.in_flight;
    if (error) {
      if (!request.error) request.error = error;
      request.cancelled = true;
    }
    std::vector<std::function<void()>> done;
    finish_if_done_locked(id, request, done);
    if (!done.empty()) {
      lock.unlock();
      for (auto& f : done) f();
      lock.lock();
    }
    work_ready_.notify_all();
  }
}

void BlockGraph::wait(RequestId id) {
  std::unique_lock lock(mutex_);
  auto it = requests_.find(id);
  if (it == requests_.end()) throw std::invalid_argument("wait on an unknown request " + std::to_string(id));
  request_done_.wait(lock, [&] { return it->second.finished; });
  std::exception_ptr error = it->second.error;
  requests_.erase(it);
  if (error) std::rethrow_exception(error);
}

void BlockGraph::cancel(RequestId id) {
  std::vector<std::function<void()>> done;
  {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(id);
    if (it == requests_.end()) return;
    it->second.cancelled = true;
    finish_if_done_locked(id, it->second, done);
  }
  for (auto& f : done) f();
  work_ready_.notify_all();
}

void for_each_block_in_order(BlockGraph& graph, uint64_t begin, uint64_t end,
                             const std::function<void(const EdgeBlock&)>& consume) {
  std::mutex mutex;
  std::condition_variable ready;
  std::map<uint64_t, EdgeBlock> arrived;
  bool finished = false;
  auto id = graph.request(
      begin, end,
      [&](const EdgeBlock& block) {
        std::lock_guard lock(mutex);
        arrived.emplace(block.index, block);
        ready.notify_one();
      },
      [&] {
        std::lock_guard lock(mutex);
        finished = true;
        ready.notify_one();
      });

  uint64_t next = 0;
  std::exception_ptr error;
  for (;;) {
    EdgeBlock block;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return arrived.count(next) || (finished && !arrived.count(next)); });
      auto it = arrived.find(next);
      if (it == arrived.end()) break;  // finished: all delivered, or stopped by an error
      block = it->second;
      arrived.erase(it);
    }
    try {
      base::throw_if_interrupted();
      consume(block);
    } catch (...) {
      error = std::current_exception();
    }
    graph.release(block);
    ++next;
    if (error) {
      graph.cancel(id);
      break;
    }
  }
  // Return the buffers of blocks that arrived after a stop.
  {
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return finished; });
  }
  for (auto& [index, block] : arrived) graph.release(block);
  try {
    graph.wait(id);
  } catch (...) {
    if (!error) error = std::current_exception();
  }
  if (error) std::rethrow_exception(error);
}

void for_each_block_once(BlockGraph& graph, const std::function<void(const EdgeBlock&)>& consume) {
  if (graph.source().stream_once([&](const EdgeBlock& block) {
        base::throw_if_interrupted();
        consume(block);
      })) {
    return;
  }
  for_each_block_in_order(graph, 0, graph.info().vertices, consume);
}

}  // namespace sluice::formats
