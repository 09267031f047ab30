#include "engine/rank_exchange.hpp"

#include <algorithm>
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

RankExchange::RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end, const uint32_t* degrees)
    : communicator_(communicator), vertices_(vertices), degrees_(degrees) {
  if (!distributed()) {
    bounds_ = {0, vertices};
    return;
  }
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

void RankExchange::find_mirrors() {
  if (mirrors_found_) return;
  const size_t ranks = size_t(communicator_.size()), me = size_t(communicator_.rank());
  reads_ = IndexedBitmap(vertices_);
  // The sources this part reads, grouped by owner (ascending: ranges are in rank order).
  std::vector<uint64_t> wanted;
  std::vector<uint64_t> counts(ranks, 0);
  for (size_t r = 0; r < ranks; ++r) {
    if (r == me) continue;
    for (uint64_t u = bounds_[r]; u < bounds_[r + 1]; ++u) {
      if (degrees_[u] == 0) continue;
      reads_.set(u);
      wanted.push_back(u);
      counts[r] += sizeof(uint64_t);
    }
  }
  // Each owner learns who reads which of its vertices: an all-to-all whose
  // receive counts come from an all-to-all of the counts.
  std::vector<uint64_t> incoming(ranks, 0);
  std::vector<uint64_t> eights(ranks, sizeof(uint64_t));
  communicator_.all_to_all(std::span<const char>(reinterpret_cast<const char*>(counts.data()), ranks * sizeof(uint64_t)), eights,
                           std::span<char>(reinterpret_cast<char*>(incoming.data()), ranks * sizeof(uint64_t)), eights);
  uint64_t total = 0;
  for (uint64_t c : incoming) total += c;
  std::vector<uint64_t> asked(total / sizeof(uint64_t));
  communicator_.all_to_all(std::span<const char>(reinterpret_cast<const char*>(wanted.data()), wanted.size() * sizeof(uint64_t)), counts,
                           std::span<char>(reinterpret_cast<char*>(asked.data()), total), incoming);
  read_by_.assign(ranks, IndexedBitmap(0));
  size_t at = 0;
  for (size_t r = 0; r < ranks; ++r) {
    read_by_[r] = IndexedBitmap(r == me ? 0 : owned_end() - owned_begin());
    for (uint64_t i = 0; i < incoming[r] / sizeof(uint64_t); ++i) {
      const uint64_t v = asked[at++];
      if (!owns(v)) throw std::logic_error("a rank asked for a vertex this rank does not own");
      read_by_[r].set(v - owned_begin());
    }
  }
  mirrors_found_ = true;
}

void RankExchange::exchange(void* values, size_t bytes, const VertexSubset* members) {
  find_mirrors();
  const size_t ranks = size_t(communicator_.size()), me = size_t(communicator_.rank());
  char* data = static_cast<char*>(values);
  const uint64_t first = owned_begin(), last = owned_end();
  // What this rank sends: for each reader, its own vertices the reader
  // reads (or those among the members), ascending.
  std::vector<char> send;
  std::vector<uint64_t> send_counts(ranks, 0), receive_counts(ranks, 0);
  std::vector<uint64_t> own_members;
  if (members) {
    if (const IndexedBitmap* bits = members->bitmap()) {
      bits->for_each_in(first - first % IndexedBitmap::block_bits, last, [&](uint64_t v) {
        if (v >= first) own_members.push_back(v);
      });
    } else {
      const std::vector<uint64_t>& ids = members->ids();
      for (auto it = std::lower_bound(ids.begin(), ids.end(), first); it != ids.end() && *it < last; ++it) own_members.push_back(*it);
    }
  }
  for (size_t r = 0; r < ranks; ++r) {
    if (r == me) continue;
    const size_t before = send.size();
    auto put = [&](uint64_t v) {
      if (!read_by_[r].test(v - first)) return;
      send.insert(send.end(), data + v * bytes, data + (v + 1) * bytes);
    };
    if (members) {
      for (uint64_t v : own_members) put(v);
    } else {
      read_by_[r].for_each([&](uint64_t i) { send.insert(send.end(), data + (first + i) * bytes, data + (first + i + 1) * bytes); });
    }
    send_counts[r] = send.size() - before;
  }
  // What it receives: the sources it reads (among the members), ascending,
  // which is the order its owners send them in.
  std::vector<uint64_t> arriving;
  if (members) {
    members->for_each([&](uint64_t v) {
      if (!owns(v) && reads_.test(v)) arriving.push_back(v);
    });
  } else {
    reads_.for_each([&](uint64_t v) { arriving.push_back(v); });
  }
  size_t owner = 0;
  for (uint64_t v : arriving) {
    while (v >= bounds_[owner + 1]) ++owner;
    receive_counts[owner] += bytes;
  }
  communicator_.start_all_to_all(std::move(send), std::move(send_counts), std::move(receive_counts),
                                 [data, bytes, arriving = std::move(arriving)](const std::vector<char>& received) {
                                   for (size_t i = 0; i < arriving.size(); ++i) {
                                     std::memcpy(data + arriving[i] * bytes, received.data() + i * bytes, bytes);
                                   }
                                 });
}

}  // namespace sluice::engine
