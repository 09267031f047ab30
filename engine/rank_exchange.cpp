#include "engine/rank_exchange.hpp"

#include <stdexcept>

namespace sluice::engine {

namespace {

template <class Id>
VertexSubset gather_ids(Communicator& communicator, const VertexSubset& mine, uint64_t vertices) {
  std::vector<Id> ids;
  ids.reserve(mine.size());
  mine.for_each([&](uint64_t v) { ids.push_back(Id(v)); });
  const std::vector<Id> all = communicator.all_gather(std::span<const Id>(ids));
  return VertexSubset::from_sorted_ids(vertices, std::vector<uint64_t>(all.begin(), all.end()));
}

}  // namespace

RankExchange::RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end)
    : communicator_(communicator), vertices_(vertices) {
  const std::vector<uint64_t> begins = communicator_.all_gather(std::span<const uint64_t>(&begin, 1));
  bounds_ = begins;
  bounds_.push_back(vertices);
  for (size_t r = 0; r + 1 < bounds_.size(); ++r) {
    if (bounds_[r] > bounds_[r + 1]) throw std::invalid_argument("the ranks' ranges are not in rank order");
  }
  if (owned_end() != end) throw std::invalid_argument("the ranks' ranges do not follow each other");
}

VertexSubset RankExchange::frontier(const VertexSubset& mine) {
  if (!distributed()) return mine;
  const uint64_t members = communicator_.sum(mine.size());
  const bool narrow = vertices_ <= (uint64_t(1) << 32);
  const uint64_t id_bytes = narrow ? 4 : 8;
  if (members * id_bytes * 8 < vertices_) {
    return narrow ? gather_ids<uint32_t>(communicator_, mine, vertices_) : gather_ids<uint64_t>(communicator_, mine, vertices_);
  }
  std::vector<uint64_t> words((vertices_ + 63) / 64, 0);
  mine.for_each([&](uint64_t v) { words[v / 64] |= uint64_t(1) << (v % 64); });
  communicator_.bitwise_or(words);
  IndexedBitmap bits(vertices_);
  for (uint64_t w = 0; w < words.size(); ++w) bits.set_word(w, words[w]);
  return VertexSubset::from_bitmap(std::move(bits), members);
}

}  // namespace sluice::engine
