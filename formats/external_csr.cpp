#include "formats/external_csr.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "base/errors.hpp"
#include "base/progress.hpp"
#include "base/serial_worker.hpp"
#include "base/temp_file.hpp"
#include "base/thread_count.hpp"
#include "base/varint.hpp"
#include "formats/block_graph.hpp"
#include "formats/csr_builder.hpp"
#include "formats/list_sort.hpp"
#include "formats/relabel.hpp"
#include "layout/compressed_pages.hpp"

namespace sluice::formats {

namespace {

// The records build_csr makes of an edge (owner, other end).
struct Emission {
  bool forward, backward, drop_loops;
  explicit Emission(const BuildOptions& b)
      : forward(!b.transpose || b.symmetrize), backward(b.transpose || b.symmetrize), drop_loops(b.drop_self_loops) {}
  template <class F>
  void operator()(uint64_t u, uint64_t v, F&& emit) const {
    if (u == v) {
      if (!drop_loops) emit(u, v);
      return;
    }
    if (forward) emit(u, v);
    if (backward) emit(v, u);
  }
};

// New ids for old, from a pass over the edges: --relabel's dense ids
// (ascending with the input's, as relabel.hpp numbers them), then
// --reorder degree's. Both O(V) in memory.
class Renaming {
 public:
  bool active() const { return relabelled_ || ordered_; }
  uint64_t operator()(uint64_t id) const {
    if (relabelled_) id = dense(id);
    if (ordered_) id = renamed_[id];
    return id;
  }

  // The ids that appear, as a bitmap when the largest is within a few
  // times the budget's reach, else as a sorted list.
  base::IdMap relabel(const EdgePasses& edges, uint64_t memory) {
    uint64_t largest = 0, any = 0;
    edges.pass([&](const EdgeChunk& c) {
      for (uint64_t e = 0; e < c.size; ++e) largest = std::max({largest, c.sources[e], c.targets[e]});
      any += c.size;
    });
    relabelled_ = true;
    if (any == 0) return {};
    if (largest / 4 <= memory) {
      const uint64_t words = largest / 64 + 1;
      seen_ = base::Array<uint64_t>::zeros(words, "the ids seen");
      edges.pass([&](const EdgeChunk& c) {
        for (uint64_t e = 0; e < c.size; ++e) {
          for (uint64_t id : {c.sources[e], c.targets[e]}) seen_[id / 64] |= uint64_t(1) << (id % 64);
        }
      });
      before_ = base::Array<uint64_t>(words + 1, "the ids seen before each word");
      before_[0] = 0;
      for (uint64_t w = 0; w < words; ++w) before_[w + 1] = before_[w] + uint64_t(std::popcount(seen_[w]));
      base::Array<uint64_t> originals(before_[words], "the id map");
      uint64_t at = 0;
      for (uint64_t w = 0; w < words; ++w) {
        for (uint64_t bits = seen_[w]; bits; bits &= bits - 1) originals[at++] = w * 64 + uint64_t(std::countr_zero(bits));
      }
      vertices_ = originals.size();
      return base::IdMap(std::move(originals));
    }
    std::vector<uint64_t> ids, chunk;
    edges.pass([&](const EdgeChunk& c) {
      chunk.assign(c.sources, c.sources + c.size);
      chunk.insert(chunk.end(), c.targets, c.targets + c.size);
      std::sort(chunk.begin(), chunk.end());
      chunk.erase(std::unique(chunk.begin(), chunk.end()), chunk.end());
      std::vector<uint64_t> merged;
      merged.reserve(ids.size() + chunk.size());
      std::set_union(ids.begin(), ids.end(), chunk.begin(), chunk.end(), std::back_inserter(merged));
      ids.swap(merged);
    });
    sorted_ = base::Array<uint64_t>(ids.size(), "the ids seen");
    std::copy(ids.begin(), ids.end(), sorted_.data());
    base::Array<uint64_t> originals(ids.size(), "the id map");
    std::copy(ids.begin(), ids.end(), originals.data());
    vertices_ = ids.size();
    return base::IdMap(std::move(originals));
  }

  // By descending degree (in plus out), ties in id order.
  base::IdMap order_by_degree(const EdgePasses& edges, uint64_t vertices) {
    base::Array<uint64_t> degree = base::Array<uint64_t>::zeros(vertices, "degrees to order by");
    edges.pass([&](const EdgeChunk& c) {
      for (uint64_t e = 0; e < c.size; ++e) {
        ++degree[(*this)(c.sources[e])];
        ++degree[(*this)(c.targets[e])];
      }
    });
    base::Array<uint64_t> originals(vertices, "the id map");
    for (uint64_t v = 0; v < vertices; ++v) originals[v] = v;
    std::stable_sort(originals.begin(), originals.end(), [&](uint64_t a, uint64_t b) { return degree[a] > degree[b]; });
    for (uint64_t v = 0; v < vertices; ++v) degree[originals[v]] = v;
    renamed_ = std::move(degree);
    ordered_ = true;
    return base::IdMap(std::move(originals));
  }

  uint64_t vertices() const { return vertices_; }

 private:
  uint64_t dense(uint64_t id) const {
    if (seen_.size()) {
      const uint64_t below = seen_[id / 64] & ((uint64_t(1) << (id % 64)) - 1);
      return before_[id / 64] + uint64_t(std::popcount(below));
    }
    return uint64_t(std::lower_bound(sorted_.begin(), sorted_.end(), id) - sorted_.begin());
  }
  bool relabelled_ = false, ordered_ = false;
  uint64_t vertices_ = 0;
  base::Array<uint64_t> seen_, before_, sorted_, renamed_;
};

// The passes of `inner` with new ids, chunk by chunk.
std::function<void(const EdgeConsumer&)> renamed(std::function<void(const EdgeConsumer&)> inner,
                                                 std::shared_ptr<const Renaming> renaming) {
  return [inner = std::move(inner), renaming = std::move(renaming)](const EdgeConsumer& consume) {
    std::vector<uint64_t> sources, targets;
    inner([&](const EdgeChunk& c) {
      sources.resize(c.size);
      targets.resize(c.size);
      for (uint64_t e = 0; e < c.size; ++e) {
        sources[e] = (*renaming)(c.sources[e]);
        targets[e] = (*renaming)(c.targets[e]);
      }
      consume(EdgeChunk{sources.data(), targets.data(), c.weights, c.size});
    });
  };
}

constexpr uint64_t max_ranges = 4096;

// The threads that count and place side by side (see build_ranges):
// each placing lane holds a range's arrays, all within the budget, so
// the ranges stay small only with a few lanes.
constexpr int max_lanes = 4;

// f(lane) for each of a few lanes at once: lane 0 on the caller, the
// others on threads of their own that sleep between calls. OpenMP's
// threads spin after each loop, beside this conversion's IO threads: on
// 2 cores, RMAT 23 --transpose under 512m took 8.0 s with them spinning
// and 7.5 s with them sleeping (OMP_WAIT_POLICY=passive). The first
// error is thrown once every lane has returned.
class Lanes {
 public:
  explicit Lanes(int count) : count_(count), helpers_(std::make_unique<base::SerialWorker[]>(size_t(count - 1))) {}
  int count() const { return count_; }

  template <class F>
  void run(int lanes, F&& f) {
    std::vector<base::SerialWorker::Ticket> tickets(static_cast<size_t>(lanes));
    for (int lane = 1; lane < lanes; ++lane) tickets[size_t(lane)] = helpers_[size_t(lane - 1)].submit([&f, lane] { f(lane); });
    std::exception_ptr first;
    try {
      f(0);
    } catch (...) {
      first = std::current_exception();
    }
    for (int lane = 1; lane < lanes; ++lane) {
      try {
        helpers_[size_t(lane - 1)].wait(tickets[size_t(lane)]);
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  }

 private:
  int count_;
  std::unique_ptr<base::SerialWorker[]> helpers_;
};

// Per vertex: the counts (then offsets, 8 bytes), what the conversion
// holds beside the build, and the maps of --relabel and --reorder degree.
uint64_t floor_bytes_per_vertex(const BuildOptions& build) {
  return 8 + build.memory.held_per_vertex + (build.relabel ? 24 : 0) + (build.order_by_degree ? 24 : 0);
}

// Consecutive vertices counted together, about 16384 buckets in all: a
// bucket's counter stays in cache where a count per vertex would miss on
// nearly every edge of a large graph (RMAT 22's counting pass took 42 ns
// an edge).
struct Buckets {
  static constexpr unsigned bits = 14;
  unsigned shift;
  uint64_t count;
  explicit Buckets(uint64_t n)
      : shift(n > (uint64_t(1) << bits) ? unsigned(std::bit_width(n - 1)) - bits : 0), count(n ? ((n - 1) >> shift) + 1 : 0) {}
  uint64_t of(uint64_t v) const { return v >> shift; }
  uint64_t first(uint64_t b) const { return b << shift; }
};

// The vertex ranges whose records are placed together: each range's
// records and per-vertex cursors fit `bytes`, unless one vertex alone
// does not. Whole buckets where a bucket fits; a bucket that alone does
// not (a hub's) is cut vertex by vertex, from `counts`.
std::vector<uint64_t> cut_ranges(const std::vector<uint64_t>& bucket_records, const std::vector<char>& oversized,
                                 const base::Array<uint64_t>& counts, Buckets buckets, uint64_t n, uint64_t record_bytes,
                                 uint64_t bytes) {
  std::vector<uint64_t> starts{0};
  uint64_t used = 0;
  auto take = [&](uint64_t first, uint64_t cost) {
    if (used > 0 && used + cost > bytes) {
      starts.push_back(first);
      used = 0;
    }
    used += cost;
  };
  for (uint64_t b = 0; b < buckets.count; ++b) {
    const uint64_t first = buckets.first(b), last = std::min(n, buckets.first(b + 1));
    if (oversized[b]) {
      for (uint64_t v = first; v < last; ++v) take(v, counts[v] * record_bytes + 16);
    } else {
      take(first, bucket_records[b] * record_bytes + (last - first) * 16);
    }
  }
  starts.push_back(n);
  return starts;
}

// A record in its range's region of a scratch file, in as few bytes as
// its range allows: the owner less the range's first vertex, in the bytes
// the range's width needs; the other end, as an id, or, where a region's
// records come in ascending order of their other ends (the transpose's,
// spilled in vertex order), as a varint of the gap from the record
// before; then the weight. Scratch IO is what a conversion under a tight
// cap waits on: RMAT 25 with its transpose under a 2 GiB cgroup wrote
// 8.00 GiB as two ids a record and 4.55 GiB so (6 bytes a record of the
// graph's, 3.1 of the transpose's), in 0.92x the time.
static_assert(std::endian::native == std::endian::little, "a record's owner is the low bytes of a 64-bit value");
struct RecordCoding {
  // What a record's coder writes, and its decoder reads, past the
  // record's start, at most: 8-byte stores and loads of the owner and the
  // other end (a call to memcpy of a variable size per record doubled
  // RMAT 25's CPU time), a 10-byte varint and a weight.
  static constexpr uint64_t lookahead = 32;
  unsigned owner_bytes;
  uint64_t first;  // the range's first vertex
  bool gaps, weighted;
  unsigned id_bytes;
  uint64_t id_mask;

  // Of a range [first, first + width).
  RecordCoding(uint64_t first_vertex, uint64_t width, bool gap_coded, bool weights, unsigned ids)
      : owner_bytes(std::max(1u, (unsigned(std::bit_width(width - 1)) + 7) / 8)), first(first_vertex), gaps(gap_coded),
        weighted(weights), id_bytes(ids), id_mask(ids == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * ids)) - 1) {}
  uint64_t most_bytes() const { return owner_bytes + (gaps ? (8 * id_bytes + 6) / 7 : id_bytes) + (weighted ? 4 : 0); }

  // f(owner, other, weight) for each record of [at, end), where the last
  // may run up to `lookahead` bytes past `end` (RegionWriters::put_chunk
  // and put_list code them); `previous` is the other end of the region's record before (0
  // for its first).
  // Returns where the record after the last one starts.
  template <class F>
  const char* for_each(const char* at, const char* end, uint64_t& previous, F&& f) const {
    const uint64_t mask = owner_bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * owner_bytes)) - 1;
    while (at < end) {
      uint64_t offset;
      std::memcpy(&offset, at, 8);
      at += owner_bytes;
      uint64_t other;
      if (gaps) {
        other = previous += base::get_varint_unchecked(at);
      } else {
        std::memcpy(&other, at, 8);
        other &= id_mask;
        at += id_bytes;
      }
      float w = 0.0f;
      if (weighted) std::memcpy(&w, at, 4), at += 4;
      f(first + (offset & mask), other, w);
    }
    return at;
  }
};

// A plan of vertex ranges and their records on a scratch file: range r
// holds vertices [starts[r], starts[r + 1]) and its `records[r]` records
// in the `written[r]` bytes from byte region[r] on. No file: one range,
// placed from the input.
struct SpilledRanges {
  std::vector<uint64_t> starts{0, 0};
  std::vector<uint64_t> records{0};
  std::vector<uint64_t> region{0, 0};
  std::vector<uint64_t> written{0};
  bool gaps = false;  // the records' other ends are gap-coded (RecordCoding)
  bool weighted = false;
  unsigned id_bytes = 4;
  std::optional<base::TempFile> file;
  size_t count() const { return starts.size() - 1; }
  RecordCoding coding(size_t r) const { return RecordCoding(starts[r], starts[r + 1] - starts[r], gaps, weighted, id_bytes); }
  uint64_t bytes_written() const {
    uint64_t sum = 0;
    for (uint64_t w : written) sum += w;
    return sum;
  }
};

// Each bucket's first range: an owner's range is found in a step or two.
struct RangeLookup {
  Buckets buckets;
  const std::vector<uint64_t>* starts;
  std::vector<uint32_t> first;
  RangeLookup(Buckets b, const std::vector<uint64_t>& s) : buckets(b), starts(&s), first(b.count) {
    for (uint64_t k = 0; k < buckets.count; ++k) {
      first[k] = uint32_t(std::upper_bound(s.begin(), s.end(), buckets.first(k)) - s.begin() - 1);
    }
  }
  // The tables as plain pointers, for a loop to hold in registers.
  struct Tables {
    const uint32_t* first;
    const uint64_t* starts;
    unsigned shift;
    size_t of(uint64_t owner) const {
      size_t r = first[owner >> shift];
      while (owner >= starts[r + 1]) ++r;
      return r;
    }
  };
  Tables tables() const { return Tables{first.data(), starts->data(), buckets.shift}; }
};

// Records appended to the regions of a plan's file, each range's through
// a buffer of its own that the scratch worker writes. Records go to
// regions at random: what a record's coding needs of its region (where it
// goes, the range's first vertex, the other end before) is kept in one
// cache line, the region's Cursor.
struct RegionWriters {
  struct alignas(64) Cursor {
    char* at;             // where the next record goes, in the appender's buffer
    char* end;            // a record that starts before it fits
    uint64_t first;       // the range's first vertex
    uint64_t previous;    // the other end of the record before (gap coding)
    uint64_t records;     // appended
    unsigned owner_bytes;
  };
  SpilledRanges& plan;
  std::vector<base::TempFileAppender> appenders;
  std::vector<Cursor> cursors;
  RegionWriters(SpilledRanges& p, uint64_t buffer_bytes, base::SerialWorker& worker) : plan(p), cursors(p.count()) {
    appenders.reserve(p.count());
    for (size_t r = 0; r < p.count(); ++r) {
      base::TempFileAppender& out = appenders.emplace_back(*p.file, std::max(buffer_bytes, 4 * RecordCoding::lookahead), p.region[r], &worker);
      cursors[r] = Cursor{out.cursor(), out.limit() - RecordCoding::lookahead, p.starts[r], 0, 0, p.coding(r).owner_bytes};
    }
  }
  // Each record `emission` makes of the chunk's edges, put in its range's
  // region (a plan whose other ends are ids). What each record reads is
  // held in locals, the record's shape as constants: a record's stores are
  // of chars, which may alias anything, so every field read through a
  // reference would be read again for each record.
  void put_chunk(const EdgeChunk& c, Emission emission, const RangeLookup& lookup) {
    if (plan.gaps) throw std::logic_error("RegionWriters::put_chunk: gap-coded records come in vertex order, not a chunk's");
    if (plan.weighted) {
      plan.id_bytes == 4 ? put_chunk_as<true, 4>(c, emission, lookup) : put_chunk_as<true, 8>(c, emission, lookup);
    } else {
      plan.id_bytes == 4 ? put_chunk_as<false, 4>(c, emission, lookup) : put_chunk_as<false, 8>(c, emission, lookup);
    }
  }
  // The transpose's records of a source's list, (target, source), each
  // put in its target's range's region (a gap-coded plan), as put_chunk
  // puts a chunk's.
  template <class V>
  void put_list(uint64_t source, const V* targets, const float* weights, uint64_t count, const RangeLookup& lookup) {
    if (!plan.gaps) throw std::logic_error("RegionWriters::put_list: a source's records are gap-coded");
    weights ? put_list_as<true>(source, targets, weights, count, lookup) : put_list_as<false>(source, targets, weights, count, lookup);
  }
  // Every record in the file, and each region's bytes noted in the plan.
  void flush() {
    for (size_t r = 0; r < appenders.size(); ++r) {
      cursors[r].at = appenders[r].advance(cursors[r].at, 0);
      appenders[r].flush();
      plan.written[r] = appenders[r].position() - plan.region[r];
    }
  }

 private:
  void refill(Cursor& c, size_t r) {
    c.at = appenders[r].advance(c.at, RecordCoding::lookahead);
    c.end = appenders[r].limit() - RecordCoding::lookahead;
  }
  // The cursor of `owner`'s region, with room for a record.
  Cursor& cursor_of(Cursor* cursors_at, const RangeLookup::Tables& range, uint64_t owner) {
    const size_t r = range.of(owner);
    Cursor& c = cursors_at[r];
    if (c.at > c.end) [[unlikely]] refill(c, r);
    return c;
  }
  // A record begun with its owner's offset; returns where the rest goes.
  // It is done once the cursor moves past it (done()).
  static char* put_owner(const Cursor& c, uint64_t owner) {
    const uint64_t offset = owner - c.first;
    std::memcpy(c.at, &offset, 8);
    return c.at + c.owner_bytes;
  }
  static void done(Cursor& c, char* at) {
    c.at = at;
    ++c.records;
  }
  template <bool Weighted, class V>
  void put_list_as(uint64_t source, const V* targets, const float* weights, uint64_t count, const RangeLookup& lookup) {
    Cursor* const cursors_at = cursors.data();
    const RangeLookup::Tables range = lookup.tables();
    for (uint64_t k = 0; k < count; ++k) {
      Cursor& c = cursor_of(cursors_at, range, targets[k]);
      char* at = base::put_varint(put_owner(c, targets[k]), source - c.previous);
      c.previous = source;
      if constexpr (Weighted) std::memcpy(at, weights + k, 4), at += 4;
      done(c, at);
    }
  }
  template <bool Weighted, unsigned Ids>
  void put_chunk_as(const EdgeChunk& chunk, Emission emission, const RangeLookup& lookup) {
    Cursor* const cursors_at = cursors.data();
    const RangeLookup::Tables range = lookup.tables();
    const uint64_t* const sources = chunk.sources;
    const uint64_t* const targets = chunk.targets;
    const float* const weights = chunk.weights;
    const uint64_t size = chunk.size;
    for (uint64_t e = 0; e < size; ++e) {
      const float w = Weighted ? weights[e] : 0.0f;
      emission(sources[e], targets[e], [&](uint64_t owner, uint64_t other) {
        Cursor& c = cursor_of(cursors_at, range, owner);
        char* at = put_owner(c, owner);
        std::memcpy(at, &other, 8);
        at += Ids;
        if constexpr (Weighted) std::memcpy(at, &w, 4), at += 4;
        done(c, at);
      });
    }
  }
};

// The records of each range as counted: whole buckets, and hubs' vertices one by one.
std::vector<uint64_t> records_of_ranges(const std::vector<uint64_t>& starts, const std::vector<uint64_t>& bucket_records,
                                        const std::vector<char>& oversized, const base::Array<uint64_t>& counts, Buckets buckets) {
  std::vector<uint64_t> records(starts.size() - 1, 0);
  for (size_t r = 0; r + 1 < starts.size(); ++r) {
    for (uint64_t b = buckets.of(starts[r]); b < buckets.count && buckets.first(b) < starts[r + 1]; ++b) {
      if (!oversized[b]) {
        records[r] += bucket_records[b];
        continue;
      }
      const uint64_t first = std::max(starts[r], buckets.first(b)), last = std::min(starts[r + 1], buckets.first(b + 1));
      for (uint64_t v = first; v < last; ++v) records[r] += counts[v];
    }
  }
  return records;
}

// The transpose's records, appended to their ranges' regions as the
// graph's ranges are placed in vertex order: each in-list comes in
// ascending source order, ties in the order of the source's list, which is
// the transpose the in-memory build makes from the placed graph.
template <class V>
struct TransposeSpill {
  RangeLookup lookup;
  RegionWriters writers;
  void add(uint64_t source, const V* targets, const float* weights, uint64_t count) {
    writers.put_list(source, targets, weights, count, lookup);
  }
  // Every record in the file, and each range's records noted in the plan.
  void flush() {
    writers.flush();
    for (size_t r = 0; r < writers.cursors.size(); ++r) writers.plan.records[r] = writers.cursors[r].records;
  }
};

// What a placement needs besides its plan.
struct Placing {
  const BuildOptions& build;  // threads, progress, and sorting and deduplication when the lists are the graph's
  bool sort_lists;
  bool stored_order;          // each list as compressed pages store it (BuildOptions::sorted_for_pages)
  uint64_t budget;            // for the lanes' arrays
  Lanes& lanes;
  base::SerialWorker& scratch_io;
  bool weighted;
  uint64_t vertices;
};

// The CSR's targets and weights, placed range by range.
struct PlacedCsr {
  base::TempFile targets;
  std::optional<base::TempFile> weights;
};

// Where placed ranges go, in order: put(first vertex, the range's CSR),
// called on a worker while the next ranges are placed.
template <class V>
using PutRange = std::function<void(uint64_t, const Csr<V>&)>;
using PlaceInput = std::function<void(const std::function<void(uint64_t, uint64_t, float)>&)>;

// Pass 3: each range placed and handed, in order, to `put`; `counts` in:
// each vertex's records where the plan has no file (one range placed from
// `input`), out: the CSR's offsets. With `spill`, every placed list's
// transpose records are appended to their ranges on the way.
template <class V>
void place_ranges(SpilledRanges& plan, const Placing& p, base::Array<uint64_t>& counts, const PlaceInput& input,
                  TransposeSpill<V>* spill, const PutRange<V>& put, bool scratch_csr) {
  const bool weighted = p.weighted;
  const uint64_t stored_bytes = sizeof(V) + (weighted ? 4 : 0);
  const size_t ranges = plan.count();
  uint64_t records = 0;
  for (uint64_t r : plan.records) records += r;
  // Scratch bytes in flight while placing: two pieces of this read per lane.
  constexpr uint64_t in_flight = uint64_t(1) << 20;
  // Handed to a writer as placed, the writer shows its own progress.
  base::Progress placing("building CSR in bounded memory: placing", records, p.build.progress && scratch_csr);
  // Ranges are placed by the lanes side by side, each lane into arrays of
  // its own, sized for the widest and the fullest range and reused (a
  // range's own would fault fresh pages in each time). A worker appends
  // them in order (and spills their transpose records) while the lanes
  // place the next ranges into a second set of arrays, where the budget
  // holds two.
  uint64_t widest = 0, fullest = 0;
  for (size_t r = 0; r < ranges; ++r) widest = std::max(widest, plan.starts[r + 1] - plan.starts[r]), fullest = std::max(fullest, plan.records[r]);
  const uint64_t lane_bytes = fullest * stored_bytes + (2 * widest + 1) * 8;
  const int most_lanes = int(std::min<uint64_t>(uint64_t(p.lanes.count()), ranges));
  const int placing_lanes = ranges > 1 && uint64_t(most_lanes) * lane_bytes <= p.budget ? most_lanes : 1;
  const int sets = ranges > uint64_t(placing_lanes) && 2 * uint64_t(placing_lanes) * lane_bytes <= p.budget ? 2 : 1;
  // A lane reads a range's region whole, once for its counting and its
  // placing, the lane's next region read on the worker meanwhile, where
  // two regions fit what the arrays leave of the budget; a longer region
  // is read in pieces, twice. Reading every region twice was a third of
  // RMAT 25's system time under a 2 GiB cgroup.
  uint64_t longest = 0;
  for (uint64_t w : plan.written) longest = std::max(longest, w);
  const uint64_t arrays_bytes = uint64_t(placing_lanes) * uint64_t(sets) * lane_bytes;
  const uint64_t held_bytes = std::min(longest, p.budget > arrays_bytes ? (p.budget - arrays_bytes) / (2 * uint64_t(placing_lanes)) : 0);
  // What a lane places with; the arrays it places into, a set for each lane.
  struct Lane {
    std::vector<uint64_t> cursor;
    std::optional<base::TempFileWholeReads> whole;
    size_t fetched = SIZE_MAX;  // the range whose region `whole` is reading
    std::optional<base::TempFileReader> spilled_in;
    std::optional<ListSort<V>> sort;  // with p.stored_order
  };
  std::vector<Lane> lanes_of(static_cast<size_t>(placing_lanes));
  for (Lane& lane : lanes_of) {
    if (p.stored_order) lane.sort.emplace(unsigned(std::bit_width(std::max<uint64_t>(p.vertices, 2) - 1)));
    lane.cursor.resize(widest);
    if (plan.file && held_bytes > 0) lane.whole.emplace(*plan.file, p.scratch_io, held_bytes, RecordCoding::lookahead);
    if (plan.file && longest > held_bytes) lane.spilled_in.emplace(*plan.file, p.scratch_io, in_flight, 1, RecordCoding::lookahead);
  }
  std::vector<Csr<V>> arrays(static_cast<size_t>(placing_lanes * sets));
  for (Csr<V>& local : arrays) {
    local.weighted = weighted;
    local.offsets = base::Array<uint64_t>(widest + 1, "a range's offsets");
    local.targets = base::Array<V>(fullest, "a range's targets");
    if (weighted) local.weights = base::Array<float>(fullest, "a range's weights");
  }
  // Range r's region where the lane holds it whole (else nullptr), and
  // the read of the lane's next range started.
  auto take_region = [&](Lane& lane, size_t r) -> const char* {
    auto holds = [&](size_t q) { return lane.whole && plan.written[q] <= lane.whole->most_bytes(); };
    if (!holds(r)) return nullptr;
    if (lane.fetched != r) lane.whole->fetch(plan.region[r], plan.region[r] + plan.written[r]);
    const char* held = lane.whole->take();
    lane.fetched = SIZE_MAX;
    if (const size_t next = r + size_t(placing_lanes); next < ranges && holds(next)) {
      lane.whole->fetch(plan.region[next], plan.region[next] + plan.written[next]);
      lane.fetched = next;
    }
    return held;
  };
  // f(owner, other, weight) for each record of range r, from its region:
  // `held`, or read in pieces. A record that starts in one piece may end
  // in the next (the reader's lookahead holds it): the next piece's
  // records start past it.
  auto for_each_spilled = [&](Lane& lane, size_t r, const char* held, auto&& f) {
    const RecordCoding coding = plan.coding(r);
    uint64_t previous = 0, skip = 0, seen = 0;
    auto each = [&](uint64_t owner, uint64_t other, float w) {
      ++seen;
      f(owner, other, w);
    };
    if (held) {
      const char* end = held + plan.written[r];
      skip = uint64_t(coding.for_each(held, end, previous, each) - end);
    } else {
      lane.spilled_in->for_each_piece(plan.region[r], plan.region[r] + plan.written[r], [&](const char* piece, uint64_t bytes) {
        const char* end = piece + bytes;
        skip = uint64_t(coding.for_each(piece + skip, end, previous, each) - end);
      });
    }
    if (skip != 0 || seen != plan.records[r]) {
      throw std::runtime_error(plan.file->dir() + ": a scratch file of this conversion read back other records than were written to it");
    }
  };
  // Range r into `local`; its degrees into counts.
  auto place_range = [&](size_t r, Lane& lane, Csr<V>& local, int sort_threads) {
    const uint64_t lo = plan.starts[r], hi = plan.starts[r + 1], width = hi - lo;
    const char* held = plan.file ? take_region(lane, r) : nullptr;
    if (plan.file) {
      std::fill(counts.data() + lo, counts.data() + hi, 0);
      for_each_spilled(lane, r, held, [&](uint64_t owner, uint64_t, float) { ++counts[owner]; });
    }
    local.vertices = width;
    uint64_t total = 0;
    for (uint64_t i = 0; i < width; ++i) local.offsets[i] = lane.cursor[i] = total, total += counts[lo + i];
    local.offsets[width] = total;
    auto place = [&](uint64_t owner, uint64_t other, float w) {
      const uint64_t at = lane.cursor[owner - lo]++;
      local.targets[at] = V(other);
      if (weighted) local.weights[at] = w;
    };
    if (plan.file) {
      for_each_spilled(lane, r, held, place);
    } else {
      input(place);
    }
    if (p.sort_lists) {
      // A small range is not worth waking the threads for.
      sort_and_deduplicate(local, p.vertices, p.build.remove_duplicates, local.edges() < (uint64_t(1) << 16) ? 1 : sort_threads);
    } else if (p.stored_order) {
      for (uint64_t i = 0; i < width; ++i) {
        const uint64_t at = local.offsets[i];
        lane.sort->into_stored_order(local.targets.data() + at, weighted ? local.weights.data() + at : nullptr, local.degree(i));
      }
    }
    for (uint64_t i = 0; i < width; ++i) counts[lo + i] = local.degree(i);
  };
  // Range r, placed in `local`, appended to the CSR's files; its
  // transpose records spilled.
  auto append_range = [&](size_t r, const Csr<V>& local) {
    if (plan.file) plan.file->discard(plan.region[r], plan.region[r + 1] - plan.region[r]);  // its disk space back before the next ranges
    put(plan.starts[r], local);
    placing.advance(plan.records[r]);
  };
  auto spill_range = [&](size_t r, const Csr<V>& local) {
    for (uint64_t i = 0; i < local.vertices; ++i) {
      const uint64_t begin = local.offsets[i];
      spill->add(plan.starts[r] + i, local.targets.data() + begin, weighted ? local.weights.data() + begin : nullptr, local.degree(i));
    }
  };
  // Appending and spilling on workers of their own: on one worker the two
  // took 0.6 of a core, nearly all of it spilling, and the lanes waited
  // on it (RMAT 25 under a 2 GiB cgroup; apart, the placing took 7 s
  // where it took 9).
  base::SerialWorker appending, spilling;
  struct Done {
    base::SerialWorker::Ticket appended = 0, spilled = 0;
  };
  std::vector<Done> done{size_t(sets), Done{}};  // each set's last
  auto wait_for = [&](const Done& d) {
    if (d.appended) appending.wait(d.appended);
    if (d.spilled) spilling.wait(d.spilled);
  };
  size_t group = 0;
  for (size_t first = 0; first < ranges; first += size_t(placing_lanes), ++group) {
    const size_t set = group % size_t(sets);
    wait_for(done[set]);  // its arrays are free again
    const int here = int(std::min<size_t>(size_t(placing_lanes), ranges - first));
    Csr<V>* locals = arrays.data() + set * size_t(placing_lanes);
    p.lanes.run(here, [&](int lane) {
      place_range(first + size_t(lane), lanes_of[size_t(lane)], locals[lane], here > 1 ? 1 : p.build.threads);
    });
    done[set].appended = appending.submit([&append_range, locals, first, here] {
      for (int lane = 0; lane < here; ++lane) append_range(first + size_t(lane), locals[lane]);
    });
    if (spill) {
      done[set].spilled = spilling.submit([&spill_range, locals, first, here] {
        for (int lane = 0; lane < here; ++lane) spill_range(first + size_t(lane), locals[lane]);
      });
    }
  }
  for (const Done& d : done) wait_for(d);
  if (spill) spill->flush();
  placing.done();
  if (ranges > 1) {
    // The ranges' records, the transpose's spilled beside them, and the CSR's files.
    const uint64_t scratch = plan.bytes_written() + (spill ? spill->writers.plan.bytes_written() : 0) + (scratch_csr ? records * stored_bytes : 0);
    std::fprintf(stderr, "sluice: %zu vertex ranges placed %d at a time%s: %s of scratch files at most\n", ranges, placing_lanes,
                 scratch_csr ? "" : ", each handed to the writer", base::byte_count(scratch).c_str());
  }
  // The final degrees become offsets, in place.
  uint64_t offset = 0;
  for (uint64_t v = 0; v < p.vertices; ++v) {
    const uint64_t d = counts[v];
    counts[v] = offset;
    offset += d;
  }
  counts[p.vertices] = offset;
}

// Placed ranges appended to the CSR's scratch files.
template <class V>
PlacedCsr place_into_scratch(SpilledRanges& plan, const Placing& p, base::Array<uint64_t>& counts, const PlaceInput& input,
                             TransposeSpill<V>* spill) {
  // This much of buffers each for the targets and the weights written.
  constexpr uint64_t buffer_bytes = uint64_t(1) << 20;
  const std::string& temp = p.build.memory.temp_dir;
  PlacedCsr placed{base::TempFile(temp, "the CSR's targets"), std::nullopt};
  if (p.weighted) placed.weights.emplace(temp, "the CSR's weights");
  std::optional<base::TempFileAppender> targets_out, weights_out;
  targets_out.emplace(placed.targets, buffer_bytes, UINT64_MAX, &p.scratch_io);
  if (p.weighted) weights_out.emplace(*placed.weights, buffer_bytes, UINT64_MAX, &p.scratch_io);
  place_ranges<V>(plan, p, counts, input, spill, [&](uint64_t, const Csr<V>& local) {
    targets_out->append(local.targets.data(), local.edges() * sizeof(V));
    if (p.weighted) weights_out->append(local.weights.data(), local.edges() * sizeof(float));
  }, true);
  targets_out->flush();
  if (p.weighted) weights_out->flush();
  return placed;
}

// Placed ranges handed to `consume` in vertex order, as blocks of at most
// `block_edges` edges (or one vertex): a writer copies a block or two, as
// it would from the block API. Nothing of the CSR is written.
template <class V>
void place_into_stream(SpilledRanges& plan, const Placing& p, base::Array<uint64_t>& counts, TransposeSpill<V>* spill,
                       uint64_t block_edges, const std::function<void(const EdgeBlock&)>& consume) {
  std::vector<uint64_t> offsets;  // a block's, as edge offsets in the whole CSR
  uint64_t placed = 0;            // edges of the ranges before
  place_ranges<V>(plan, p, counts, {}, spill, [&](uint64_t first, const Csr<V>& local) {
    for (uint64_t begin = 0; begin < local.vertices;) {
      uint64_t end = begin + 1;
      while (end < local.vertices && local.offsets[end + 1] - local.offsets[begin] <= block_edges) ++end;
      offsets.resize(end - begin + 1);
      for (uint64_t i = begin; i <= end; ++i) offsets[i - begin] = placed + local.offsets[i];
      EdgeBlock block;
      block.begin = first + begin;
      block.end = first + end;
      block.offsets = offsets.data();
      block.edges = local.offsets[end] - local.offsets[begin];
      block.targets = local.targets.data() + local.offsets[begin];
      block.id_bytes = sizeof(V);
      block.weights = p.weighted ? local.weights.data() + local.offsets[begin] : nullptr;
      consume(block);
      begin = end;
    }
    placed += local.edges();
  }, false);
}

// The budget the records of a build may take: what the floor and the
// passes' chunks leave: a window's bytes each for the chunk being
// consumed, the input's window read behind it (WindowsBehind) and the
// chunk's renamed copy.
uint64_t records_budget(uint64_t vertices, const BuildOptions& build) {
  const uint64_t taken = external_build_floor(vertices, build) + 3 * window_bytes(build.memory);
  return std::max<uint64_t>(build.memory.limit - std::min(build.memory.limit, taken), uint64_t(1) << 20);
}

// The edge sets of a bounded build (the graph's, and the transpose's
// built alongside), each placed when first needed: into scratch CSR files
// to be read by range, or, when a writer's one pass in vertex order comes
// first (stream_once), straight to that writer, with no CSR written at
// all. The transpose has all its records only once the graph's ranges are
// placed, so placing it places the graph's first.
template <class V>
class BoundedBuild {
 public:
  enum class State { spilled, in_scratch, streamed, failed };
  struct EdgeSet {
    SpilledRanges plan;
    base::Array<uint64_t> counts;  // the degrees counted so far; once placed, the offsets
    bool sort_lists = false;       // the graph's, when sorted or deduplicated
    bool stored_order = false;     // else each list as compressed pages store it (place_ranges)
    uint64_t budget = 0;           // for the lanes' arrays
    std::atomic<State> state{State::spilled};  // changed under the build's mutex
    std::optional<PlacedCsr> placed;           // in_scratch
  };

  BoundedBuild(const BuildOptions& b, int lanes) : build(b), lanes_(lanes) {}

  BuildOptions build;
  base::GraphInfo info;
  std::string format;
  base::IdMap ids;
  EdgeSet graph;
  std::unique_ptr<EdgeSet> transpose;       // with BuildOptions::transpose_alongside
  std::optional<TransposeSpill<V>> spill;   // its records, while the graph's ranges are placed
  std::atomic<bool> transpose_taken{false};

  base::SerialWorker& scratch_io() { return scratch_io_; }
  Lanes& lanes() { return lanes_; }

  // The graph's ranges placed now, into scratch files (a build whose edge
  // count is known only once placed, or one range placed from `input`).
  void place_graph(const PlaceInput& input) {
    std::lock_guard lock(mutex_);
    place_locked(graph, input, nullptr);
  }

  // The set, placed into scratch files if it was not yet.
  const EdgeSet& readable(bool transposed) {
    EdgeSet& set = transposed ? *transpose : graph;
    if (set.state.load(std::memory_order_acquire) == State::in_scratch) return set;
    std::lock_guard lock(mutex_);
    if (set.state == State::spilled) place_locked(set, {}, nullptr);
    if (set.state == State::streamed) {
      throw std::logic_error("a bounded build's edges were handed to a writer as they were placed, and cannot be read again");
    }
    if (set.state == State::failed) throw std::runtime_error("an earlier placement of the bounded build's edges failed");
    return set;
  }

  // The set's lists to `consume` as they are placed, if nothing placed them yet.
  bool stream(bool transposed, const std::function<void(const EdgeBlock&)>& consume) {
    std::lock_guard lock(mutex_);
    EdgeSet& set = transposed ? *transpose : graph;
    if (set.state != State::spilled) return false;
    place_locked(set, {}, &consume);
    return true;
  }

 private:
  void place_locked(EdgeSet& set, const PlaceInput& input, const std::function<void(const EdgeBlock&)>* consume) {
    const bool is_graph = &set == &graph;
    if (!is_graph && graph.state == State::spilled) place_locked(graph, {}, nullptr);  // its records come from the graph's
    if (!is_graph && graph.state == State::failed) {
      throw std::runtime_error("the transpose's records are incomplete: placing the graph's ranges failed");
    }
    if (!is_graph) std::fprintf(stderr, "sluice: placing the transpose's records, spilled with the graph's\n");
    TransposeSpill<V>* with = is_graph && spill ? &*spill : nullptr;
    const Placing p{build, set.sort_lists, set.stored_order, set.budget, lanes_, scratch_io_, info.weighted, info.vertices};
    set.state = State::failed;  // until placed
    if (consume) {
      // Blocks as sluice convert asks the block API for (programs/convert.cpp).
      place_into_stream<V>(set.plan, p, set.counts, with, std::min(BlockOptions{}.block_edges, block_edges(build.memory)), *consume);
      set.state = State::streamed;
    } else {
      set.placed = place_into_scratch<V>(set.plan, p, set.counts, input, with);
      set.state.store(State::in_scratch, std::memory_order_release);
    }
    if (with) spill.reset();
  }

  // Declared first: the scratch files' writes and reads, off the placing
  // threads, outlive every buffer and file they are handed.
  base::SerialWorker scratch_io_;
  Lanes lanes_;
  std::mutex mutex_;
};

// One edge set of a bounded build: served from its scratch files, or
// streamed once as placed.
template <class V>
class ExternalCsrSource : public GraphSource {
 public:
  ExternalCsrSource(std::shared_ptr<BoundedBuild<V>> build, bool transposed) : build_(std::move(build)), transposed_(transposed) {}
  base::GraphInfo info() const override { return build_->info; }
  std::string format_name() const override { return build_->format; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override {
    const auto& set = build_->readable(transposed_);
    std::copy(set.counts.data() + begin, set.counts.data() + end + 1, out);
  }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const override {
    const auto& set = build_->readable(transposed_);
    const uint64_t first = set.counts[begin], count = set.counts[end] - first;
    if (count == 0) return;
    set.placed->targets.read(targets, count * sizeof(V), first * sizeof(V));
    if (weights && set.placed->weights) set.placed->weights->read(weights, count * sizeof(float), first * sizeof(float));
  }
  const base::IdMap& ids() const override { return build_->ids; }
  std::unique_ptr<GraphSource> built_transpose() const override {
    if (transposed_ || !build_->transpose || build_->transpose_taken.exchange(true)) return nullptr;
    return std::make_unique<ExternalCsrSource<V>>(build_, true);
  }
  bool stream_once(const std::function<void(const EdgeBlock&)>& consume) const override {
    return build_->stream(transposed_, consume);
  }

 private:
  std::shared_ptr<BoundedBuild<V>> build_;
  bool transposed_;
};

template <class V>
std::unique_ptr<GraphSource> build_ranges(const EdgePasses& edges, const BuildOptions& build, uint64_t vertices,
                                          base::IdMap ids) {
  const uint64_t n = vertices;
  const bool weighted = edges.weighted;
  const Emission emission(build);
  const std::string& temp = build.memory.temp_dir;
  const uint64_t stored_bytes = sizeof(V) + (weighted ? 4 : 0);  // a placed record
  // The transpose too: its records are counted by bucket of their owner
  // (each record's other end) with the graph's, and spilled as the
  // graph's ranges are placed.
  const bool with_transpose = build.transpose_alongside && !build.transpose;

  // Pass 1: records per bucket of owners, every id checked against the vertex count.
  std::fprintf(stderr, "sluice: building the %s in bounded memory (--memory-limit %s): scratch files in %s\n",
               build.transpose && !build.symmetrize ? "transpose" : with_transpose ? "CSR and its transpose" : "CSR",
               base::byte_count(build.memory.limit).c_str(), temp.empty() ? "." : temp.c_str());
  auto built = std::make_shared<BoundedBuild<V>>(build, std::min(base::resolve_threads(build.threads), max_lanes));
  base::Array<uint64_t>& counts = built->graph.counts;
  counts = base::Array<uint64_t>::zeros(n + 1, "the degrees");
  const Buckets buckets(n);
  base::SerialWorker& scratch_io = built->scratch_io();
  Lanes& lanes = built->lanes();
  // Each lane counts a slice of every chunk into counts of its own: the
  // graph's records, then the transpose's.
  const uint64_t counted = buckets.count * (with_transpose ? 2 : 1);
  std::vector<std::vector<uint64_t>> lane_records(size_t(lanes.count()), std::vector<uint64_t>(counted, 0));
  std::vector<uint64_t> first_bad(static_cast<size_t>(lanes.count()));  // in a lane's slice, the first edge out of range
  uint64_t seen = 0;
  base::Progress counting("building CSR in bounded memory: counting", edges.edges, build.progress);
  edges.pass([&](const EdgeChunk& c) {
    const int slices = c.size < (uint64_t(1) << 16) ? 1 : lanes.count();  // a small chunk is not worth waking a lane for
    lanes.run(slices, [&](int lane) {
      uint64_t* mine = lane_records[size_t(lane)].data();
      uint64_t* theirs = mine + (with_transpose ? buckets.count : 0);
      const uint64_t begin = c.size * uint64_t(lane) / uint64_t(slices), end = c.size * uint64_t(lane + 1) / uint64_t(slices);
      first_bad[size_t(lane)] = UINT64_MAX;
      for (uint64_t e = begin; e < end; ++e) {
        const uint64_t u = c.sources[e], v = c.targets[e];
        if (u >= n || v >= n) [[unlikely]] {
          first_bad[size_t(lane)] = e;
          return;
        }
        if (with_transpose) {
          emission(u, v, [&](uint64_t owner, uint64_t other) { ++mine[buckets.of(owner)], ++theirs[buckets.of(other)]; });
        } else {
          emission(u, v, [&](uint64_t owner, uint64_t) { ++mine[buckets.of(owner)]; });
        }
      }
    });
    for (int lane = 0; lane < slices; ++lane) {
      if (const uint64_t e = first_bad[size_t(lane)]; e != UINT64_MAX) {
        throw std::runtime_error("edge " + std::to_string(seen + e) + " (" + std::to_string(c.sources[e]) + " -> " +
                                 std::to_string(c.targets[e]) + ") leaves the " + std::to_string(n) + " vertices");
      }
    }
    seen += c.size;
    counting.advance(c.size);
  });
  counting.done();
  std::vector<uint64_t> bucket_records(buckets.count, 0), transpose_bucket_records(with_transpose ? buckets.count : 0, 0);
  uint64_t records = 0;
  for (const auto& mine : lane_records) {
    for (uint64_t b = 0; b < buckets.count; ++b) bucket_records[b] += mine[b], records += mine[b];
    for (uint64_t b = 0; b < transpose_bucket_records.size(); ++b) transpose_bucket_records[b] += mine[buckets.count + b];
  }
  lane_records = {};

  // Half the budget for a range's records, half for the buffers that
  // spill records to the ranges' files.
  const uint64_t budget = records_budget(n, build);
  // At most max_ranges ranges, each with a write buffer of at least
  // spill_buffer_bytes in the other half.
  constexpr uint64_t spill_buffer_bytes = uint64_t(4) << 10;
  const uint64_t placed_bytes = records * stored_bytes + n * 16;
  const uint64_t most_ranges = std::clamp<uint64_t>(budget / 2 / spill_buffer_bytes, 1, max_ranges);
  const uint64_t least = placed_bytes / most_ranges + 1;
  if (!build.memory.range_bytes && least > budget / 2) {
    // The least half: R ranges of placed_bytes / R, R buffers.
    const uint64_t half = std::max<uint64_t>(uint64_t(std::sqrt(double(placed_bytes) * double(spill_buffer_bytes))) + 1,
                                             placed_bytes / max_ranges + 1);
    throw std::runtime_error("--memory-limit " + base::byte_count(build.memory.limit) + " is too small to build " +
                             std::to_string(records) + " edges in at most " + std::to_string(max_ranges) +
                             " ranges: it needs at least " + base::byte_count(build.memory.limit - budget + 2 * half));
  }
  // A range's records are placed at random within it: no more than
  // placing_bytes of them, so that the writes stay in cache (RMAT 22
  // --transpose under --memory-limit 1g: 6 ranges 17.7 s, 21 ranges of
  // 16 MiB 13.8 s, 81 of 4 MiB 12.7 s).
  constexpr uint64_t placing_bytes = uint64_t(4) << 20;
  const uint64_t range_bytes = std::max(least, build.memory.range_bytes ? build.memory.range_bytes : std::min(placing_bytes, budget / 2));
  // A bucket that alone exceeds a range has its vertices counted one by
  // one (a pass that counts only theirs: a hub's few vertices); the
  // transpose's into an array of their own, which becomes its degrees.
  auto oversized_of = [&](const std::vector<uint64_t>& per_bucket, bool& any) {
    std::vector<char> oversized(per_bucket.size(), 0);
    for (uint64_t b = 0; b < per_bucket.size(); ++b) {
      const uint64_t width = std::min(n, buckets.first(b + 1)) - buckets.first(b);
      oversized[b] = width > 1 && per_bucket[b] * stored_bytes + width * 16 > range_bytes;
      any = any || oversized[b];
    }
    return oversized;
  };
  bool any_oversized = false, any_transpose_oversized = false;
  const std::vector<char> oversized = oversized_of(bucket_records, any_oversized);
  const std::vector<char> transpose_oversized = oversized_of(transpose_bucket_records, any_transpose_oversized);
  base::Array<uint64_t> transpose_counts;
  if (with_transpose) transpose_counts = base::Array<uint64_t>::zeros(n + 1, "the transpose's degrees");
  auto count_owners = [&](bool all, bool transposed) {
    edges.pass([&](const EdgeChunk& c) {
      for (uint64_t e = 0; e < c.size; ++e) {
        emission(c.sources[e], c.targets[e], [&](uint64_t owner, uint64_t other) {
          if (all || oversized[buckets.of(owner)]) ++counts[owner];
          if (transposed && transpose_oversized[buckets.of(other)]) ++transpose_counts[other];
        });
      }
    });
  };
  if (any_oversized || any_transpose_oversized) count_owners(false, any_transpose_oversized);
  SpilledRanges& plan = built->graph.plan;
  plan.starts = cut_ranges(bucket_records, oversized, counts, buckets, n, stored_bytes, range_bytes);
  plan.records = records_of_ranges(plan.starts, bucket_records, oversized, counts, buckets);
  const size_t ranges = plan.count();
  // The degrees: one range is placed straight from the input, so counted
  // first; several are counted from their records as they are placed.
  if (ranges == 1) {
    std::fill(counts.begin(), counts.end(), 0);
    count_owners(true, false);
  }
  // Each range's records go to its own region of one scratch file, sized
  // for its records at their largest (what a region leaves unwritten
  // takes no disk space); the readers' lookahead past the last reads zeros.
  auto lay_out = [&](SpilledRanges& p, bool gaps, const std::string& what) {
    p.gaps = gaps;
    p.weighted = weighted;
    p.id_bytes = unsigned(sizeof(V));
    p.region.assign(p.count() + 1, 0);
    p.written.assign(p.count(), 0);
    for (size_t r = 0; r < p.count(); ++r) p.region[r + 1] = p.region[r] + p.records[r] * p.coding(r).most_bytes();
    p.file.emplace(temp, what);
    const char zeros[RecordCoding::lookahead] = {};
    p.file->write(zeros, sizeof zeros, p.region[p.count()]);
  };

  if (ranges > 1) {
    // Pass 2: each record to its range's region, in input order.
    lay_out(plan, false, "the records by vertex range");
    const RangeLookup lookup(buckets, plan.starts);
    RegionWriters writers(plan, std::max(spill_buffer_bytes, budget / 2 / ranges), scratch_io);
    base::Progress scattering("building CSR in bounded memory: spilling", edges.edges, build.progress);
    edges.pass([&](const EdgeChunk& c) {
      writers.put_chunk(c, emission, lookup);
      scattering.advance(c.size);
    });
    writers.flush();
    scattering.done();
  }

  // The transpose's ranges, cut alike; its records, counted again as they
  // are spilled (deduplication keeps fewer than were counted).
  std::optional<TransposeSpill<V>>& spill = built->spill;
  if (with_transpose) {
    built->transpose = std::make_unique<typename BoundedBuild<V>::EdgeSet>();
    built->transpose->counts = std::move(transpose_counts);
    // Placed after this build has returned, without the relabelling maps
    // (they go with the passes): budgeted as transpose_of's own build is.
    BuildOptions placing_alone;
    placing_alone.threads = build.threads;
    placing_alone.progress = build.progress;
    placing_alone.memory = build.memory;
    built->transpose->budget = records_budget(n, placing_alone);
    SpilledRanges& t = built->transpose->plan;
    const base::Array<uint64_t>& hubs = built->transpose->counts;
    t.starts = cut_ranges(transpose_bucket_records, transpose_oversized, hubs, buckets, n, stored_bytes, range_bytes);
    t.records = records_of_ranges(t.starts, transpose_bucket_records, transpose_oversized, hubs, buckets);
    lay_out(t, true, "the transpose's records by vertex range");
    spill.emplace(TransposeSpill<V>{RangeLookup(buckets, t.starts), RegionWriters(t, std::max(spill_buffer_bytes, budget / 2 / t.count()), scratch_io)});
  }

  // The spill buffers of pass 2 are gone: the lanes may share the whole
  // budget (half of it beside the transpose's buffers), or one lane takes it all.
  built->graph.sort_lists = build.sort_neighbors || build.remove_duplicates;
  built->graph.stored_order = build.sorted_for_pages && layout::compressed_pages_hold(n, unsigned(sizeof(V)));
  if (built->transpose) built->transpose->stored_order = built->graph.stored_order;
  built->graph.budget = with_transpose ? budget / 2 : budget;
  built->info = base::GraphInfo{n, records, weighted, unsigned(sizeof(V)), edges.symmetric || build.symmetrize};
  built->format = edges.format;
  built->ids = std::move(ids);
  // Placed when first needed (GraphSource::stream_once hands the ranges
  // to a writer as they are placed), unless placing must come first: one
  // range is placed from the input, which lives only as long as this
  // call, and the edge count of a deduplicated graph is known only once
  // its lists are.
  if (ranges == 1 || build.remove_duplicates) {
    built->place_graph([&](const std::function<void(uint64_t, uint64_t, float)>& place) {
      edges.pass([&](const EdgeChunk& c) {
        for (uint64_t e = 0; e < c.size; ++e) {
          const float w = weighted ? c.weights[e] : 0.0f;
          emission(c.sources[e], c.targets[e], [&](uint64_t owner, uint64_t other) { place(owner, other, w); });
        }
      });
    });
    built->info.edges = counts[n];
  }
  return std::make_unique<ExternalCsrSource<V>>(std::move(built), false);
}
}  // namespace

uint64_t external_build_floor(uint64_t vertices, const BuildOptions& build) {
  return (vertices + 1) * floor_bytes_per_vertex(build) + (uint64_t(8) << 20);
}

EdgePasses passes_of(const GraphSource& source, uint64_t chunk_edges) {
  const base::GraphInfo info = source.info();
  EdgePasses passes;
  passes.vertices = info.vertices;
  passes.edges = info.edges;
  passes.weighted = info.weighted;
  passes.id_bytes = info.id_bytes;
  passes.symmetric = info.symmetric;
  passes.ids = source.ids().copy();
  passes.format = source.format_name();
  chunk_edges = std::max<uint64_t>(chunk_edges, 1);
  passes.pass = [&source, info, chunk_edges](const EdgeConsumer& consume) {
    constexpr uint64_t block = 1 << 16;
    std::vector<uint64_t> offsets, sources, targets;
    std::vector<char> raw;
    std::vector<float> weights;
    for (uint64_t v = 0; v < info.vertices;) {
      const uint64_t block_end = std::min(info.vertices, v + block);
      offsets.resize(block_end - v + 1);
      source.read_offsets(v, block_end, offsets.data());
      auto offset = [&](uint64_t u) { return offsets[u - v]; };
      for (uint64_t u = v; u < block_end;) {
        uint64_t end = u + 1;
        while (end < block_end && offset(end + 1) - offset(u) <= chunk_edges) ++end;
        const uint64_t count = offset(end) - offset(u);
        raw.resize(count * info.id_bytes);
        weights.resize(info.weighted ? count : 0);
        source.read_edges(u, end, raw.data(), info.weighted ? weights.data() : nullptr);
        sources.resize(count);
        targets.resize(count);
        for (uint64_t x = u; x < end; ++x) std::fill(sources.data() + offset(x) - offset(u), sources.data() + offset(x + 1) - offset(u), x);
        for (uint64_t e = 0; e < count; ++e) {
          if (info.id_bytes == 4) {
            uint32_t t;
            std::memcpy(&t, raw.data() + e * 4, 4);
            targets[e] = t;
          } else {
            std::memcpy(&targets[e], raw.data() + e * 8, 8);
          }
        }
        if (count) consume(EdgeChunk{sources.data(), targets.data(), info.weighted ? weights.data() : nullptr, count});
        u = end;
      }
      v = block_end;
    }
  };
  return passes;
}

EdgePasses passes_into(const GraphSource& source, uint64_t first, uint64_t last, uint64_t chunk_edges) {
  EdgePasses passes = passes_of(source, chunk_edges);
  passes.ids = {};
  passes.pass = [all = std::move(passes.pass), first, last](const EdgeConsumer& consume) {
    std::vector<uint64_t> sources, targets;
    std::vector<float> weights;
    all([&](const EdgeChunk& c) {
      sources.clear(), targets.clear(), weights.clear();
      for (uint64_t e = 0; e < c.size; ++e) {
        if (c.targets[e] < first || c.targets[e] >= last) continue;
        sources.push_back(c.sources[e]);
        targets.push_back(c.targets[e]);
        if (c.weights) weights.push_back(c.weights[e]);
      }
      if (!sources.empty()) consume(EdgeChunk{sources.data(), targets.data(), c.weights ? weights.data() : nullptr, sources.size()});
    });
  };
  return passes;
}

uint64_t window_bytes(const BuildMemory& memory) {
  return std::clamp<uint64_t>(memory.limit / 16, uint64_t(1) << 20, uint64_t(64) << 20);
}

uint64_t chunk_edges(const BuildMemory& memory) { return window_bytes(memory) / 24; }

uint64_t block_edges(const BuildMemory& memory) { return std::max<uint64_t>(memory.limit / 5120, 4096); }

std::unique_ptr<GraphSource> build_external_csr(EdgePasses edges, const BuildOptions& build) {
  if (!build.memory.bounded()) throw std::logic_error("build_external_csr needs a memory limit");
  // Before any pass: the per-vertex arrays must fit (relabelled, the
  // vertex count is known only after the first pass).
  auto check_floor = [&](uint64_t vertices) {
    const uint64_t floor = external_build_floor(vertices, build);
    if (build.memory.limit < floor) {
      throw std::runtime_error("--memory-limit " + base::byte_count(build.memory.limit) + " is too small to convert a graph of " +
                               std::to_string(vertices) + " vertices: it needs at least " + base::byte_count(floor) + " (" +
                               std::to_string(floor_bytes_per_vertex(build)) +
                               " bytes a vertex, plus 8 MiB)");
    }
    return floor;
  };
  if (!build.relabel) check_floor(edges.vertices);
  uint64_t vertices = edges.vertices;
  unsigned id_bytes = edges.id_bytes;
  base::IdMap ids = std::move(edges.ids);
  if (build.relabel) {
    auto renaming = std::make_shared<Renaming>();
    ids = compose(ids, renaming->relabel(edges, build.memory.limit - std::min<uint64_t>(build.memory.limit, uint64_t(8) << 20)));
    vertices = renaming->vertices();
    check_floor(vertices);
    // Relabelled 64-bit ids come down to 32 bits when they fit (as open_graph's built() does).
    if (id_bytes == 8 && !edges.keep_wide && vertices <= (uint64_t(1) << 32)) id_bytes = 4;
    edges.pass = renamed(std::move(edges.pass), std::move(renaming));
  }
  if (build.order_by_degree) {
    auto ordering = std::make_shared<Renaming>();
    ids = compose(ids, ordering->order_by_degree(edges, vertices));
    edges.pass = renamed(std::move(edges.pass), std::move(ordering));
  }
  if (id_bytes == 4) return build_ranges<uint32_t>(edges, build, vertices, std::move(ids));
  return build_ranges<uint64_t>(edges, build, vertices, std::move(ids));
}

}  // namespace sluice::formats
