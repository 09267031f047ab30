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

template <class T>
void name_components_by_input_ids(std::span<T> labels, const base::IdMap& ids, engine::RankExchange& ranks) {
  if (ids.empty()) return;
  if (!ranks.distributed()) return name_components_by_input_ids(labels, ids);
  engine::Communicator& communicator = ranks.communicator();
  const uint64_t first = ranks.owned_begin(), last = ranks.owned_end();
  struct Smallest {
    uint64_t label, id;
  };
  auto by_label_then_id = [](const Smallest& a, const Smallest& b) { return a.label < b.label || (a.label == b.label && a.id < b.id); };
  // This rank's smallest input id per label, to the label's owner (each
  // rank's piece ascending by label).
  std::vector<Smallest> mine;
  mine.reserve(last - first);
  for (uint64_t v = first; v < last; ++v) mine.push_back({uint64_t(labels[v]), ids.original(v)});
  std::sort(mine.begin(), mine.end(), by_label_then_id);
  std::vector<std::vector<Smallest>> pieces(size_t(communicator.size()));
  for (size_t i = 0; i < mine.size(); ++i) {
    if (i == 0 || mine[i].label != mine[i - 1].label) pieces[ranks.owner(mine[i].label)].push_back(mine[i]);
  }
  mine = {};
  std::vector<uint64_t> from;
  const std::vector<Smallest> told = communicator.exchange_pieces(pieces, &from);
  // The owner's answer: each of its labels' smallest id over every rank.
  std::vector<Smallest> smallest(told);
  std::sort(smallest.begin(), smallest.end(), by_label_then_id);
  smallest.erase(std::unique(smallest.begin(), smallest.end(), [](const Smallest& a, const Smallest& b) { return a.label == b.label; }), smallest.end());
  auto lookup = [](const std::vector<Smallest>& table, uint64_t label) {
    return std::lower_bound(table.begin(), table.end(), label, [](const Smallest& s, uint64_t l) { return s.label < l; })->id;
  };
  std::vector<std::vector<uint64_t>> answers(from.size());
  size_t at = 0;
  for (size_t r = 0; r < from.size(); ++r) {
    for (uint64_t k = 0; k < from[r]; ++k) answers[r].push_back(lookup(smallest, told[at++].label));
  }
  const std::vector<uint64_t> answered = communicator.exchange_pieces(answers);
  // The answers come in the order this rank asked: by owner, each ascending.
  std::vector<Smallest> named;
  for (const std::vector<Smallest>& piece : pieces) {
    for (const Smallest& asked : piece) named.push_back({asked.label, answered[named.size()]});
  }
  for (uint64_t v = first; v < last; ++v) labels[v] = T(lookup(named, uint64_t(labels[v])));
}
template void name_components_by_input_ids(std::span<uint64_t>, const base::IdMap&, engine::RankExchange&);
template void name_components_by_input_ids(std::span<int64_t>, const base::IdMap&, engine::RankExchange&);

NamedScalars counts_by_input_ids(NamedScalars counts, const Algorithm& algorithm, const base::IdMap& ids) {
  for (auto& [name, value] : counts) {
    if (!ids.empty() && listed(algorithm.vertex_valued, name)) value = ids.original(std::get<uint64_t>(value));
  }
  return counts;
}

void name_by_input_ids(AlgorithmResult& result, const Algorithm& algorithm, const base::IdMap& ids, engine::RankExchange* ranks) {
  if (ids.empty()) return;
  for (auto& [name, values] : result.values) {
    const bool vertices = listed(algorithm.vertex_valued, name), components = listed(algorithm.component_labels, name);
    std::visit([&](auto& array) {
      using T = typename std::decay_t<decltype(array)>::value_type;
      if constexpr (std::is_integral_v<T>) {
        const std::span<T> all(array.data(), array.size());
        if (components) ranks ? name_components_by_input_ids(all, ids, *ranks) : name_components_by_input_ids(all, ids);
        if (!vertices) return;
        const uint64_t last = ranks ? std::min<uint64_t>(ranks->owned_end(), all.size()) : all.size();
        const uint64_t first = ranks ? std::min(ranks->owned_begin(), last) : 0;
        for (T& value : all.subspan(first, last - first)) {
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
