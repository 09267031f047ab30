#include "programs/input_ids.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace sluice::programs {

namespace {
bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

template <class T>
void name_components_by_input_ids(std::span<T> labels, const base::IdMap& ids) {
  if (ids.empty()) return;
  // The smallest input id per label, then every label replaced by it.
  std::vector<uint64_t> smallest(labels.size(), UINT64_MAX);
  for (uint64_t v = 0; v < labels.size(); ++v) {
    uint64_t& low = smallest[uint64_t(labels[v])];
    low = std::min(low, ids.original(v));
  }
  for (T& label : labels) label = T(smallest[uint64_t(label)]);
}
template void name_components_by_input_ids(std::span<uint64_t>, const base::IdMap&);
template void name_components_by_input_ids(std::span<int64_t>, const base::IdMap&);

NamedScalars counts_by_input_ids(NamedScalars counts, const Algorithm& algorithm, const base::IdMap& ids) {
  for (auto& [name, value] : counts) {
    if (!ids.empty() && listed(algorithm.vertex_valued, name)) value = ids.original(std::get<uint64_t>(value));
  }
  return counts;
}

void name_by_input_ids(AlgorithmResult& result, const Algorithm& algorithm, const base::IdMap& ids) {
  if (ids.empty()) return;
  for (auto& [name, values] : result.values) {
    const bool vertices = listed(algorithm.vertex_valued, name), components = listed(algorithm.component_labels, name);
    std::visit([&](auto& array) {
      using T = typename std::decay_t<decltype(array)>::value_type;
      if constexpr (std::is_integral_v<T>) {
        if (components) name_components_by_input_ids(std::span<T>(array), ids);
        if (!vertices) return;
        for (T& value : array) {
          if constexpr (std::is_signed_v<T>) {
            if (value < 0) continue;  // -1: none
          }
          value = T(ids.original(uint64_t(value)));
        }
      }
    }, values);
  }
  result.counts = counts_by_input_ids(std::move(result.counts), algorithm, ids);
}

}  // namespace sluice::programs
