// The C interface: opaque handles over BlockGraph, exceptions turned into
// return codes and a per-thread error message.
#include <string>

#include "formats/block_graph.hpp"
#include "formats/sluice.h"

struct sluice_graph {
  std::unique_ptr<sluice::formats::BlockGraph> graph;
};

namespace {

thread_local std::string last_error;

template <class F>
int guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return -1;
}

sluice_block to_c(const sluice::formats::EdgeBlock& b) {
  return {b.request, b.index, b.begin, b.end, b.offsets, b.edges, b.targets, b.id_bytes, b.weights, b.last ? 1 : 0, b.buffer};
}

sluice::formats::EdgeBlock from_c(const sluice_block& b) {
  sluice::formats::EdgeBlock block;
  block.request = b.request;
  block.index = b.index;
  block.begin = b.begin;
  block.end = b.end;
  block.offsets = b.offsets;
  block.edges = b.edges;
  block.targets = b.targets;
  block.id_bytes = b.id_bytes;
  block.weights = b.weights;
  block.last = b.last != 0;
  block.buffer = b.buffer;
  return block;
}

}  // namespace

extern "C" {

void sluice_default_open_options(sluice_open_options* o) {
  sluice::formats::BlockOptions defaults;
  *o = sluice_open_options{nullptr, 0, defaults.block_edges, defaults.buffers, 0, 0, 0, 0, 0};
}

sluice_graph* sluice_open(const char* path, const sluice_open_options* options) {
  sluice_open_options o;
  if (options) {
    o = *options;
  } else {
    sluice_default_open_options(&o);
  }
  sluice_graph* handle = nullptr;
  guarded([&] {
    sluice::formats::OpenOptions open;
    if (o.format) open.format = o.format;
    open.load.threads = o.threads;
    open.blocks.threads = o.threads;
    if (o.block_edges) open.blocks.block_edges = o.block_edges;
    if (o.buffers) open.blocks.buffers = o.buffers;
    open.build.symmetrize = o.symmetrize;
    open.build.drop_self_loops = o.drop_self_loops;
    open.build.remove_duplicates = o.remove_duplicates;
    open.build.sort_neighbors = o.sort_neighbors;
    open.build.transpose = o.transpose;
    handle = new sluice_graph{sluice::formats::BlockGraph::open(path, open)};
  });
  return handle;
}

const char* sluice_last_error(void) { return last_error.c_str(); }
uint64_t sluice_vertices(const sluice_graph* g) { return g->graph->info().vertices; }
uint64_t sluice_edges(const sluice_graph* g) { return g->graph->info().edges; }
int sluice_weighted(const sluice_graph* g) { return g->graph->info().weighted ? 1 : 0; }
unsigned sluice_id_bytes(const sluice_graph* g) { return g->graph->info().id_bytes; }

int sluice_read_offsets(sluice_graph* g, uint64_t begin, uint64_t end, uint64_t* out) {
  return guarded([&] { g->graph->read_offsets(begin, end, out); });
}

int sluice_read_edges(sluice_graph* g, uint64_t begin, uint64_t end, void* targets, float* weights) {
  return guarded([&] { g->graph->read_edges(begin, end, targets, weights); });
}

int sluice_read_block(sluice_graph* g, uint64_t begin, uint64_t end, sluice_block* out) {
  return guarded([&] { *out = to_c(g->graph->read_block(begin, end)); });
}

int sluice_release_block(sluice_graph* g, const sluice_block* block) {
  return guarded([&] { g->graph->release(from_c(*block)); });
}

uint64_t sluice_request_edges(sluice_graph* g, uint64_t begin, uint64_t end, sluice_block_callback callback,
                              void* user_data) {
  uint64_t id = 0;
  guarded([&] {
    id = g->graph->request(begin, end, [callback, user_data](const sluice::formats::EdgeBlock& block) {
      sluice_block c = to_c(block);
      callback(&c, user_data);
    });
  });
  return id;
}

int sluice_wait(sluice_graph* g, uint64_t request) { return guarded([&] { g->graph->wait(request); }); }
int sluice_cancel(sluice_graph* g, uint64_t request) { return guarded([&] { g->graph->cancel(request); }); }
void sluice_close(sluice_graph* g) { delete g; }

}  // extern "C"
