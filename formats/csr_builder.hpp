// Edge list -> CSR by partitioned degree counting (as GVEL does): each
// thread counts the degrees of its own slice of edges, a scan over
// (vertex, slice) gives every slice its own write cursor per vertex, and
// each thread scatters its slice with no atomics. The neighbour order is the
// input order whatever the thread count, so results never depend on it.
#pragma once

#include "formats/csr.hpp"

namespace sluice {

template <class V>
Csr<V> build_csr(const EdgeList<V>& edges, const BuildOptions& options);

// Sorts every neighbour list by target (weights follow) and, if asked,
// drops repeated targets keeping the first.
template <class V>
void sort_and_deduplicate(Csr<V>& csr, bool remove_duplicates, int threads);

}  // namespace sluice
