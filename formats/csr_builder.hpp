// Edge list -> CSR by partitioned degree counting (after GVEL), made cache
// friendly: each thread counts the records of its own slice of edges per
// bucket of 2^k consecutive vertices and scatters them to the bucket's
// region (a stable radix pass, no atomics); then each bucket counts its
// vertices' degrees in cache and places its records. The neighbour order is
// the input order whatever the thread count, so results never depend on it.
#pragma once

#include "formats/csr.hpp"

namespace sluice::formats {

template <class V>
Csr<V> build_csr(const EdgeList<V>& edges, const BuildOptions& options);

// Sorts every neighbour list by target, stably (weights follow, equal
// targets keep their order) and, if asked, drops repeated targets keeping
// the first. Every target is below
// `id_bound` (the graph's vertex count; a range of it may be given).
template <class V>
void sort_and_deduplicate(Csr<V>& csr, uint64_t id_bound, bool remove_duplicates, int threads);

}  // namespace sluice::formats
