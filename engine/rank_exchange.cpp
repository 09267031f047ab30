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

base::Array<uint32_t> sum_over_ranks_for_own_range(Communicator& communicator, const uint32_t* values, uint64_t vertices,
                                                   uint64_t begin, uint64_t end) {
  base::Array<uint32_t> sums = base::Array<uint32_t>::zeros(vertices, "the whole graph's out-degrees of the own range");
  if (communicator.size() <= 1) {
    std::copy(values, values + vertices, sums.data());
    return sums;
  }
  const size_t ranks = size_t(communicator.size());
  std::vector<uint64_t> bounds = communicator.all_gather_one(begin);
  bounds.push_back(vertices);
  if (bounds[size_t(communicator.rank()) + 1] != end) throw std::invalid_argument("the ranks' ranges do not follow each other");
  // In rounds of at most `chunk` vertices of each range, so that what
  // arrives at once is ranks x 4 MiB, not 4 bytes for every vertex id.
  constexpr uint64_t chunk = uint64_t(1) << 20;
  uint64_t widest = 0;
  for (size_t r = 0; r < ranks; ++r) widest = std::max(widest, bounds[r + 1] - bounds[r]);
  std::vector<uint64_t> send_counts(ranks), receive_counts(ranks);
  std::vector<char> send, received;
  for (uint64_t round = 0; round * chunk < widest; ++round) {
    auto piece = [&](size_t r, uint64_t& first) {  // rank r's vertices this round
      first = std::min(bounds[r + 1], bounds[r] + round * chunk);
      return std::min(bounds[r + 1], first + chunk) - first;
    };
    send.clear();
    uint64_t first = 0;
    for (size_t r = 0; r < ranks; ++r) {
      const uint64_t count = piece(r, first);
      send.insert(send.end(), reinterpret_cast<const char*>(values + first), reinterpret_cast<const char*>(values + first + count));
      send_counts[r] = count * sizeof(uint32_t);
    }
    const uint64_t mine = piece(size_t(communicator.rank()), first);
    std::fill(receive_counts.begin(), receive_counts.end(), mine * sizeof(uint32_t));
    received.resize(ranks * mine * sizeof(uint32_t));
    communicator.all_to_all(send, send_counts, received, receive_counts);
    for (size_t r = 0; r < ranks; ++r) {
      for (uint64_t i = 0; i < mine; ++i) {
        uint32_t value;
        std::memcpy(&value, received.data() + (r * mine + i) * sizeof(uint32_t), sizeof(uint32_t));
        sums[first + i] += value;
      }
    }
  }
  return sums;
}

RankExchange::RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end, const uint32_t* degrees)
    : communicator_(communicator), vertices_(vertices), degrees_(degrees) {
  if (!distributed()) {
    bounds_ = {0, vertices};
    return;
  }
  const std::vector<uint64_t> begins = communicator_.all_gather_one(begin);
  bounds_ = begins;
  bounds_.push_back(vertices);
  for (size_t r = 0; r + 1 < bounds_.size(); ++r) {
    if (bounds_[r] > bounds_[r + 1]) throw std::invalid_argument("the ranks' ranges are not in rank order");
  }
  if (owned_end() != end) throw std::invalid_argument("the ranks' ranges do not follow each other");
}

VertexSubset RankExchange::frontier(const VertexSubset& mine) {
  if (!distributed()) return mine;
  const CommunicationCounters before = communicator_.counters();
  VertexSubset all = gather_frontier(mine);
  communicator_.count_as_frontier(before);
  return all;
}

VertexSubset RankExchange::gather_frontier(const VertexSubset& mine) {
  const uint64_t members = communicator_.sum(mine.size());
  const bool narrow = vertices_ <= (uint64_t(1) << 32);
  const uint64_t id_bytes = narrow ? 4 : 8;
  if (members * id_bytes * 8 < vertices_) {
    return narrow ? gather_ids<uint32_t>(communicator_, mine, vertices_) : gather_ids<uint64_t>(communicator_, mine, vertices_);
  }
  // Each rank's members lie in its own range: the ranks gather each
  // other's slice of the bitmap (a rank receives under V/8 bytes, where an
  // all-reduce of the whole bitmap moves about twice that each way).
  const size_t ranks = size_t(communicator_.size()), me = size_t(communicator_.rank());
  std::vector<uint64_t> counts(ranks), at(ranks + 1, 0);  // bytes per slice; each slice's first word
  for (size_t r = 0; r < ranks; ++r) {
    counts[r] = (bounds_[r + 1] - bounds_[r] + 63) / 64 * sizeof(uint64_t);
    at[r + 1] = at[r] + counts[r] / sizeof(uint64_t);
  }
  std::vector<uint64_t> slices(at[ranks], 0);
  uint64_t* own = slices.data() + at[me];
  mine.for_each([&](uint64_t v) {
    if (!owns(v)) throw std::logic_error("a rank's frontier holds a vertex of another rank's range");
    const uint64_t i = v - owned_begin();
    own[i / 64] |= uint64_t(1) << (i % 64);
  });
  communicator_.all_gather_in_place(std::span<char>(reinterpret_cast<char*>(slices.data()), slices.size() * sizeof(uint64_t)), counts);
  // Slice r's bit i is vertex bounds_[r] + i: shifted into place.
  std::vector<uint64_t> words((vertices_ + 63) / 64, 0);
  for (size_t r = 0; r < ranks; ++r) {
    const uint64_t first = bounds_[r] / 64, shift = bounds_[r] % 64;
    for (uint64_t k = 0; k < at[r + 1] - at[r]; ++k) {
      const uint64_t x = slices[at[r] + k];
      if (!x) continue;
      words[first + k] |= x << shift;
      if (shift && first + k + 1 < words.size()) words[first + k + 1] |= x >> (64 - shift);
    }
  }
  IndexedBitmap bits(vertices_);
  for (uint64_t w = 0; w < words.size(); ++w) bits.set_word(w, words[w]);
  return VertexSubset::from_bitmap(std::move(bits), members);
}

namespace {

// Ids in ascending order, walked as an IndexedBitmap's members are.
struct IdList {
  std::vector<uint64_t> ids;
  template <class F>
  void for_each(F&& f) const {
    for (uint64_t v : ids) f(v);
  }
};

// A set of offsets in [0, size), sent as the fewer bytes of a bitmap of
// the range (whole words) or a list of offsets (4 bytes each where the
// range allows, else 8): both sides know size and count, so they agree.
bool sent_as_bitmap(uint64_t size, uint64_t count) {
  return (size + 63) / 64 * 8 <= count * (size <= (uint64_t(1) << 32) ? 4 : 8);
}
uint64_t encoded_bytes(uint64_t size, uint64_t count) {
  return sent_as_bitmap(size, count) ? (size + 63) / 64 * 8 : count * (size <= (uint64_t(1) << 32) ? 4 : 8);
}
void encode(const std::vector<uint64_t>& offsets, uint64_t size, std::vector<char>& out) {
  const size_t at = out.size();
  out.resize(at + encoded_bytes(size, offsets.size()), 0);
  char* to = out.data() + at;
  if (sent_as_bitmap(size, offsets.size())) {
    for (uint64_t o : offsets) to[o / 8] = char(to[o / 8] | (1 << (o % 8)));
  } else if (size <= (uint64_t(1) << 32)) {
    for (size_t i = 0; i < offsets.size(); ++i) {
      const uint32_t o = uint32_t(offsets[i]);
      std::memcpy(to + 4 * i, &o, 4);
    }
  } else {
    std::memcpy(to, offsets.data(), offsets.size() * 8);
  }
}
template <class F>
void decode(const char* from, uint64_t size, uint64_t count, F&& f) {
  if (sent_as_bitmap(size, count)) {
    for (uint64_t o = 0; o < size; ++o) {
      if ((from[o / 8] >> (o % 8)) & 1) f(o);
    }
  } else if (size <= (uint64_t(1) << 32)) {
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t o;
      std::memcpy(&o, from + 4 * i, 4);
      f(uint64_t(o));
    }
  } else {
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t o;
      std::memcpy(&o, from + 8 * i, 8);
      f(o);
    }
  }
}

}  // namespace

void RankExchange::find_mirrors() {
  if (mirrors_found_) return;
  const size_t ranks = size_t(communicator_.size()), me = size_t(communicator_.rank());
  reads_ = IndexedBitmap(vertices_);
  // The sources this part reads, as offsets into each owner's range
  // (ascending: ranges are in rank order).
  std::vector<uint64_t> counts(ranks, 0), send_bytes(ranks, 0);
  std::vector<char> send;
  std::vector<uint64_t> offsets;
  for (size_t r = 0; r < ranks; ++r) {
    offsets.clear();
    if (r != me) {
      for (uint64_t u = bounds_[r]; u < bounds_[r + 1]; ++u) {
        if (degrees_[u] == 0) continue;
        reads_.set(u);
        offsets.push_back(u - bounds_[r]);
      }
    }
    counts[r] = offsets.size();
    const size_t before = send.size();
    if (!offsets.empty()) encode(offsets, bounds_[r + 1] - bounds_[r], send);
    send_bytes[r] = send.size() - before;
  }
  // Each owner learns who reads which of its vertices: an all-to-all of
  // the counts, then of the sets.
  std::vector<uint64_t> incoming(ranks, 0), receive_bytes(ranks, 0);
  std::vector<uint64_t> eights(ranks, sizeof(uint64_t));
  communicator_.all_to_all(std::span<const char>(reinterpret_cast<const char*>(counts.data()), ranks * sizeof(uint64_t)), eights,
                           std::span<char>(reinterpret_cast<char*>(incoming.data()), ranks * sizeof(uint64_t)), eights);
  const uint64_t range = owned_end() - owned_begin();
  uint64_t total = 0;
  for (size_t r = 0; r < ranks; ++r) {
    receive_bytes[r] = incoming[r] ? encoded_bytes(range, incoming[r]) : 0;
    total += receive_bytes[r];
  }
  std::vector<char> asked(total);
  communicator_.all_to_all(send, send_bytes, asked, receive_bytes);
  read_by_.assign(ranks, IndexedBitmap(0));
  const char* at = asked.data();
  for (size_t r = 0; r < ranks; ++r) {
    read_by_[r] = IndexedBitmap(r == me ? 0 : range);
    if (!incoming[r]) continue;
    decode(at, range, incoming[r], [&](uint64_t o) {
      if (o >= range) throw std::logic_error("a rank asked for a vertex this rank does not own");
      read_by_[r].set(o);
    });
    at += receive_bytes[r];
  }
  mirrors_found_ = true;
}

std::vector<char> RankExchange::send_mirror_values(const void* values, size_t bytes) {
  find_mirrors();
  const size_t ranks = size_t(communicator_.size());
  const char* data = static_cast<const char*>(values);
  std::vector<char> send;
  std::vector<uint64_t> send_counts(ranks, 0), receive_counts(ranks, 0);
  size_t owner = 0;
  reads_.for_each([&](uint64_t u) {
    while (u >= bounds_[owner + 1]) ++owner;
    send.insert(send.end(), data + u * bytes, data + (u + 1) * bytes);
    send_counts[owner] += bytes;
  });
  uint64_t total = 0;
  for (size_t r = 0; r < ranks; ++r) {
    receive_counts[r] = read_by_[r].count() * bytes;
    total += receive_counts[r];
  }
  std::vector<char> received(total);
  communicator_.all_to_all(send, send_counts, received, receive_counts);
  return received;
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
      bits->for_each_in(first, last, [&](uint64_t v) { own_members.push_back(v); });
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
  // which is the order its owners send them in. All of them are the
  // mirrors' bitmap, kept here; those among the members are kept as ids
  // where that takes fewer bytes than a bitmap of their own.
  size_t owner = 0;
  uint64_t arriving = 0;
  auto count = [&](uint64_t v) {
    while (v >= bounds_[owner + 1]) ++owner;
    receive_counts[owner] += bytes;
    ++arriving;
  };
  if (!members) {
    reads_.for_each(count);
    communicator_.start_all_to_all(std::move(send), std::move(send_counts), std::move(receive_counts),
                                   [this, data, bytes](const std::vector<char>& received) {
                                     const char* from = received.data();
                                     reads_.for_each([&](uint64_t v) {
                                       std::memcpy(data + v * bytes, from, bytes);
                                       from += bytes;
                                     });
                                   });
    return;
  }
  auto read_member = [&](auto&& f) {
    members->for_each([&](uint64_t v) {
      if (!owns(v) && reads_.test(v)) f(v);
    });
  };
  read_member(count);
  auto land = [data, bytes](auto ids) {
    return [data, bytes, ids = std::move(ids)](const std::vector<char>& received) {
      const char* from = received.data();
      ids.for_each([&](uint64_t v) {
        std::memcpy(data + v * bytes, from, bytes);
        from += bytes;
      });
    };
  };
  if (arriving * sizeof(uint64_t) < vertices_ / 8) {
    IdList ids;
    ids.ids.reserve(arriving);
    read_member([&](uint64_t v) { ids.ids.push_back(v); });
    communicator_.start_all_to_all(std::move(send), std::move(send_counts), std::move(receive_counts), land(std::move(ids)));
  } else {
    IndexedBitmap bits(vertices_);
    read_member([&](uint64_t v) { bits.set(v); });
    communicator_.start_all_to_all(std::move(send), std::move(send_counts), std::move(receive_counts), land(std::move(bits)));
  }
}

}  // namespace sluice::engine
