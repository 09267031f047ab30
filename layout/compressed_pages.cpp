#include "layout/compressed_pages.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sluice::layout {

namespace {

// Without branches: the lengths of a page's values are coin flips.
unsigned value_bytes(uint32_t v) { return (unsigned(std::bit_width(v | 1u)) + 7) / 8; }
// 64-bit ids: 1, 2, 4 or 8 bytes (the control bits say which power of two).
unsigned wide_value_bytes(uint64_t v) { return v < (1u << 8) ? 1 : v < (1u << 16) ? 2 : v < (uint64_t(1) << 32) ? 4 : 8; }
unsigned wide_control(unsigned bytes) { return unsigned(std::countr_zero(bytes)); }

uint64_t zigzag(int64_t d) { return (uint64_t(d) << 1) ^ uint64_t(d >> 63); }
int64_t unzigzag(uint64_t z) { return int64_t(z >> 1) ^ -int64_t(z & 1); }

// For each control value of `Lanes` 2-bit codes: the values' total
// length, and the shuffle that spreads their bytes over the lanes of a
// vector (0x80: a zero byte). A code is a value's length less one, or
// with Log2 the length's log2.
template <unsigned Lanes, bool Log2>
struct ShuffleTables {
  static constexpr unsigned codes = 1u << (2 * Lanes), lane_bytes = 16 / Lanes;
  std::array<uint8_t, codes> length{};
  std::array<std::array<uint8_t, 16>, codes> shuffle{};
  constexpr ShuffleTables() {
    for (unsigned c = 0; c < codes; ++c) {
      unsigned at = 0;
      for (unsigned lane = 0; lane < Lanes; ++lane) {
        const unsigned code = (c >> (2 * lane)) & 3, bytes = Log2 ? 1u << code : code + 1;
        for (unsigned b = 0; b < lane_bytes; ++b) shuffle[c][lane * lane_bytes + b] = uint8_t(b < bytes ? at + b : 0x80);
        at += bytes;
      }
      length[c] = uint8_t(at);
    }
  }
};
// 32-bit ids and integer weights: four values of 1-4 bytes a control byte,
// over four 32-bit lanes.
constexpr ShuffleTables<4, false> tables;
// 64-bit ids: two values of 1, 2, 4 or 8 bytes (half a control byte), over
// two 64-bit lanes.
constexpr ShuffleTables<2, true> wide_tables;

uint32_t read_value(const uint8_t* data, unsigned bytes) {
  uint32_t v = 0;
  std::memcpy(&v, data, bytes);  // little-endian hosts only (the layout's byte order)
  return v;
}

// A 64-bit id's value of `bytes` bytes (1, 2, 4 or 8). Little-endian
// hosts only (the layout's byte order). One 8-byte load, masked, while
// one fits before end: a copy of a length known only at run time is a
// call to memcpy, which made the 64-bit loop 3x slower.
uint64_t read_wide_value(const uint8_t* data, unsigned bytes, const uint8_t* end) {
  uint64_t value = 0;
  if (data + 8 <= end) {
    std::memcpy(&value, data, 8);
    return value & (~uint64_t(0) >> (64 - 8 * bytes));
  }
  std::memcpy(&value, data, bytes);
  return value;
}

// Decodes targets [from, count) one at a time, each its value's difference
// added to `previous` (modulo 2^32 or 2^64: checked by the caller); false
// when data would pass end. 32-bit ids take values of 1-4 bytes, 64-bit
// ones of 1, 2, 4 or 8.
template <class Id>
bool decode_scalar(const uint8_t* control, uint64_t from, uint64_t count, const uint8_t*& data, const uint8_t* end,
                   Id* out, Id& previous, Id& largest) {
  constexpr bool wide = sizeof(Id) == 8;
  for (uint64_t i = from; i < count; ++i) {
    const unsigned code = (control[i / 4] >> (2 * (i % 4))) & 3, bytes = wide ? 1u << code : code + 1;
    if (data + bytes > end) return false;
    const uint64_t value = wide ? read_wide_value(data, bytes, end) : read_value(data, bytes);
    previous = Id(int64_t(previous) + unzigzag(value));
    out[i] = previous;
    largest = std::max(largest, previous);
    data += bytes;
  }
  return true;
}

// Where decoded weights go: an array of their own, or beside their
// targets (decoded already) in the (target, weight) records the engine's
// walks read, so the pairing costs no pass of its own.
struct WeightArray {
  float* out;
  void put(uint64_t i, float w) const { out[i] = w; }
  void put_raw(const uint8_t* data, uint64_t count) const { std::memcpy(out, data, 4 * count); }
#if defined(__x86_64__)
  void put4(uint64_t i, __m128 w) const { _mm_storeu_ps(out + i, w); }
#endif
};
// Records of 8 bytes (a 32-bit target, then the weight) or 16 (a 64-bit
// target, the weight, 4 bytes of padding).
template <class Id>
struct PairedRecords {
  static constexpr unsigned bytes = 2 * sizeof(Id);
  const Id* targets;
  char* records;
  void put(uint64_t i, float w) const {
    std::memcpy(records + bytes * i, targets + i, sizeof(Id));
    std::memcpy(records + bytes * i + sizeof(Id), &w, 4);
  }
  void put_raw(const uint8_t* data, uint64_t count) const {
    for (uint64_t i = 0; i < count; ++i) {
      std::memcpy(records + bytes * i, targets + i, sizeof(Id));
      std::memcpy(records + bytes * i + sizeof(Id), data + 4 * i, 4);
    }
  }
#if defined(__x86_64__)
  __attribute__((target("sse4.1"))) void put4(uint64_t i, __m128 w) const {
    char* at = records + bytes * i;
    const __m128i weights = _mm_castps_si128(w);
    if constexpr (sizeof(Id) == 4) {
      const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(targets + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_unpacklo_epi32(t, weights));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + 16), _mm_unpackhi_epi32(t, weights));
    } else {
      // Each weight widened to a 64-bit lane: its record's padding is zeros.
      const __m128i w01 = _mm_cvtepu32_epi64(weights), w23 = _mm_cvtepu32_epi64(_mm_srli_si128(weights, 8));
      const __m128i t01 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(targets + i));
      const __m128i t23 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(targets + i + 2));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_unpacklo_epi64(t01, w01));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + 16), _mm_unpackhi_epi64(t01, w01));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + 32), _mm_unpacklo_epi64(t23, w23));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + 48), _mm_unpackhi_epi64(t23, w23));
    }
  }
#endif
};

// Decodes integer weights [from, count) one at a time; false when data
// would pass end. (As the vector path converts them: signed 32-bit.)
template <class Sink>
bool decode_weights_scalar(const uint8_t* control, uint64_t from, uint64_t count, const uint8_t*& data, const uint8_t* end,
                           const Sink& out) {
  for (uint64_t i = from; i < count; ++i) {
    const unsigned bytes = ((control[i / 4] >> (2 * (i % 4))) & 3) + 1;
    if (data + bytes > end) return false;
    out.put(i, float(int32_t(read_value(data, bytes))));
    data += bytes;
  }
  return true;
}

#if defined(__x86_64__)
// Four integer weights per control byte, while a 16-byte load stays
// inside the page: one shuffle spreads them over the lanes, one
// conversion makes them floats. Returns how many it decoded.
template <class Sink>
__attribute__((target("sse4.1"))) uint64_t decode_weights_sse41(const uint8_t* control, uint64_t count, const uint8_t*& data,
                                                                const uint8_t* end, const Sink& out) {
  uint64_t i = 0;
  const uint8_t* at = data;
  for (; i + 4 <= count && at + 16 <= end; i += 4) {
    const uint8_t c = control[i / 4];
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i mask = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.shuffle[c].data()));
    out.put4(i, _mm_cvtepi32_ps(_mm_shuffle_epi8(bytes, mask)));
    at += tables.length[c];
  }
  data = at;
  return i;
}

// Four targets per control byte, while a 16-byte load stays inside the
// page: one shuffle spreads the values over the lanes, then they are
// unzigzagged, summed within the vector (two shifted adds) and added to
// the previous target. Returns how many it decoded.
__attribute__((target("sse4.1"))) uint64_t decode_sse41(const uint8_t* control, uint64_t count, const uint8_t*& data,
                                                        const uint8_t* end, uint32_t* out, uint32_t& previous,
                                                        uint32_t& largest) {
  uint64_t i = 0;
  const uint8_t* at = data;
  __m128i carry = _mm_set1_epi32(int(previous));
  __m128i top = _mm_setzero_si128();
  const __m128i one = _mm_set1_epi32(1);
  for (; i + 4 <= count && at + 16 <= end; i += 4) {
    const uint8_t c = control[i / 4];
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i mask = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.shuffle[c].data()));
    __m128i v = _mm_shuffle_epi8(bytes, mask);
    v = _mm_xor_si128(_mm_srli_epi32(v, 1), _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v, one)));  // unzigzag
    v = _mm_add_epi32(v, _mm_slli_si128(v, 4));
    v = _mm_add_epi32(v, _mm_slli_si128(v, 8));
    v = _mm_add_epi32(v, carry);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), v);
    top = _mm_max_epu32(top, v);
    carry = _mm_shuffle_epi32(v, 0xff);
    at += tables.length[c];
  }
  top = _mm_max_epu32(top, _mm_shuffle_epi32(top, 0x4e));
  top = _mm_max_epu32(top, _mm_shuffle_epi32(top, 0xb1));
  largest = std::max(largest, uint32_t(_mm_cvtsi128_si32(top)));
  previous = uint32_t(_mm_cvtsi128_si32(carry));
  data = at;
  return i;
}

// 64-bit ids: two values per shuffle (half a control byte), while the
// control byte's 32 bytes at most stay inside the page; unzigzagged,
// summed within the vector and added to the previous target as above.
// Returns how many it decoded.
__attribute__((target("sse4.1"))) uint64_t decode_wide_sse41(const uint8_t* control, uint64_t count, const uint8_t*& data,
                                                             const uint8_t* end, uint64_t* out, uint64_t& previous,
                                                             uint64_t& largest) {
  uint64_t i = 0;
  const uint8_t* at = data;
  __m128i carry = _mm_set1_epi64x(int64_t(previous));
  const __m128i one = _mm_set1_epi64x(1);
  uint64_t top = largest;
  // Two values (a half of a control byte) to out[k], out[k + 1].
  auto two = [&](unsigned half, uint64_t k) __attribute__((target("sse4.1"))) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i mask = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wide_tables.shuffle[half].data()));
    __m128i v = _mm_shuffle_epi8(bytes, mask);
    v = _mm_xor_si128(_mm_srli_epi64(v, 1), _mm_sub_epi64(_mm_setzero_si128(), _mm_and_si128(v, one)));  // unzigzag
    v = _mm_add_epi64(v, _mm_slli_si128(v, 8));
    v = _mm_add_epi64(v, carry);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k), v);
    // No unsigned 64-bit max before AVX-512: the two lanes in scalar.
    top = std::max(top, std::max(uint64_t(_mm_cvtsi128_si64(v)), uint64_t(_mm_extract_epi64(v, 1))));
    carry = _mm_unpackhi_epi64(v, v);
    at += wide_tables.length[half];
  };
  for (; i + 4 <= count && at + 32 <= end; i += 4) {
    const uint8_t c = control[i / 4];
    two(c & 15u, i);
    two(unsigned(c) >> 4, i + 2);
  }
  data = at;
  previous = uint64_t(_mm_cvtsi128_si64(carry));
  largest = top;
  return i;
}

bool has_sse41() {
  static const bool has = [] {
    __builtin_cpu_init();  // may run before libgcc's own constructor
    return __builtin_cpu_supports("sse4.1") != 0 && __builtin_cpu_supports("ssse3") != 0;
  }();
  return has;
}
#endif

// Whether a weight is stored as an integer (a page's weights are raw floats if one is not).
bool integer_weight(float w) { return w >= 0.0f && w < compressed_integer_weight_limit && w == float(uint32_t(w)) && !std::signbit(w); }

// Bytes past a page's data that a value's 8-byte copy may write over
// (the next value's bytes go over them, and they are zeros).
constexpr uint64_t page_slack = 8;

}  // namespace

CompressedPageHeader CompressedPageHeader::of(const char* page, bool weighted, bool wide) {
  CompressedPageHeader h;
  std::memcpy(&h.edges, page, 4);
  if (wide) {
    std::memcpy(&h.first_vertex, page + 8, 8);
  } else {
    uint32_t first = 0;
    std::memcpy(&first, page + 4, 4);
    h.first_vertex = first;
  }
  if (weighted) {
    h.raw_weights = (h.edges & compressed_raw_weights) != 0;
    h.edges &= ~compressed_raw_weights;
  }
  return h;
}

CompressedPageEncoder::CompressedPageEncoder(uint64_t page_bytes, bool weighted, Emit emit, bool wide)
    : page_bytes_(page_bytes),
      weighted_(weighted),
      wide_(wide),
      emit_(std::move(emit)),
      controls_(compressed_page_capacity(page_bytes, weighted, wide) / 4 + 1),
      data_(page_bytes + page_slack),
      page_(page_bytes + page_slack) {
  if (weighted) weights_.reserve(compressed_page_capacity(page_bytes, weighted, wide));
}

void CompressedPageEncoder::add_list(uint64_t source, const uint32_t* targets, uint64_t count, const float* weights) {
  if (wide_) throw std::invalid_argument("a layout of 64-bit ids takes 64-bit targets");
  if (weighted_) {
    add<uint32_t, true>(source, targets, count, weights);
  } else {
    add<uint32_t, false>(source, targets, count, weights);
  }
}

void CompressedPageEncoder::add_list(uint64_t source, const uint64_t* targets, uint64_t count, const float* weights) {
  if (!wide_) throw std::invalid_argument("a layout of 32-bit ids takes 32-bit targets");
  if (weighted_) {
    add<uint64_t, true>(source, targets, count, weights);
  } else {
    add<uint64_t, false>(source, targets, count, weights);
  }
}

// Each target goes straight to the page's control and data bytes, the
// page's size kept as it grows: the layout's conversion puts every edge
// through here, once per edge set.
template <class Id, bool weighted>
void CompressedPageEncoder::add(uint64_t source, const Id* targets, uint64_t count, const float* weights) {
  constexpr bool wide = sizeof(Id) == 8;
  constexpr uint64_t limit = wide ? compressed_max_wide_vertices : compressed_max_vertices;
  constexpr const char* below = wide ? "compressed pages hold ids below 2^63" : "compressed pages of 32-bit ids hold ids below 2^31";
  constexpr uint64_t header = wide ? compressed_wide_page_header_bytes : compressed_page_header_bytes;
  if (source >= limit) throw std::invalid_argument(below);
  if ((weights != nullptr) != weighted && count) throw std::invalid_argument("a weighted layout's lists need their weights, and only its");
  auto length = [](uint64_t value) { return wide ? wide_value_bytes(value) : value_bytes(uint32_t(value)); };
  uint8_t* const controls = controls_.data();
  uint8_t* const data = data_.data();
  for (uint64_t i = 0; i < count; ++i) {
    if (targets[i] >= limit) throw std::invalid_argument(below);
    // Every value is the difference to the target before it in the page
    // (the page's first: to its source), so the page decodes as one
    // prefix sum, without the lists' boundaries and without the page before.
    if (edges_ == 0) previous_ = source;
    uint64_t value = zigzag(int64_t(targets[i]) - int64_t(previous_));
    unsigned bytes = length(value);
    bool integer = true;
    unsigned weight_bytes = 0;
    uint64_t size = header + (edges_ + 4) / 4 + data_bytes_ + bytes;
    if constexpr (weighted) {
      integer = integer_weight(weights[i]);
      weight_bytes = integer ? value_bytes(uint32_t(weights[i])) : 0;
      size += raw_weights_ || !integer ? 4 * (edges_ + 1) : (edges_ + 4) / 4 + weight_bytes_ + weight_bytes;
    }
    if (size > page_bytes_) {
      emit_page();
      previous_ = source;
      value = zigzag(int64_t(targets[i]) - int64_t(source));
      bytes = length(value);
    }
    if (edges_ == 0) {
      first_vertex_ = source;
      first_edge_ = next_edge_;
    }
    controls[edges_ / 4] |= uint8_t((wide ? wide_control(bytes) : bytes - 1u) << (2 * (edges_ % 4)));
    std::memcpy(data + data_bytes_, &value, 8);  // the bytes past its length are zeros, and the next value's go over them
    data_bytes_ += bytes;
    ++edges_;
    if constexpr (weighted) {
      weights_.push_back(weights[i]);
      raw_weights_ = raw_weights_ || !integer;
      weight_bytes_ += weight_bytes;
    }
    previous_ = targets[i];
    ++next_edge_;
  }
}

void CompressedPageEncoder::emit_page() {
  std::memset(page_.data(), 0, page_.size());
  const uint32_t count = uint32_t(edges_) | (raw_weights_ ? compressed_raw_weights : 0);
  std::memcpy(page_.data(), &count, 4);
  if (wide_) {
    std::memcpy(page_.data() + 8, &first_vertex_, 8);
  } else {
    const uint32_t first = uint32_t(first_vertex_);
    std::memcpy(page_.data() + 4, &first, 4);
  }
  const uint64_t control_bytes = (edges_ + 3) / 4;
  uint8_t* at = reinterpret_cast<uint8_t*>(page_.data() + compressed_header_bytes(wide_));
  std::memcpy(at, controls_.data(), control_bytes);
  std::memset(controls_.data(), 0, control_bytes);
  at += control_bytes;
  std::memcpy(at, data_.data(), data_bytes_);
  at += data_bytes_;
  if (weighted_ && raw_weights_) {
    std::memcpy(at, weights_.data(), weights_.size() * sizeof(float));
  } else if (weighted_) {
    // Weights: 1 to 4 bytes, whatever the ids, their controls then their data.
    uint8_t* control = at;
    uint8_t* data = at + control_bytes;
    for (size_t i = 0; i < weights_.size(); ++i) {
      const uint32_t weight = uint32_t(weights_[i]);
      const unsigned bytes = value_bytes(weight);
      control[i / 4] |= uint8_t((bytes - 1u) << (2 * (i % 4)));
      std::memcpy(data, &weight, 4);
      data += bytes;
    }
  }
  emit_(page_.data(), first_edge_);
  ++pages_;
  edges_ = 0;
  data_bytes_ = 0;
  weights_.clear();
  raw_weights_ = false;
  weight_bytes_ = 0;
}

void CompressedPageEncoder::finish() {
  if (edges_ != 0) emit_page();
}

namespace {

// The weights after a page's targets (their data ends at `data`); false
// when they would pass `end`.
template <class Sink>
bool decode_weights(const CompressedPageHeader& header, const uint8_t* data, const uint8_t* end, const Sink& weights, bool simd) {
  const uint64_t count = header.edges;
  if (header.raw_weights) {
    if (data + 4 * count > end) return false;
    weights.put_raw(data, count);
    return true;
  }
  const uint8_t* control = data;
  data += (count + 3) / 4;
  if (data > end) return false;
  uint64_t done = 0;
#if defined(__x86_64__)
  if (simd && has_sse41()) done = decode_weights_sse41(control, count, data, end, weights);
#else
  (void)simd;
#endif
  return decode_weights_scalar(control, done, count, data, end, weights);
}

// A page's targets into out (32- or 64-bit ids), its weights to
// `weights` (none: unweighted); the largest target, or UINT64_MAX when
// malformed.
template <class Id, class Sink>
uint64_t decode_page_as(const char* page, uint64_t page_bytes, Id* out, const Sink* weights, bool simd) {
  constexpr bool wide = sizeof(Id) == 8;
  const bool weighted = weights != nullptr;
  const CompressedPageHeader header = CompressedPageHeader::of(page, weighted, wide);
  const uint64_t count = header.edges;
  if (count > compressed_page_capacity(page_bytes, weighted, wide) ||
      header.first_vertex >= (wide ? compressed_max_wide_vertices : compressed_max_vertices)) {
    return UINT64_MAX;
  }
  const uint8_t* control = reinterpret_cast<const uint8_t*>(page + (wide ? compressed_wide_page_header_bytes : compressed_page_header_bytes));
  const uint8_t* data = control + (count + 3) / 4;
  const uint8_t* end = reinterpret_cast<const uint8_t*>(page + page_bytes);
  uint64_t done = 0;
  Id previous = Id(header.first_vertex), largest = 0;
#if defined(__x86_64__)
  if (simd && has_sse41()) {
    if constexpr (wide) done = decode_wide_sse41(control, count, data, end, out, previous, largest);
    else done = decode_sse41(control, count, data, end, out, previous, largest);
  }
#endif
  if (!decode_scalar(control, done, count, data, end, out, previous, largest)) return UINT64_MAX;
  if (weighted && !decode_weights(header, data, end, *weights, simd)) return UINT64_MAX;
  // A 64-bit target from 2^63 up is no vertex: returned as it is, the
  // caller refuses it (UINT64_MAX alone says malformed).
  return std::min<uint64_t>(largest, UINT64_MAX - 1);
}

}  // namespace

uint64_t decode_page(const char* page, uint64_t page_bytes, uint32_t* out, float* weights, bool simd) {
  const WeightArray sink{weights};
  return decode_page_as(page, page_bytes, out, weights ? &sink : nullptr, simd);
}

uint64_t decode_page_records(const char* page, uint64_t page_bytes, uint32_t* targets, char* records, bool simd) {
  const PairedRecords<uint32_t> sink{targets, records};
  return decode_page_as(page, page_bytes, targets, &sink, simd);
}

uint64_t decode_wide_page(const char* page, uint64_t page_bytes, uint64_t* out, float* weights, bool simd) {
  const WeightArray sink{weights};
  return decode_page_as(page, page_bytes, out, weights ? &sink : nullptr, simd);
}

uint64_t decode_wide_page_records(const char* page, uint64_t page_bytes, uint64_t* targets, char* records, bool simd) {
  const PairedRecords<uint64_t> sink{targets, records};
  return decode_page_as(page, page_bytes, targets, &sink, simd);
}

}  // namespace sluice::layout
