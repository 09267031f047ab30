#include "algorithms/jtcc.hpp"

#include <atomic>
#include <limits>

#include "algorithms/union_find.hpp"
#include "base/interruption.hpp"

namespace sluice::algorithms {

namespace {

template <class Id>
JtccResult run(formats::BlockGraph& graph, uint64_t seed, engine::Communicator& ranks) {
  const uint64_t n = graph.info().vertices;
  ConcurrentForest<Id, RandomRank> forest(n, RandomRank{seed});
  std::atomic<uint64_t> edges{0};
  const VertexShare share = jtcc_share(n, ranks);
  auto id = graph.request(share.begin, share.end, [&](const formats::EdgeBlock& block) {
    if (base::interruption_requested()) {
      graph.release(block);
      throw base::Interrupted();
    }
    for (uint64_t v = block.begin; v < block.end; ++v) {
      for (uint64_t e = block.offsets[v - block.begin]; e < block.offsets[v - block.begin + 1]; ++e) {
        const uint64_t target = block.target(e - block.first_edge());
        if (target >= n) {
          graph.release(block);
          throw std::runtime_error("edge " + std::to_string(v) + " -> " + std::to_string(target) + " leaves the " +
                                   std::to_string(n) + " vertices");
        }
        forest.link(v, target);
      }
    }
    edges += block.edges;
    graph.release(block);
  });
  graph.wait(id);

  JtccResult result;
  result.edges = ranks.sum(uint64_t(edges));
  // Relabel by smallest member: scanning ascending, the first vertex seen
  // of a root is its component's smallest.
  result.label = base::Array<uint64_t>(n, "the component labels");
  std::fill(result.label.begin(), result.label.end(), std::numeric_limits<uint64_t>::max());
  for (uint64_t v = 0; v < n; ++v) {
    const Id root = forest.find(v);
    if (result.label[root] == std::numeric_limits<uint64_t>::max()) result.label[root] = v;
    result.label[v] = result.label[root];
  }
  ranks.merge_components(std::span<uint64_t>(result.label));
  result.rounds = 1;
  summarize_components(result);
  return result;
}

}  // namespace

VertexShare jtcc_share(uint64_t vertices, const engine::Communicator& ranks) {
  const uint64_t r = uint64_t(ranks.rank()), size = uint64_t(ranks.size());
  return {vertices * r / size, vertices * (r + 1) / size};
}

JtccResult jtcc(formats::BlockGraph& graph, uint64_t seed, engine::Communicator* communicator) {
  engine::SingleProcess alone;
  engine::Communicator& ranks = communicator ? *communicator : alone;
  return graph.info().vertices <= (uint64_t(1) << 32) ? run<uint32_t>(graph, seed, ranks) : run<uint64_t>(graph, seed, ranks);
}

}  // namespace sluice::algorithms
