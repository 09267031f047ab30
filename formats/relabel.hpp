// --relabel: keep only the ids that appear in an edge, numbered densely
// from 0 in the input's order, so that a graph whose ids have gaps (SNAP's
// web-Google, hashed user ids) costs vertex state for its vertices only.
#pragma once

#include "base/id_map.hpp"
#include "formats/csr.hpp"

namespace sluice::formats {

// Renumbers `edges` in place (ids ascending with the input's) and sets its
// vertex count; returns the map back to the input's ids. `edges.vertices`
// is not read: the ids may be any 64-bit values.
template <class V>
base::IdMap compact_ids(EdgeList<V>& edges, int threads);

// --reorder degree: renumbers `edges` in place by descending degree (in
// plus out; ties keep the id order), so that the vertices most edges name
// share cache lines; returns the map back to the ids it had.
template <class V>
base::IdMap order_by_degree(EdgeList<V>& edges, int threads);

// The same edges with 32-bit ids (every id must fit): what 64-bit input
// ids come down to once relabelled, when there are at most 2^32 of them.
EdgeList<uint32_t> narrowed(EdgeList<uint64_t>&& edges, int threads);

// The map of a graph relabelled twice: vertex v is `inner`'s vertex
// outer.original(v), which is the input's inner.original(outer.original(v)).
base::IdMap compose(const base::IdMap& inner, base::IdMap outer);

}  // namespace sluice::formats
