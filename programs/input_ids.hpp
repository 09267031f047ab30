// Results named by the input's ids: on a relabelled or reordered layout
// (convert --relabel, --reorder degree) the kernels and verifiers work in
// the layout's dense ids, and what users read (outputs, --stats, Python)
// is translated here, after the run and its verification.
#pragma once

#include <cstdint>
#include <span>

#include "base/id_map.hpp"
#include "engine/rank_exchange.hpp"
#include "programs/algorithm_table.hpp"

namespace sluice::programs {

// A result's vertex-valued arrays and counts (Algorithm::vertex_valued),
// and its component labels (Algorithm::component_labels). With `ranks`,
// the arrays' values over each rank's own range (the rest is not valid
// there), the components' smallest ids agreed by the ranks.
void name_by_input_ids(AlgorithmResult& result, const Algorithm& algorithm, const base::IdMap& ids, engine::RankExchange* ranks = nullptr);
// The counts alone, copied (for each trial's summary).
NamedScalars counts_by_input_ids(NamedScalars counts, const Algorithm& algorithm, const base::IdMap& ids);

// Component labels (each a vertex of its component) turned into the
// smallest input id of each component.
template <class T>
void name_components_by_input_ids(std::span<T> labels, const base::IdMap& ids);
// The same over each rank's own range: each label's owner learns the
// smallest id of its component from every rank's piece of it, then
// answers each rank for the labels it holds.
template <class T>
void name_components_by_input_ids(std::span<T> labels, const base::IdMap& ids, engine::RankExchange& ranks);

}  // namespace sluice::programs
