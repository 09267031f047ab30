// The block API (after ParaGrapher): open a graph of any format, ask for its
// counts and offsets, and read the edges of blocks of vertices
// synchronously into caller memory or into library buffers, or
// asynchronously with a callback run on library threads as each block is
// ready. A block handed out in a library buffer stays valid until
// release(); a request stalls while every buffer is held.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/mapped_file.hpp"
#include "base/output_guard.hpp"
#include "formats/graph_source.hpp"
#include "formats/loaders.hpp"

namespace sluice::formats {

struct BlockOptions {
  uint64_t block_edges = uint64_t(1) << 20;  // edges per block (a block holds at least one vertex)
  unsigned buffers = 4;                      // library buffers shared by all requests
  int threads = 0;                           // library threads; 0: min(cores, buffers)
};

struct OpenOptions {
  std::string format;  // "" to detect from the extension or the magic
  LoadOptions load;
  BuildOptions build;  // applied when the format loads into memory
  BlockOptions blocks;
  bool drop_weights = false;  // serve a weighted graph as unweighted
  bool save_offsets = false;  // WebGraph: write BASENAME.offsets when it was missing
  std::vector<std::string> adjacency_dirs;  // Blaze: the drive directories of the adjacency files
};

struct EdgeBlock {
  uint64_t request = 0;
  uint64_t index = 0;             // position of the block in its request
  bool last = false;              // the request's final block
  uint64_t begin = 0, end = 0;    // vertices [begin, end)
  const uint64_t* offsets = nullptr;  // end - begin + 1 global edge offsets
  uint64_t edges = 0;
  const void* targets = nullptr;  // `edges` ids of id_bytes each
  unsigned id_bytes = 4;
  const float* weights = nullptr;  // null when unweighted
  int buffer = -1;                 // library buffer, -1 for none

  uint64_t first_edge() const { return offsets[0]; }
  uint64_t target(uint64_t i) const {
    return id_bytes == 4 ? static_cast<const uint32_t*>(targets)[i] : static_cast<const uint64_t*>(targets)[i];
  }
  template <class V>
  std::span<const V> targets_as() const;
};

class BlockGraph {
 public:
  using RequestId = uint64_t;
  using Callback = std::function<void(const EdgeBlock&)>;

  static std::unique_ptr<BlockGraph> open(const std::string& path, const OpenOptions& options = {});
  BlockGraph(std::unique_ptr<GraphSource> source, const BlockOptions& options);
  ~BlockGraph();  // cancels what is outstanding and joins every library thread
  BlockGraph(const BlockGraph&) = delete;
  BlockGraph& operator=(const BlockGraph&) = delete;

  const base::GraphInfo& info() const { return info_; }
  std::string format() const { return source_->format_name(); }
  const GraphSource& source() const { return *source_; }
  const BlockOptions& options() const { return options_; }

  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const;
  std::vector<uint64_t> offsets(uint64_t begin, uint64_t end) const;
  // Calls f(v, offset, degree) for every vertex in order, reading the
  // offsets a window at a time.
  template <class F>
  void for_each_vertex(F&& f) const {
    std::vector<uint64_t> window(65537);
    for (uint64_t v = 0; v < info_.vertices; v += 65536) {
      uint64_t end = std::min<uint64_t>(info_.vertices, v + 65536);
      read_offsets(v, end, window.data());
      for (uint64_t u = v; u < end; ++u) f(u, window[u - v], window[u - v + 1] - window[u - v]);
    }
  }
  // Synchronous read into caller memory, sized from offsets().
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const;
  // Synchronous read into a library buffer; release() it when done.
  EdgeBlock read_block(uint64_t begin, uint64_t end);
  void release(const EdgeBlock& block);

  // Asynchronous: splits [begin, end) into blocks of at most block_edges
  // edges and calls `callback` for each on a library thread, in any order.
  // `on_done` (optional) runs once when the request has finished.
  RequestId request(uint64_t begin, uint64_t end, Callback callback, std::function<void()> on_done = {});
  // Blocks until every callback of the request has returned; rethrows the
  // first error of the request (from reading or from a callback).
  void wait(RequestId id);
  // No further blocks of the request are started; returns at once.
  void cancel(RequestId id);

 private:
  struct Buffer {
    std::vector<uint64_t> offsets;
    std::vector<char> targets;
    std::vector<float> weights;
    bool free = true;
  };
  struct Request {
    uint64_t next = 0, end = 0;  // next vertex to hand out
    uint64_t next_index = 0;
    uint64_t in_flight = 0;
    bool cancelled = false;
    bool finished = false;
    Callback callback;
    std::function<void()> on_done;
    std::exception_ptr error;
  };

  void check_range(uint64_t begin, uint64_t end) const;
  void worker();
  int take_buffer_locked();
  uint64_t block_end_locked(uint64_t begin, uint64_t end) const;
  EdgeBlock fill(int buffer, uint64_t begin, uint64_t end);
  void finish_if_done_locked(RequestId id, Request& request, std::vector<std::function<void()>>& done);
  void start_threads_locked();

  std::unique_ptr<GraphSource> source_;
  BlockOptions options_;
  base::GraphInfo info_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;      // a block can be started
  std::condition_variable request_done_;    // a request finished
  std::vector<Buffer> buffers_;
  std::map<RequestId, Request> requests_;
  std::deque<RequestId> queue_;  // requests with blocks left to start
  RequestId next_id_ = 1;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Reads every block of [begin, end) through the asynchronous API (so
// formats decode in parallel) but hands them to `consume` in vertex order,
// on the calling thread.
void for_each_block_in_order(BlockGraph& graph, uint64_t begin, uint64_t end,
                             const std::function<void(const EdgeBlock&)>& consume);
// Every block of the graph, in vertex order, for a writer that passes over
// it once: straight from a source that streams its lists as it makes them
// (GraphSource::stream_once: a bounded build then writes no CSR of its
// own), otherwise as above.
void for_each_block_once(BlockGraph& graph, const std::function<void(const EdgeBlock&)>& consume);

// The transpose of `graph` (edges reversed), built through the block API:
// in memory, or within memory.limit bytes on scratch files when an
// in-memory build would not fit (formats/external_csr.hpp). A graph built
// with its transpose's records alongside gives that transpose instead
// (GraphSource::built_transpose).
std::unique_ptr<BlockGraph> transpose_of(BlockGraph& graph, int threads, const BuildMemory& memory = {});

// Every file that opening `path` with `options` would read (a layout's
// manifest, index and drive files; a BV graph's three files; the file
// itself), for refusing outputs that would replace any of them. Nothing
// for standard input.
std::vector<base::NamedFile> graph_files(const std::string& path, const OpenOptions& options);

// The format a path names: "el", "wel", "mtx", "adj", "bel", "bel64",
// "sluice", "blaze", "bv"; throws InputError when it cannot tell.
std::string detect_format(const std::string& path);
// The format the first bytes of a file show; throws when they show none.
std::string format_from_content(const base::MappedFile& file);

}  // namespace sluice::formats
