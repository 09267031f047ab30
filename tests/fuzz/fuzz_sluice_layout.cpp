// sluice's layout: a manifest, an index file and two drive files (length
// prefixed in the input), opened, verified, read through the block API
// and streamed once through the engine (push and pull).
#include "engine/engine.hpp"
#include "layout/sluice_layout.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

struct Count {
  std::vector<uint64_t>& sum;
  bool cond(uint64_t) { return true; }
  bool scatter(uint64_t, uint64_t, float, uint64_t& out) {
    out = 1;
    return true;
  }
  bool gather(uint64_t dst, const uint64_t& value) {
    sum[dst] += value;
    return true;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice;
  std::vector<std::string> files = fuzz::parts(data, size, 5);
  fuzz::put_text("g.sluice", files[0]);
  fuzz::put_text("g.out.index", files[1]);
  fuzz::put_text("g.in.index", files[2]);
  fuzz::put_text("g.out.0", files[3]);
  fuzz::put_text("g.in.0", files[4]);
  const std::string manifest = fuzz::scratch() / "g.sluice";
  try {
    layout::SluiceLayout layout(manifest);
    if (layout.info().vertices > (1u << 20) || layout.info().edges > (1u << 20)) return 0;
    try {
      layout.verify();
    } catch (const std::exception&) {
    }
    fuzz::read_everything(manifest);
    for (engine::Direction direction : {engine::Direction::push, engine::Direction::pull}) {
      engine::DiskGraph graph(manifest);
      engine::EngineOptions options;
      options.threads = 1;
      options.direction = direction;
      options.io.backend = io::BackendKind::psync;
      options.io.queue_depth = 2;
      options.verify_reads = direction == engine::Direction::push;  // pull: the targets' own check
      engine::Engine engine(graph, options);
      std::vector<uint64_t> sum(graph.vertices(), 0);
      Count f{sum};
      try {
        engine.edge_map<uint64_t>(engine::VertexSubset::all(graph.vertices()), f);
      } catch (const std::exception&) {
      }
    }
  } catch (const std::exception&) {
  }
  return 0;
}
