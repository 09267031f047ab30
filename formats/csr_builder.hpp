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

// Sorts every neighbour list by target (weights follow) and, if asked,
// drops repeated targets keeping the first. Every target is below
// `id_bound` (the graph's vertex count; a range of it may be given).
template <class V>
void sort_and_deduplicate(Csr<V>& csr, uint64_t id_bound, bool remove_duplicates, int threads);

// Sorts every list that is not sorted already by target, stably: equal
// targets keep their order, and so their weights (a list gathered from
// several sorted runs, as a rank's transpose part from each sender's).
template <class V>
void sort_lists_stably(Csr<V>& csr, int threads);

}  // namespace sluice::formats
