// Large allocations straight from the kernel, and back to it when freed.
//
// glibc serves a block of at least M_MMAP_THRESHOLD bytes by mmap and
// unmaps it on free, but by default raises the threshold to the size of
// each such block freed (up to 32 MiB). After the first array of a
// vertex's worth of bytes is freed, the next ones come from the heap,
// whose freed middle cannot go back to the kernel: each later array lands
// on a fresh top while the old pages stay held. Fixing the threshold keeps
// every large array a mapping of its own. Peak RSS, one compute thread,
// uniform 22 (4.2 M vertices, 16.8 M edges): one process PageRank 196
// against 213 MB, WCC 83 against 100; a rank of 4 BFS 108-110 against
// 130-132, PageRank 110-111 against 127-128, WCC 191-197 against 214-220.
// The price is that each large array is faulted in fresh rather than
// reusing freed pages: a BFS trial's arrays, about 2-5% of its kernel.
#pragma once

namespace sluice::base {

// Called once, at the start of a program, before any large allocation:
// fixes glibc's mmap threshold at 1 MiB, unless GLIBC_TUNABLES sets it
// already (the user's choice wins). Elsewhere than glibc, nothing.
void map_large_blocks_apart();

}  // namespace sluice::base
