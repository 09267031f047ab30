#include "formats/webgraph_bv.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <vector>

#include "base/array.hpp"
#include "base/atomic_file.hpp"
#include "base/mapped_file.hpp"

namespace sluice::formats {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// WebGraph's natural-to-integer map: 0, -1, 1, -2, 2, ... (no overflow for
// any 64-bit v).
int64_t nat2int(uint64_t v) { return (v & 1) ? -int64_t(v >> 1) - 1 : int64_t(v >> 1); }

// x + delta, for the first successor of node x; a crafted code can hold any
// 64-bit delta, far beyond any graph (node counts are below 2^48).
int64_t successor_of(BitReader& r, uint64_t at, uint64_t x, int64_t delta) {
  if (delta > (int64_t(1) << 50) || delta < -(int64_t(1) << 50)) {
    r.fail(at, "node " + std::to_string(x) + ": successor offset " + std::to_string(delta) + " outside any graph");
  }
  return int64_t(x) + delta;
}

}  // namespace

std::string bv_basename(const std::string& path) {
  for (const char* ext : {".graph", ".properties", ".offsets"}) {
    if (path.ends_with(ext)) return path.substr(0, path.size() - std::strlen(ext));
  }
  return path;
}

BvProperties BvProperties::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw base::InputError(path, "", "cannot open the WebGraph properties file");
  std::map<std::string, std::pair<std::string, uint64_t>> values;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == '!') continue;
    size_t sep = t.find_first_of("=:");
    if (sep == std::string::npos) throw base::InputError(path, base::at_line(number), "expected 'key=value'");
    values[trim(t.substr(0, sep))] = {trim(t.substr(sep + 1)), number};
  }
  auto number_of = [&](const std::string& key, uint64_t fallback, bool required) -> uint64_t {
    auto it = values.find(key);
    if (it == values.end()) {
      if (required) throw base::InputError(path, "", "missing the property '" + key + "'");
      return fallback;
    }
    const std::string& v = it->second.first;
    char* end = nullptr;
    unsigned long long parsed = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || v[0] == '-') {
      throw base::InputError(path, base::at_line(it->second.second), "expected a natural number for '" + key + "', found '" + v + "'");
    }
    return parsed;
  };
  BvProperties p;
  auto cls = values.find("graphclass");
  if (cls != values.end() && cls->second.first.find("BVGraph") == std::string::npos) {
    throw base::InputError(path, base::at_line(cls->second.second), "graph class '" + cls->second.first + "' is not a BVGraph");
  }
  uint64_t version = number_of("version", 0, false);
  if (version != 0) throw base::InputError(path, "", "BV format version " + std::to_string(version) + " is not supported (expected 0)");
  p.nodes = number_of("nodes", 0, true);
  p.arcs = number_of("arcs", 0, true);
  p.window = unsigned(number_of("windowsize", 7, false));
  p.max_ref_count = unsigned(number_of("maxrefcount", 3, false));
  p.min_interval_length = unsigned(number_of("minintervallength", 4, false));
  p.zeta_k = unsigned(number_of("zetak", 3, false));
  if (p.zeta_k == 0 || p.zeta_k > 32) throw base::InputError(path, "", "zetak must be between 1 and 32");
  if (p.window > (1u << 20)) throw base::InputError(path, "", "windowsize " + std::to_string(p.window) + " is implausibly large");
  if (p.nodes > (uint64_t(1) << 48)) throw base::InputError(path, "", "nodes " + std::to_string(p.nodes) + " is implausibly large");
  if (p.min_interval_length > (1u << 20)) throw base::InputError(path, "", "minintervallength is implausibly large");

  auto flags = values.find("compressionflags");
  if (flags != values.end()) {
    std::string text = flags->second.first;
    size_t start = 0;
    while (start <= text.size()) {
      size_t bar = text.find('|', start);
      if (bar == std::string::npos) bar = text.size();
      std::string flag = trim(text.substr(start, bar - start));
      start = bar + 1;
      if (flag.empty()) continue;
      size_t underscore = flag.rfind('_');
      std::string what = underscore == std::string::npos ? flag : flag.substr(0, underscore);
      std::string code_name = underscore == std::string::npos ? "" : flag.substr(underscore + 1);
      static const std::map<std::string, BitCode> codes = {{"GAMMA", BitCode::gamma}, {"DELTA", BitCode::delta},
                                                           {"UNARY", BitCode::unary}, {"ZETA", BitCode::zeta},
                                                           {"NIBBLE", BitCode::nibble}};
      auto code = codes.find(code_name);
      BitCode* field = what == "OUTDEGREES" ? &p.outdegrees
                       : what == "REFERENCES" ? &p.references
                       : what == "BLOCKS" ? &p.blocks
                       : what == "RESIDUALS" ? &p.residuals
                       : what == "OFFSETS" ? &p.offsets
                       : what == "BLOCK_COUNT" ? &p.block_count
                       : nullptr;
      bool intervals = what == "INTERVALS";  // WebGraph always gamma-codes intervals
      if (code == codes.end() || (!field && !intervals)) {
        throw base::InputError(path, base::at_line(flags->second.second), "unknown compression flag '" + flag + "'");
      }
      if (field) *field = code->second;
    }
  }
  return p;
}

namespace {

// The whole compressed graph in memory, its node bit offsets and its CSR
// edge offsets (from the outdegrees).
struct BvData {
  BvProperties p;
  std::string graph_path;
  base::Array<uint8_t> bytes;  // .graph plus 16 zero bytes of padding
  uint64_t bits = 0;
  base::Array<uint64_t> bit_offsets;   // nodes + 1
  base::Array<uint64_t> edge_offsets;  // nodes + 1

  BitReader reader() const { return BitReader(bytes.data(), bits, &graph_path); }
};

void merge_sorted(const uint64_t* a, size_t na, const uint64_t* b, size_t nb, std::vector<uint64_t>& out) {
  out.resize(na + nb);
  size_t i = 0, j = 0, o = 0;
  while (i < na && j < nb) out[o++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < na) out[o++] = a[i++];
  while (j < nb) out[o++] = b[j++];
}

// Per-thread scratch for decoding one list.
template <class V>
struct Scratch {
  std::vector<uint64_t> copied, intervals, residuals, merged;
  std::map<uint64_t, std::vector<V>> decoded;  // lists decoded by random access
};

// Decodes the successor list of node x at the reader's position into `out`
// (which has room for `degree` ids). `list_of(y)` gives the successors of a
// previous node y as a span of V.
template <class V, class ListOf>
void decode_node(const BvData& g, BitReader& r, uint64_t x, V* out, uint64_t degree, ListOf&& list_of, Scratch<V>& s) {
  const BvProperties& p = g.p;
  const uint64_t node_bit = r.position();
  uint64_t d = r.read(p.outdegrees, p.zeta_k);
  if (d != degree) r.fail(node_bit, "node " + std::to_string(x) + ": outdegree " + std::to_string(d) + " disagrees with the offsets");
  if (d == 0) return;
  s.copied.clear();
  s.intervals.clear();
  s.residuals.clear();

  uint64_t ref = p.window > 0 ? r.read(p.references, p.zeta_k) : 0;
  if (ref > p.window) r.fail(node_bit, "node " + std::to_string(x) + ": reference " + std::to_string(ref) + " beyond the window of " + std::to_string(p.window));
  if (ref > x) r.fail(node_bit, "node " + std::to_string(x) + ": reference " + std::to_string(ref) + " before node 0");
  if (ref > 0) {
    auto reference = list_of(x - ref);
    uint64_t block_count = r.read(p.block_count, p.zeta_k);
    if (block_count > reference.size() + 1) r.fail(node_bit, "node " + std::to_string(x) + ": more copy blocks than referenced successors");
    uint64_t at = 0;
    for (uint64_t i = 0; i < block_count; ++i) {
      uint64_t length = r.read(p.blocks, p.zeta_k) + (i == 0 ? 0 : 1);
      if (length > reference.size() - at) r.fail(node_bit, "node " + std::to_string(x) + ": copy blocks exceed the referenced list");
      if ((i & 1) == 0) s.copied.insert(s.copied.end(), reference.begin() + at, reference.begin() + at + length);
      at += length;
    }
    if ((block_count & 1) == 0) s.copied.insert(s.copied.end(), reference.begin() + at, reference.end());
    if (s.copied.size() > d) r.fail(node_bit, "node " + std::to_string(x) + ": copies more successors than its outdegree");
  }
  uint64_t extra = d - s.copied.size();

  if (extra > 0 && p.min_interval_length > 0) {
    uint64_t count = r.read_gamma();
    int64_t prev = 0;
    for (uint64_t i = 0; i < count; ++i) {
      int64_t left;
      if (i == 0) {
        left = successor_of(r, node_bit, x, nat2int(r.read_gamma()));
      } else {
        const uint64_t gap = r.read_gamma();
        if (gap >= p.nodes) r.fail(node_bit, "node " + std::to_string(x) + ": interval gap outside the graph");
        left = prev + 1 + int64_t(gap);
      }
      const uint64_t raw_length = r.read_gamma();
      if (raw_length > extra) r.fail(node_bit, "node " + std::to_string(x) + ": interval longer than the outdegree");
      const uint64_t length = raw_length + p.min_interval_length;
      if (left < 0 || uint64_t(left) > p.nodes || length > p.nodes - uint64_t(left) || length > extra) {
        r.fail(node_bit, "node " + std::to_string(x) + ": interval outside the graph or longer than the outdegree");
      }
      for (uint64_t k = 0; k < length; ++k) s.intervals.push_back(uint64_t(left) + k);
      prev = left + int64_t(length);
      extra -= length;
    }
  }

  // Only residuals (the common case): straight into the output.
  if (s.copied.empty() && s.intervals.empty()) {
    int64_t value = successor_of(r, node_bit, x, nat2int(r.read(p.residuals, p.zeta_k)));
    for (uint64_t i = 0;; ++i) {
      if (value < 0 || uint64_t(value) >= p.nodes) r.fail(node_bit, "node " + std::to_string(x) + ": residual " + std::to_string(value) + " outside the graph");
      out[i] = V(value);
      if (i + 1 == d) return;
      uint64_t gap = r.read(p.residuals, p.zeta_k);
      if (gap >= p.nodes) r.fail(node_bit, "node " + std::to_string(x) + ": residual gap outside the graph");
      value += int64_t(gap) + 1;
    }
  }

  if (extra > 0) {
    int64_t value = successor_of(r, node_bit, x, nat2int(r.read(p.residuals, p.zeta_k)));
    for (uint64_t i = 0;; ++i) {
      if (value < 0 || uint64_t(value) >= p.nodes) r.fail(node_bit, "node " + std::to_string(x) + ": residual " + std::to_string(value) + " outside the graph");
      s.residuals.push_back(uint64_t(value));
      if (i + 1 == extra) break;
      uint64_t gap = r.read(p.residuals, p.zeta_k);
      if (gap >= p.nodes) r.fail(node_bit, "node " + std::to_string(x) + ": residual gap outside the graph");
      value += int64_t(gap) + 1;
    }
  }

  // Copied, interval and residual successors are each sorted: merge them.
  const std::vector<uint64_t>* extra_list = &s.residuals;
  if (!s.intervals.empty() && !s.residuals.empty()) {
    merge_sorted(s.intervals.data(), s.intervals.size(), s.residuals.data(), s.residuals.size(), s.merged);
    extra_list = &s.merged;
  } else if (!s.intervals.empty()) {
    extra_list = &s.intervals;
  }
  const uint64_t* a = s.copied.data();
  const uint64_t* b = extra_list->data();
  size_t na = s.copied.size(), nb = extra_list->size(), i = 0, j = 0, o = 0;
  while (i < na && j < nb) out[o++] = V(a[i] <= b[j] ? a[i++] : b[j++]);
  while (i < na) out[o++] = V(a[i++]);
  while (j < nb) out[o++] = V(b[j++]);
}

// Decodes node y alone, from its bit offset, resolving references the same way.
template <class V>
const std::vector<V>& decode_random(const BvData& g, uint64_t y, Scratch<V>& s, unsigned depth) {
  auto found = s.decoded.find(y);
  if (found != s.decoded.end()) return found->second;
  if (depth > g.p.max_ref_count + 1) {
    BitReader(g.bytes.data(), g.bits, &g.graph_path).fail(g.bit_offsets[y], "reference chain longer than maxrefcount " + std::to_string(g.p.max_ref_count));
  }
  uint64_t degree = g.edge_offsets[y + 1] - g.edge_offsets[y];
  std::vector<V> list(degree);
  Scratch<V> inner;  // the outer scratch is in use by the caller
  inner.decoded.swap(s.decoded);
  BitReader r = g.reader();
  r.seek(g.bit_offsets[y]);
  decode_node(g, r, y, list.data(), degree,
              [&](uint64_t z) { return std::span<const V>(decode_random(g, z, inner, depth + 1)); }, inner);
  s.decoded.swap(inner.decoded);
  if (s.decoded.size() > 4096) s.decoded.clear();
  return s.decoded[y] = std::move(list);
}

template <class V>
class BvSource : public GraphSource {
 public:
  explicit BvSource(std::shared_ptr<BvData> g) : g_(std::move(g)) {}
  base::GraphInfo info() const override { return {g_->p.nodes, g_->p.arcs, false, unsigned(sizeof(V))}; }
  std::string format_name() const override { return "bv"; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override {
    std::copy(g_->edge_offsets.data() + begin, g_->edge_offsets.data() + end + 1, out);
  }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float*) const override {
    const BvData& g = *g_;
    V* out = static_cast<V*>(targets);
    const uint64_t base = g.edge_offsets[begin];
    thread_local Scratch<V> scratch;
    scratch.decoded.clear();
    BitReader r = g.reader();
    if (begin < end) r.seek(g.bit_offsets[begin]);
    for (uint64_t x = begin; x < end; ++x) {
      if (r.position() != g.bit_offsets[x]) r.fail(r.position(), "node " + std::to_string(x) + " does not start where the offsets say (bit " + std::to_string(g.bit_offsets[x]) + ")");
      V* list = out + (g.edge_offsets[x] - base);
      decode_node(g, r, x, list, g.edge_offsets[x + 1] - g.edge_offsets[x],
                  [&](uint64_t y) -> std::span<const V> {
                    if (y < begin) return decode_random(g, y, scratch, 1);
                    return {out + (g.edge_offsets[y] - base), g.edge_offsets[y + 1] - g.edge_offsets[y]};
                  },
                  scratch);
    }
  }

 private:
  std::shared_ptr<BvData> g_;
};

// Bit offsets from BASENAME.offsets: n + 1 gaps in the offsets code.
void read_offsets_file(BvData& g, const std::string& path) {
  base::MappedFile file(path);
  base::Array<uint8_t> bytes(file.size() + 16, "offsets");
  std::memcpy(bytes.data(), file.data(), file.size());
  std::memset(bytes.data() + file.size(), 0, 16);
  BitReader r(bytes.data(), file.size() * 8, &path);
  uint64_t offset = 0;
  for (uint64_t x = 0; x <= g.p.nodes; ++x) {
    offset += r.read(g.p.offsets, g.p.zeta_k);
    if (offset > g.bits) {
      throw base::InputError(path, "node " + std::to_string(x), "offset " + std::to_string(offset) + " points past the end of " + g.graph_path + " (" + std::to_string(g.bits) + " bits)");
    }
    g.bit_offsets[x] = offset;
  }
}

// Without .offsets: one sequential pass over the graph finds them.
void build_offsets(BvData& g) {
  const uint64_t n = g.p.nodes;
  const unsigned w = g.p.window;
  std::vector<std::vector<uint64_t>> window(w + 1);
  Scratch<uint64_t> scratch;
  BitReader r = g.reader();
  for (uint64_t x = 0; x < n; ++x) {
    g.bit_offsets[x] = r.position();
    // Read the outdegree first to size the list, then decode from the start.
    uint64_t degree = r.read(g.p.outdegrees, g.p.zeta_k);
    if (degree > n) r.fail(g.bit_offsets[x], "node " + std::to_string(x) + ": outdegree " + std::to_string(degree) + " exceeds the node count");
    r.seek(g.bit_offsets[x]);
    auto& list = window[x % (w + 1)];
    list.resize(degree);
    decode_node(g, r, x, list.data(), degree,
                [&](uint64_t y) { return std::span<const uint64_t>(window[y % (w + 1)]); }, scratch);
  }
  g.bit_offsets[n] = r.position();
}

void save_offsets(const BvData& g, const std::string& path) {
  base::AtomicFile file(path);
  uint64_t buffer = 0;
  unsigned used = 0;  // bits in buffer
  auto put_bits = [&](uint64_t value, unsigned count) {
    for (unsigned i = count; i-- > 0;) {
      buffer = (buffer << 1) | ((value >> i) & 1);
      if (++used == 8) {
        uint8_t byte = uint8_t(buffer);
        file.write(&byte, 1);
        buffer = 0;
        used = 0;
      }
    }
  };
  uint64_t prev = 0;
  for (uint64_t x = 0; x <= g.p.nodes; ++x) {
    uint64_t v = g.bit_offsets[x] - prev + 1;  // gamma of gap: msb in unary, then the low bits
    prev = g.bit_offsets[x];
    unsigned msb = 63 - unsigned(__builtin_clzll(v));
    put_bits(0, msb);
    put_bits(1, 1);
    put_bits(v, msb);
  }
  if (used) put_bits(0, 8 - used);
  file.commit();
}

}  // namespace

std::unique_ptr<GraphSource> open_bv_graph(const std::string& path, const BvOpenOptions& options) {
  const std::string base = bv_basename(path);
  auto g = std::make_shared<BvData>();
  g->p = BvProperties::read(base + ".properties");
  g->graph_path = base + ".graph";
  {
    base::MappedFile file(g->graph_path, /*allow_empty=*/true);
    g->bytes = base::Array<uint8_t>(file.size() + 16, "the compressed graph");
    if (file.size()) std::memcpy(g->bytes.data(), file.data(), file.size());
    std::memset(g->bytes.data() + file.size(), 0, 16);
    g->bits = file.size() * 8;
  }
  const uint64_t n = g->p.nodes;
  if (n > g->bits + 1) {
    throw base::InputError(base + ".properties", "", "claims " + std::to_string(n) + " nodes, more than the " +
                                                   std::to_string(g->bits) + " bits of " + g->graph_path + " can hold");
  }
  g->bit_offsets = base::Array<uint64_t>(n + 1, "bit offsets");
  if (fs::exists(base + ".offsets")) {
    read_offsets_file(*g, base + ".offsets");
  } else {
    build_offsets(*g);
    if (options.save_offsets) save_offsets(*g, base + ".offsets");
  }

  // Outdegrees, read in parallel at each node's offset, give the CSR offsets.
  g->edge_offsets = base::Array<uint64_t>(n + 1, "edge offsets");
  std::vector<std::string> errors(base::resolve_threads(options.threads));
#pragma omp parallel for num_threads(base::resolve_threads(options.threads)) schedule(static)
  for (uint64_t x = 0; x < n; ++x) {
    try {
      BitReader r = g->reader();
      if (g->bit_offsets[x + 1] < g->bit_offsets[x]) r.fail(g->bit_offsets[x + 1], "node offsets decrease at node " + std::to_string(x + 1));
      r.seek(g->bit_offsets[x]);
      g->edge_offsets[x + 1] = r.read(g->p.outdegrees, g->p.zeta_k);
    } catch (const std::exception& e) {
      auto& slot = errors[omp_get_thread_num()];
      if (slot.empty()) slot = e.what();
    }
  }
  for (auto& e : errors) {
    if (!e.empty()) throw base::InputError(g->graph_path, "", e.substr(e.find(": ") == std::string::npos ? 0 : e.find(": ") + 2));
  }
  g->edge_offsets[0] = 0;
  for (uint64_t x = 0; x < n; ++x) {
    uint64_t degree = g->edge_offsets[x + 1];
    if (degree > n) throw base::InputError(g->graph_path, "node " + std::to_string(x), "outdegree " + std::to_string(degree) + " exceeds the node count");
    g->edge_offsets[x + 1] = g->edge_offsets[x] + degree;
  }
  if (g->edge_offsets[n] != g->p.arcs) {
    throw base::InputError(base + ".properties", "", "arcs=" + std::to_string(g->p.arcs) + " but the outdegrees in " +
                                                   g->graph_path + " add up to " + std::to_string(g->edge_offsets[n]));
  }
  if (n <= (uint64_t(1) << 32)) return std::make_unique<BvSource<uint32_t>>(std::move(g));
  return std::make_unique<BvSource<uint64_t>>(std::move(g));
}

}  // namespace sluice::formats
