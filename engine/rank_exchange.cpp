#include "engine/rank_exchange.hpp"

#include <algorithm>
#include <memory>
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

layout::DegreeArray sum_over_ranks_for_own_range(Communicator& communicator, const layout::DegreeArray& values, uint64_t vertices,
                                                 uint64_t begin, uint64_t end) {
  if (begin > end || end > vertices) throw std::invalid_argument("the own range is not within the vertices");
  const char* what = "the whole graph's out-degrees of the own range";
  base::Array<uint32_t> sums = base::Array<uint32_t>::zeros(end - begin, what);
  if (communicator.size() <= 1) {
    for (uint64_t v = begin; v < end; ++v) sums[v - begin] = values[v];
    return layout::DegreeArray({sums.data(), sums.size()}, what);
  }
  const size_t ranks = size_t(communicator.size());
  std::vector<uint64_t> bounds = communicator.all_gather_one(begin);
  bounds.push_back(vertices);
  if (bounds[size_t(communicator.rank()) + 1] != end) throw std::invalid_argument("the ranks' ranges do not follow each other");
  // In rounds of at most `chunk` vertices of each range, so that what is
  // sent, and what arrives, at once is 1 MiB whatever the number of ranks,
  // not 4 bytes for every vertex id (a round is one all-to-all).
  const uint64_t chunk = std::max<uint64_t>((uint64_t(1) << 18) / ranks, 1024);
  uint64_t widest = 0;
  for (size_t r = 0; r < ranks; ++r) widest = std::max(widest, bounds[r + 1] - bounds[r]);
  std::vector<uint64_t> send_counts(ranks), receive_counts(ranks);
  std::vector<char> send, received;
  // A round sends at most a chunk from each range: room for that once, where
  // growing by insertion peaked at 1.5x, each step on fresh pages.
  send.reserve(ranks * std::min(chunk, widest) * sizeof(uint32_t));
  for (uint64_t round = 0; round * chunk < widest; ++round) {
    auto piece = [&](size_t r, uint64_t& first) {  // rank r's vertices this round
      first = std::min(bounds[r + 1], bounds[r] + round * chunk);
      return std::min(bounds[r + 1], first + chunk) - first;
    };
    send.clear();
    uint64_t first = 0;
    for (size_t r = 0; r < ranks; ++r) {
      const uint64_t count = piece(r, first);
      for (uint64_t v = first; v < first + count; ++v) {
        const uint32_t value = values[v];
        send.insert(send.end(), reinterpret_cast<const char*>(&value), reinterpret_cast<const char*>(&value + 1));
      }
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
        sums[first - begin + i] += value;
      }
    }
  }
  return layout::DegreeArray({sums.data(), sums.size()}, what);
}

RankExchange::RankExchange(Communicator& communicator, uint64_t vertices, uint64_t begin, uint64_t end, const layout::DegreeArray& degrees,
                           uint64_t round_bytes)
    : communicator_(communicator), vertices_(vertices), degrees_(degrees), round_bytes_(round_bytes) {
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
  read_counts_ = std::move(incoming);
  mirror_counts_ = std::move(counts);
  largest_pair_ = std::max(*std::max_element(read_counts_.begin(), read_counts_.end()),
                           *std::max_element(mirror_counts_.begin(), mirror_counts_.end()));
  communicator_.max(std::span<uint64_t>(&largest_pair_, 1));
  mirrors_found_ = true;
}

namespace {

// The ids one exchange sends to, or lands from, one other rank: ascending,
// handed out a round at a time. Either the set bits of a bitmap's span
// (plus an offset), or a span of an id list, optionally only the ids
// whose bit (less an offset) another bitmap has.
class IdWalk {
 public:
  static IdWalk of_bits(const IndexedBitmap& bits, uint64_t begin, uint64_t end, uint64_t offset) {
    IdWalk w;
    w.bits_ = &bits;
    w.at_ = begin;
    w.end_ = end;
    w.offset_ = offset;
    return w;
  }
  static IdWalk of_list(const std::vector<uint64_t>& ids, uint64_t begin, uint64_t end, const IndexedBitmap* keep = nullptr,
                        uint64_t keep_offset = 0) {
    IdWalk w;
    w.ids_ = &ids;
    w.keep_ = keep;
    w.at_ = begin;
    w.end_ = end;
    w.offset_ = keep_offset;
    return w;
  }
  // How many ids are left (a walk of what is left: for a count once).
  uint64_t left() const {
    if (bits_) return IdWalk(*this).take(UINT64_MAX, [](uint64_t) {});
    if (!keep_) return end_ - at_;
    uint64_t n = 0;
    for (uint64_t i = at_; i < end_; ++i) n += keep_->test((*ids_)[i] - offset_);
    return n;
  }
  // Calls f(id) for the next `most` ids (fewer where fewer are left);
  // returns how many.
  template <class F>
  uint64_t take(uint64_t most, F&& f) {
    uint64_t n = 0;
    if (bits_) {
      at_ = bits_->for_each_some(at_, end_, most, [&](uint64_t i) {
        f(i + offset_);
        ++n;
      });
      return n;
    }
    for (; at_ < end_ && n < most; ++at_) {
      const uint64_t v = (*ids_)[at_];
      if (keep_ && !keep_->test(v - offset_)) continue;
      f(v);
      ++n;
    }
    return n;
  }

 private:
  const IndexedBitmap* bits_ = nullptr;
  const std::vector<uint64_t>* ids_ = nullptr;
  const IndexedBitmap* keep_ = nullptr;
  uint64_t at_ = 0, end_ = 0, offset_ = 0;
};

// What one exchange walks: per rank, the ids whose values go to it (`out`)
// and those whose values come from it (`in`), with how many are left of
// each; and what the walks point into, kept alive with them.
struct ExchangeWalks {
  std::vector<IdWalk> out, in;
  std::vector<uint64_t> out_left, in_left;
  std::vector<uint64_t> own_members, arriving_ids;
  IndexedBitmap arriving_bits;
};

// The rounds of one exchange of `bytes`-byte values at `values`, at most
// `per_round` values from each rank to each other a round.
Communicator::Rounds exchange_rounds(std::shared_ptr<ExchangeWalks> walks, char* values, size_t bytes, uint64_t per_round,
                                     uint64_t count, uint64_t round_bound) {
  Communicator::Rounds rounds;
  rounds.count = count;
  rounds.round_bytes = round_bound;
  rounds.fill = [walks, values, bytes, per_round](std::vector<char>& send, std::vector<uint64_t>& send_counts,
                                                  std::vector<uint64_t>& receive_counts) {
    ExchangeWalks& w = *walks;
    uint64_t total = 0;
    for (size_t r = 0; r < w.out.size(); ++r) {
      send_counts[r] = std::min(per_round, w.out_left[r]) * bytes;
      receive_counts[r] = std::min(per_round, w.in_left[r]) * bytes;
      total += send_counts[r];
    }
    send.resize(total);
    char* to = send.data();
    for (size_t r = 0; r < w.out.size(); ++r) {
      w.out_left[r] -= w.out[r].take(send_counts[r] / bytes, [&](uint64_t v) {
        std::memcpy(to, values + v * bytes, bytes);
        to += bytes;
      });
    }
  };
  rounds.land = [walks, values, bytes, per_round](const std::vector<char>& received) {
    ExchangeWalks& w = *walks;
    const char* from = received.data();
    for (size_t r = 0; r < w.in.size(); ++r) {
      w.in_left[r] -= w.in[r].take(std::min(per_round, w.in_left[r]), [&](uint64_t v) {
        std::memcpy(values + v * bytes, from, bytes);
        from += bytes;
      });
    }
  };
  return rounds;
}

}  // namespace

uint64_t RankExchange::values_per_round(uint64_t bytes, int ranks, uint64_t round_bytes) {
  const uint64_t others = std::max<uint64_t>(1, uint64_t(ranks) - 1);
  return std::max<uint64_t>(1, round_bytes / (std::max<uint64_t>(1, bytes) * others));
}

uint64_t RankExchange::round_bound(uint64_t bytes, int ranks, uint64_t round_bytes) {
  return values_per_round(bytes, ranks, round_bytes) * bytes * std::max<uint64_t>(1, uint64_t(ranks) - 1);
}

void RankExchange::exchange(void* values, size_t bytes, const VertexSubset* members) {
  find_mirrors();
  const size_t ranks = size_t(communicator_.size()), me = size_t(communicator_.rank());
  const uint64_t first = owned_begin(), last = owned_end();
  auto walks = std::make_shared<ExchangeWalks>();
  ExchangeWalks& w = *walks;
  w.out.resize(ranks);
  w.in.resize(ranks);
  w.out_left.assign(ranks, 0);
  w.in_left.assign(ranks, 0);
  const uint64_t per_round = values_per_round(bytes, communicator_.size(), round_bytes_);
  const uint64_t bound = round_bound(bytes, communicator_.size(), round_bytes_);
  if (!members) {
    // Every rank reads the same sources each time: the counts are known.
    for (size_t r = 0; r < ranks; ++r) {
      if (r == me) continue;
      w.out[r] = IdWalk::of_bits(read_by_[r], 0, last - first, first);
      w.out_left[r] = read_counts_[r];
      w.in[r] = IdWalk::of_bits(reads_, bounds_[r], bounds_[r + 1], 0);
      w.in_left[r] = mirror_counts_[r];
    }
    communicator_.start_rounds(exchange_rounds(walks, static_cast<char*>(values), bytes, per_round,
                                               (largest_pair_ + per_round - 1) / per_round, bound));
    return;
  }
  // This rank sends, to each reader, its own members the reader reads; it
  // receives the members it reads, ascending (the order their owners send
  // them in), kept as ids where that takes fewer bytes than a bitmap.
  if (const IndexedBitmap* bits = members->bitmap()) {
    bits->for_each_in(first, last, [&](uint64_t v) { w.own_members.push_back(v); });
  } else {
    const std::vector<uint64_t>& ids = members->ids();
    for (auto it = std::lower_bound(ids.begin(), ids.end(), first); it != ids.end() && *it < last; ++it) w.own_members.push_back(*it);
  }
  uint64_t arriving = 0;
  auto read_member = [&](auto&& f) {
    members->for_each([&](uint64_t v) {
      if (!owns(v) && reads_.test(v)) f(v);
    });
  };
  read_member([&](uint64_t) { ++arriving; });
  const bool as_ids = arriving * sizeof(uint64_t) < vertices_ / 8;
  if (as_ids) {
    w.arriving_ids.reserve(arriving);
    read_member([&](uint64_t v) { w.arriving_ids.push_back(v); });
  } else {
    w.arriving_bits = IndexedBitmap(vertices_);
    read_member([&](uint64_t v) { w.arriving_bits.set(v); });
  }
  uint64_t largest = 0;
  for (size_t r = 0; r < ranks; ++r) {
    if (r == me) continue;
    w.out[r] = IdWalk::of_list(w.own_members, 0, w.own_members.size(), &read_by_[r], first);
    w.out_left[r] = w.out[r].left();
    if (as_ids) {
      const auto begin = std::lower_bound(w.arriving_ids.begin(), w.arriving_ids.end(), bounds_[r]);
      const auto end = std::lower_bound(begin, w.arriving_ids.end(), bounds_[r + 1]);
      w.in[r] = IdWalk::of_list(w.arriving_ids, uint64_t(begin - w.arriving_ids.begin()), uint64_t(end - w.arriving_ids.begin()));
    } else {
      w.in[r] = IdWalk::of_bits(w.arriving_bits, bounds_[r], bounds_[r + 1], 0);
    }
    w.in_left[r] = w.in[r].left();
    largest = std::max({largest, w.out_left[r], w.in_left[r]});
  }
  // One round, unless a whole exchange of every source could need more:
  // then the ranks agree on how many this one needs.
  if (largest_pair_ > per_round) communicator_.max(std::span<uint64_t>(&largest, 1));
  const uint64_t count = largest_pair_ > per_round ? (largest + per_round - 1) / per_round : 1;
  communicator_.start_rounds(exchange_rounds(walks, static_cast<char*>(values), bytes, per_round, count, bound));
}

}  // namespace sluice::engine
