#include "programs/convert_on_ranks.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "base/directory_lock.hpp"
#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "base/open_file_limit.hpp"
#include "formats/csr_builder.hpp"
#include "formats/external_csr.hpp"
#include "formats/graph_source.hpp"
#include "formats/spilled_edges.hpp"
#include "layout/drive_header.hpp"
#include "layout/manifest.hpp"

namespace sluice::programs {

namespace {

namespace fs = std::filesystem;

template <class T>
std::span<const char> bytes_of(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}
template <class T>
std::span<char> bytes_of(std::vector<T>& v) {
  return {reinterpret_cast<char*>(v.data()), v.size() * sizeof(T)};
}

// Every rank passes here before any goes on.
void barrier(engine::Communicator& ranks) {
  uint64_t one = 1;
  ranks.sum(std::span<uint64_t>(&one, 1));
}

// The edges of one kind a rank receives, kept by sender: read back in
// rank order, they are in the input's order. Held in memory up to a cap,
// then spilled, a scratch file per sender.
class ReceivedEdges {
 public:
  ReceivedEdges(unsigned senders, const std::string& temp_dir, uint64_t cap_bytes)
      : temp_dir_(temp_dir), cap_bytes_(cap_bytes), kept_(senders) {}
  void append(unsigned sender, const uint64_t* pairs, const float* weights, uint64_t count) {
    if (count == 0) return;
    const uint64_t bytes = count * (16 + (weights ? 4 : 0));
    if (spilled_.empty() && held_bytes_ + bytes > cap_bytes_) spill();
    edges_ += count;
    if (!spilled_.empty()) return spilled_[sender]->append_pairs(pairs, weights, count);
    for (uint64_t e = 0; e < count; ++e) kept_[sender].add(pairs[2 * e], pairs[2 * e + 1], weights ? weights + e : nullptr);
    held_bytes_ += bytes;
  }
  // One edge: a rank's edges for itself, kept as they come.
  void append(unsigned sender, uint64_t source, uint64_t target, const float* weight) {
    const uint64_t bytes = 16 + (weight ? 4 : 0);
    if (spilled_.empty() && held_bytes_ + bytes > cap_bytes_) spill();
    ++edges_;
    if (spilled_.empty()) {
      kept_[sender].add(source, target, weight);
      held_bytes_ += bytes;
      return;
    }
    // Spilled: gathered, and appended to the sender's file in bulk.
    if (sender != pending_sender_ || pending_.size() == 2 * pending_edges) flush_pending();
    pending_sender_ = sender;
    pending_.push_back(source);
    pending_.push_back(target);
    if (weight) pending_weights_.push_back(*weight);
  }
  // Every edge appended is in place for passes().
  void finish() { flush_pending(); }
  uint64_t edges() const { return edges_; }
  // Every sender's edges, sender after sender (this must outlive them).
  formats::EdgePasses passes(uint64_t chunk_edges) const {
    formats::EdgePasses passes;
    passes.edges = edges_;
    chunk_edges = std::max<uint64_t>(chunk_edges, 1);
    passes.pass = [this, chunk_edges](const formats::EdgeConsumer& consume) {
      for (const auto& f : spilled_) f->passes(chunk_edges).pass(consume);
      for (const Kept& k : kept_) {
        for (const Kept::Block& b : k.blocks) {
          for (uint64_t first = 0; first < b.size; first += chunk_edges) {
            const uint64_t n = std::min<uint64_t>(chunk_edges, b.size - first);
            consume(formats::EdgeChunk{b.sources.get() + first, b.targets.get() + first, b.weights ? b.weights.get() + first : nullptr, n});
          }
        }
      }
    };
    return passes;
  }

 private:
  // A sender's edges, in blocks that appending never moves (a growing
  // array copied every edge once more, and faulted in its pages anew).
  struct Kept {
    static constexpr uint64_t block_edges = uint64_t(1) << 20;
    struct Block {
      std::unique_ptr<uint64_t[]> sources, targets;
      std::unique_ptr<float[]> weights;
      uint64_t size = 0;
    };
    std::vector<Block> blocks;
    void add(uint64_t source, uint64_t target, const float* weight) {
      if (blocks.empty() || blocks.back().size == block_edges) {
        Block& b = blocks.emplace_back();
        b.sources.reset(new uint64_t[block_edges]);  // uninitialized: held only as filled
        b.targets.reset(new uint64_t[block_edges]);
        if (weight) b.weights.reset(new float[block_edges]);
      }
      Block& b = blocks.back();
      b.sources[b.size] = source;
      b.targets[b.size] = target;
      if (weight) b.weights[b.size] = *weight;
      ++b.size;
    }
  };
  static constexpr uint64_t pending_edges = uint64_t(1) << 16;
  void flush_pending() {
    if (pending_.empty()) return;
    spilled_[pending_sender_]->append_pairs(pending_.data(), pending_weights_.empty() ? nullptr : pending_weights_.data(),
                                            pending_.size() / 2);
    pending_.clear();
    pending_weights_.clear();
  }
  // Past the cap: what is held goes to the scratch files, and all after it.
  void spill() {
    for (Kept& k : kept_) {
      auto& file = spilled_.emplace_back(std::make_unique<formats::SpilledEdges>(temp_dir_, 1 << 20));
      std::vector<uint64_t> pairs;
      for (const Kept::Block& b : k.blocks) {
        pairs.resize(2 * b.size);
        for (uint64_t e = 0; e < b.size; ++e) pairs[2 * e] = b.sources[e], pairs[2 * e + 1] = b.targets[e];
        file->append_pairs(pairs.data(), b.weights.get(), b.size);
      }
      k = Kept{};
    }
    held_bytes_ = 0;
  }

  std::string temp_dir_;
  uint64_t cap_bytes_, held_bytes_ = 0, edges_ = 0;
  std::vector<uint64_t> pending_;  // pairs of one sender bound for its scratch file
  std::vector<float> pending_weights_;
  unsigned pending_sender_ = 0;
  std::vector<Kept> kept_;
  std::vector<std::unique_ptr<formats::SpilledEdges>> spilled_;
};

// Edges bound for each rank, as (source, target) pairs and weights.
struct Outbox {
  std::vector<uint64_t> pairs;
  std::vector<float> weights;
  uint64_t edges() const { return pairs.size() / 2; }
  void add(uint64_t source, uint64_t target, const float* weight) {
    pairs.push_back(source);
    pairs.push_back(target);
    if (weight) weights.push_back(*weight);
  }
  void clear() {
    pairs.clear();
    weights.clear();
  }
};

// The routing of a rank's share: edges into each rank's range (its part)
// and, with the transpose, out of it (its transpose's part), sent in
// rounds every rank takes part in until none has edges left.
class EdgeRouter {
 public:
  // Each kind received is held in memory up to `kept_bytes`.
  EdgeRouter(engine::Communicator& ranks, bool weighted, bool transpose, uint64_t round_edges, const std::string& temp_dir,
             uint64_t kept_bytes)
      : ranks_(ranks), p_(unsigned(ranks.size())), me_(unsigned(ranks.rank())), weighted_(weighted), round_edges_(round_edges),
        into_(p_), out_(p_), received_into_(p_, temp_dir, kept_bytes) {
    if (transpose) received_out_.emplace(p_, temp_dir, kept_bytes);
  }
  // A rank's edges for itself skip the outboxes: kept at once, they keep
  // their order among its own, and other senders' are kept apart.
  void into(unsigned owner, uint64_t source, uint64_t target, const float* weight) {
    if (owner == me_) return received_into_.append(me_, source, target, weight);
    into_[owner].add(source, target, weight);
    if (++held_ >= round_edges_) exchange(false);
  }
  void out_of(unsigned owner, uint64_t source, uint64_t target, const float* weight) {
    if (owner == me_) return received_out_->append(me_, source, target, weight);
    out_[owner].add(source, target, weight);
    if (++held_ >= round_edges_) exchange(false);
  }
  // This rank's share is sent: rounds until every rank's is.
  void finish() {
    while (!exchange(true)) {
    }
    received_into_.finish();
    if (received_out_) received_out_->finish();
  }
  const ReceivedEdges& received_into() const { return received_into_; }
  const ReceivedEdges* received_out() const { return received_out_ ? &*received_out_ : nullptr; }
  uint64_t sent_bytes() const { return sent_bytes_; }

 private:
  // One round; true when every rank had finished its share.
  bool exchange(bool finished) {
    const uint64_t w = weighted_ ? 4 : 0;
    // First what each will send: edges into, edges out of, finished.
    std::vector<uint64_t> header(3 * p_), got(3 * p_);
    for (unsigned d = 0; d < p_; ++d) header[3 * d] = into_[d].edges(), header[3 * d + 1] = out_[d].edges(), header[3 * d + 2] = finished;
    const std::vector<uint64_t> header_counts(p_, 3 * sizeof(uint64_t));
    ranks_.all_to_all(bytes_of(header), header_counts, bytes_of(got), header_counts);
    bool all_finished = true;
    for (unsigned s = 0; s < p_; ++s) all_finished = all_finished && got[3 * s + 2];

    // A rank's edges for itself are kept as they are, not sent.
    std::vector<uint64_t> send_counts(p_), receive_counts(p_);
    uint64_t send_total = 0, receive_total = 0;
    for (unsigned d = 0; d < p_; ++d) {
      if (d == me_) continue;
      send_counts[d] = (header[3 * d] + header[3 * d + 1]) * (16 + w);
      receive_counts[d] = (got[3 * d] + got[3 * d + 1]) * (16 + w);
      send_total += send_counts[d];
      receive_total += receive_counts[d];
    }
    std::vector<char> send(send_total), receive(receive_total);
    char* at = send.data();
    auto put = [&](const auto& v) {
      if (v.empty()) return;
      std::memcpy(at, v.data(), v.size() * sizeof(v[0]));
      at += v.size() * sizeof(v[0]);
    };
    for (unsigned d = 0; d < p_; ++d) {
      if (d == me_) continue;
      put(into_[d].pairs), put(into_[d].weights), put(out_[d].pairs), put(out_[d].weights);
      sent_bytes_ += send_counts[d];
      into_[d].clear(), out_[d].clear();
    }
    held_ = 0;
    ranks_.all_to_all(send, send_counts, receive, receive_counts);
    send = {};
    // Aligned copies: the pieces sit at any byte offset.
    const char* from = receive.data();
    std::vector<uint64_t> pairs;
    std::vector<float> weights;
    auto take = [&](uint64_t edges) {
      if (edges == 0) return std::pair<const uint64_t*, const float*>{nullptr, nullptr};
      pairs.resize(2 * edges);
      weights.resize(weighted_ ? edges : 0);
      std::memcpy(pairs.data(), from, edges * 16);
      from += edges * 16;
      if (weighted_) std::memcpy(weights.data(), from, edges * 4), from += edges * 4;
      return std::pair<const uint64_t*, const float*>{pairs.data(), weighted_ ? weights.data() : nullptr};
    };
    for (unsigned s = 0; s < p_; ++s) {
      if (s == me_) continue;  // kept as they came
      auto [in_pairs, in_weights] = take(got[3 * s]);
      received_into_.append(s, in_pairs, in_weights, got[3 * s]);
      if (got[3 * s + 1] == 0) continue;
      if (!received_out_) throw std::logic_error("edges out of a range came without --transpose");
      auto [out_pairs, out_weights] = take(got[3 * s + 1]);
      received_out_->append(s, out_pairs, out_weights, got[3 * s + 1]);
    }
    return all_finished;
  }

  engine::Communicator& ranks_;
  unsigned p_, me_;
  bool weighted_;
  uint64_t round_edges_, held_ = 0, sent_bytes_ = 0;
  std::vector<Outbox> into_, out_;
  ReceivedEdges received_into_;
  std::optional<ReceivedEdges> received_out_;
};

// The first source of each rank's share of `graph`'s edges, and last the
// vertex count: every rank reads about the same number of edges.
std::vector<uint64_t> edge_shares(const formats::GraphSource& graph, unsigned ranks) {
  const uint64_t n = graph.info().vertices, m = graph.info().edges;
  auto offset = [&](uint64_t v) {
    uint64_t o = 0;
    graph.read_offsets(v, v, &o);
    return o;
  };
  std::vector<uint64_t> shares{0};
  for (unsigned r = 1; r < ranks; ++r) {
    const uint64_t goal = uint64_t((unsigned __int128)m * r / ranks);
    uint64_t lo = shares.back(), hi = n;  // the first v with offset(v) >= goal
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (offset(mid) < goal) lo = mid + 1;
      else hi = mid;
    }
    shares.push_back(lo);
  }
  shares.push_back(n);
  return shares;
}

// What came, in rank order, built in memory as a CSR by source, or with
// `reversed` by target: each target's sources ascending, ties in the
// order they came, which is the transpose of the CSR by source.
template <class V>
std::unique_ptr<formats::GraphSource> built_in_memory(const formats::EdgePasses& passes, int threads, bool reversed) {
  formats::EdgeList<V> list;
  list.vertices = passes.vertices;
  list.weighted = passes.weighted;
  list.sources = base::Array<V>(passes.edges, "a part's received edges");
  list.targets = base::Array<V>(passes.edges, "a part's received edges");
  if (passes.weighted) list.weights = base::Array<float>(passes.edges, "a part's received weights");
  uint64_t at = 0;
  passes.pass([&](const formats::EdgeChunk& c) {
    for (uint64_t e = 0; e < c.size; ++e, ++at) {
      list.sources[at] = V(c.sources[e]);
      list.targets[at] = V(c.targets[e]);
      if (passes.weighted) list.weights[at] = c.weights ? c.weights[e] : 0.0f;
    }
  });
  formats::BuildOptions build;
  build.threads = threads;
  build.transpose = reversed;
  formats::Csr<V> csr = formats::build_csr(list, build);
  list = {};
  // A target's sources came sender after sender, each sender's ascending
  // or in its input's order: sorted here, stably (a source's duplicates,
  // and their weights, stay in the order they came).
  if (reversed) formats::sort_and_deduplicate(csr, csr.vertices, false, threads);
  csr.symmetric = passes.symmetric;
  return std::make_unique<formats::InMemorySource<V>>(std::move(csr), passes.format);
}

// A layout id all ranks share: rank 0's.
std::string shared_layout_id(engine::Communicator& ranks) {
  std::string mine = ranks.rank() == 0 ? layout::new_layout_id() : std::string(32, '0');
  std::vector<char> all(32 * size_t(ranks.size()));
  const std::vector<uint64_t> counts(size_t(ranks.size()), 32);
  ranks.all_gather(std::span<const char>(mine.data(), 32), all, counts);
  return std::string(all.data(), 32);
}

bool has_top_manifest(const std::string& path, const std::string& layout_id) {
  try {
    return layout::Manifest::read(path).layout_id == layout_id;
  } catch (const std::exception&) {
    return false;
  }
}

// The whole graph's figures from each rank's share of it: the largest
// vertex count and id width, every share's edges; the weights must agree.
base::GraphInfo whole_of_shares(const base::GraphInfo& mine, const std::string& share, engine::Communicator& ranks) {
  std::vector<uint64_t> most{mine.vertices, mine.id_bytes, mine.weighted, !mine.symmetric};
  std::vector<uint64_t> least{mine.weighted};
  ranks.max(most);
  ranks.min(least);
  if (most[2] != least[0]) throw std::invalid_argument(share + ": some ranks' shares are weighted and others are not");
  uint64_t edges = mine.edges;
  ranks.sum(std::span<uint64_t>(&edges, 1));
  return base::GraphInfo{most[0], edges, mine.weighted, unsigned(most[1]), most[3] == 0};
}

// Every rank's part staged: in place, then the top manifest, while rank 0
// holds the manifest directory's lock; a rank that does not share rank
// 0's manifest directory writes its own copy of the top manifest.
void publish_together(formats::RankedPartsWriter& writer, engine::Communicator& ranks, const std::string& manifest_path,
                      const base::GraphInfo& info, const base::IdMap& ids, const std::vector<uint64_t>& bounds,
                      const std::string& layout_id) {
  const std::string parent = fs::path(manifest_path).parent_path().string(), directory = parent.empty() ? "." : parent;
  {
    std::optional<base::DirectoryLock> lock;
    if (ranks.rank() == 0) lock.emplace(directory);
    barrier(ranks);
    writer.publish_parts();
    barrier(ranks);
    if (ranks.rank() == 0) writer.publish_top(info, ids, bounds, layout_id);
  }
  barrier(ranks);
  if (ranks.rank() != 0 && !has_top_manifest(manifest_path, layout_id)) {
    const base::DirectoryLock lock(directory);
    writer.publish_top(info, ids, bounds, layout_id);
  }
  writer.finish();
}

}  // namespace

ConvertedOnRanks convert_on_ranks(const std::string& input, const formats::OpenOptions& open, const std::string& manifest_path,
                                  const formats::RankedWriteOptions& requested, engine::Communicator& ranks) {
  const unsigned p = unsigned(ranks.size()), rank = unsigned(ranks.rank());
  if (requested.ranks != p) {
    throw std::invalid_argument("--ranks " + std::to_string(requested.ranks) + " under a job of " + std::to_string(p) +
                                " ranks: a conversion by the ranks writes one part per rank (give --ranks " + std::to_string(p) +
                                ", or run it without mpirun)");
  }
  if (input == "-" || base::is_read_once(input)) {
    throw std::invalid_argument(input + ": the ranks convert from files each of them opens, not from standard input or a pipe");
  }
  const bool own_shares = input.find("{rank}") != std::string::npos;
  const formats::BuildOptions& b = open.build;
  const bool whole_graph_options = b.symmetrize || b.remove_duplicates || b.sort_neighbors || b.relabel || b.order_by_degree;
  if (own_shares && whole_graph_options) {
    throw std::invalid_argument("--symmetrize, --dedup, --sort, --relabel and --reorder work on the whole graph: with the input in "
                                "shares ({rank}), convert without them, or give one input every rank reads");
  }
  // One edge list, text or binary: each rank reads its share of the
  // lines or pairs, as if the file were cut into shares, unless an option
  // needs the whole graph.
  const std::string input_format = own_shares || !open.format.empty() ? open.format : formats::detect_format(input);
  const bool edge_list = input_format == "el" || input_format == "wel" || input_format == "bel" || input_format == "bel64";
  const bool cut_input = !own_shares && !whole_graph_options && edge_list;
  const bool shared_input = own_shares || cut_input;
  formats::RankedWriteOptions options = requested;
  // Scratch files on the rank's own drive, where its part goes.
  if (options.memory.temp_dir.empty()) {
    const std::vector<std::string> drives = formats::part_drive_dirs(options.drive_patterns, rank);
    options.memory.temp_dir = drives.empty() ? fs::path(manifest_path).parent_path().string() : drives.front();
    if (options.memory.temp_dir.empty()) options.memory.temp_dir = ".";
  }
  // Opening comes first: before the drive directories are made, a
  // bounded build of the input goes beside the manifest.
  formats::OpenOptions open_here = open;
  if (cut_input) open_here.load.share = rank, open_here.load.shares = p;
  // The transpose's edges are routed to their owners, not built here.
  open_here.build.transpose_alongside = false;
  const std::string beside_manifest = fs::path(manifest_path).parent_path().string();
  open_here.build.memory.temp_dir = fs::is_directory(options.memory.temp_dir) ? options.memory.temp_dir
                                    : beside_manifest.empty()                  ? "."
                                                                               : beside_manifest;

  // Every rank's checks before any rank writes or reads much: the job
  // stops at the first refusal.
  const std::string my_input = own_shares ? formats::part_drive_dirs({input}, rank).front() : input;
  std::unique_ptr<formats::BlockGraph> graph = formats::BlockGraph::open(my_input, open_here);
  const base::GraphInfo mine = graph->info();
  const base::GraphInfo info = shared_input ? whole_of_shares(mine, my_input, ranks) : mine;
  if (p > std::max<uint64_t>(info.vertices, 1)) {
    throw std::invalid_argument("--ranks " + std::to_string(p) + " is more than the graph's " + std::to_string(info.vertices) +
                                " vertices");
  }
  std::vector<unsigned> here{rank};
  formats::RankedPartsWriter writer(manifest_path, options, here, true, !graph->source().ids().empty());
  const uint64_t n = info.vertices;

  // This rank's share of the sources, and the ranges from the in-degrees.
  const std::vector<uint64_t> shares = shared_input ? std::vector<uint64_t>{0, mine.vertices} : edge_shares(graph->source(), p);
  const uint64_t share_begin = shared_input ? 0 : shares[rank], share_end = shared_input ? mine.vertices : shares[rank + 1];
  std::vector<uint64_t> bounds;
  {
    std::vector<uint64_t> in_degrees(n, 0);
    formats::for_each_block_in_order(*graph, share_begin, share_end, [&](const formats::EdgeBlock& block) {
      for (uint64_t i = 0; i < block.edges; ++i) ++in_degrees[block.target(i)];
    });
    ranks.sum(in_degrees);
    bounds = formats::rank_boundaries(in_degrees, p, formats::ranked_layout_alpha);
  }
  auto owner = [&](uint64_t v) { return unsigned(std::upper_bound(bounds.begin() + 1, bounds.end() - 1, v) - bounds.begin() - 1); };

  // A round sends at most 16 MiB, or less so that what it sends and what
  // it may receive (as much from every rank) fit a quarter of the limit.
  const uint64_t record_bytes = 16 + (info.weighted ? 4 : 0);
  const uint64_t round_bytes = std::min<uint64_t>(options.memory.limit / 4 / (p + 1), uint64_t(16) << 20);
  const uint64_t round_edges = std::max<uint64_t>(round_bytes / record_bytes, 4096);
  base::reserve_open_files(2 * size_t(p) + 16, "a conversion by " + std::to_string(p) + " ranks (a scratch file per rank and kind)");
  // What is received is held up to an eighth of the limit for each kind.
  EdgeRouter router(ranks, info.weighted, options.transpose, round_edges, options.memory.temp_dir, options.memory.limit / 8);
  formats::for_each_block_in_order(*graph, share_begin, share_end, [&](const formats::EdgeBlock& block) {
    for (uint64_t u = block.begin; u < block.end; ++u) {
      const unsigned source_owner = options.transpose ? owner(u) : 0;
      for (uint64_t i = block.offsets[u - block.begin] - block.first_edge(); i < block.offsets[u - block.begin + 1] - block.first_edge(); ++i) {
        const uint64_t v = block.target(i);
        const float* w = block.weights ? block.weights + i : nullptr;
        router.into(owner(v), u, v, w);
        if (options.transpose) router.out_of(source_owner, u, v, w);
      }
    }
  });
  router.finish();
  const std::string format = graph->format();
  const base::IdMap& ids = graph->source().ids();

  // The part: what came, in rank order, built by source over every vertex.
  const std::string layout_id = shared_layout_id(ranks);
  formats::BuildMemory memory = options.memory;
  formats::BuildOptions build;
  build.threads = options.threads;
  build.memory = memory;
  build.sorted_for_pages = options.layout.compress;
  auto built = [&](const ReceivedEdges& received, bool reversed) {
    formats::EdgePasses passes = received.passes(formats::chunk_edges(memory));
    passes.vertices = n;
    passes.weighted = info.weighted;
    passes.id_bytes = info.id_bytes;
    passes.keep_wide = true;
    passes.symmetric = info.symmetric;
    passes.format = format;
    // In memory when the edge list, the builder's records and the CSR
    // (about 3 copies of the edges) and the offsets take at most half the
    // limit; on scratch files otherwise.
    const uint64_t in_memory_bytes = passes.edges * 3 * (info.id_bytes * 2 + (info.weighted ? 4 : 0)) + (n + 1) * 16;
    if (in_memory_bytes <= memory.limit / 2 && in_memory_bytes <= base::available_memory() / 2) {
      auto source = info.id_bytes == 4 ? built_in_memory<uint32_t>(passes, options.threads, reversed)
                                       : built_in_memory<uint64_t>(passes, options.threads, reversed);
      return std::make_unique<formats::BlockGraph>(std::move(source), graph->options());
    }
    auto by_source = std::make_unique<formats::BlockGraph>(formats::build_external_csr(std::move(passes), build), graph->options());
    return reversed ? formats::transpose_of(*by_source, options.threads, memory) : std::move(by_source);
  };
  {
    std::unique_ptr<formats::BlockGraph> part = built(router.received_into(), false);
    writer.stage(*part, rank, false, bounds, layout_id);
  }
  if (options.transpose) {
    // The edges out of the range, reversed: the transpose graph's edges
    // into it, as the one-machine split of the transpose.
    std::unique_ptr<formats::BlockGraph> reversed = built(*router.received_out(), true);
    writer.stage(*reversed, rank, true, bounds, layout_id);
  }

  publish_together(writer, ranks, manifest_path, info, ids, bounds, layout_id);
  return ConvertedOnRanks{info, format, router.sent_bytes()};
}

}  // namespace sluice::programs
