/* The block API for C: open a graph of any format sluice reads, query it,
 * and read blocks of edges synchronously or asynchronously. Functions that
 * can fail return 0 / -1 / NULL and leave a message for sluice_last_error()
 * (per thread). The same code serves the C++ API in block_graph.hpp. */
#ifndef SLUICE_H
#define SLUICE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sluice_graph sluice_graph;

typedef struct sluice_open_options {
  const char* format;        /* NULL: detect */
  int threads;               /* loader and library threads; 0: default */
  uint64_t block_edges;      /* edges per asynchronous block */
  unsigned buffers;          /* library buffers */
  int symmetrize, drop_self_loops, remove_duplicates, sort_neighbors, transpose;
} sluice_open_options;

typedef struct sluice_block {
  uint64_t request, index;
  uint64_t begin, end;       /* vertices [begin, end) */
  const uint64_t* offsets;   /* end - begin + 1 global edge offsets */
  uint64_t edges;
  const void* targets;       /* edges ids of id_bytes each */
  unsigned id_bytes;
  const float* weights;      /* NULL when unweighted */
  int last;                  /* the final block of its request */
  int buffer;                /* library buffer; pass the block to sluice_release_block */
} sluice_block;

typedef void (*sluice_block_callback)(const sluice_block* block, void* user_data);

void sluice_default_open_options(sluice_open_options* options);
sluice_graph* sluice_open(const char* path, const sluice_open_options* options /* NULL: defaults */);
const char* sluice_last_error(void);

uint64_t sluice_vertices(const sluice_graph* graph);
uint64_t sluice_edges(const sluice_graph* graph);
int sluice_weighted(const sluice_graph* graph);
unsigned sluice_id_bytes(const sluice_graph* graph);

int sluice_read_offsets(sluice_graph* graph, uint64_t begin, uint64_t end, uint64_t* out);
int sluice_read_edges(sluice_graph* graph, uint64_t begin, uint64_t end, void* targets, float* weights);
int sluice_read_block(sluice_graph* graph, uint64_t begin, uint64_t end, sluice_block* out);
int sluice_release_block(sluice_graph* graph, const sluice_block* block);

/* Returns the request id, 0 on error. The callback runs on library threads. */
uint64_t sluice_request_edges(sluice_graph* graph, uint64_t begin, uint64_t end, sluice_block_callback callback,
                              void* user_data);
int sluice_wait(sluice_graph* graph, uint64_t request);
int sluice_cancel(sluice_graph* graph, uint64_t request);
/* Cancels outstanding requests and joins every library thread. */
void sluice_close(sluice_graph* graph);

#ifdef __cplusplus
}
#endif

#endif
