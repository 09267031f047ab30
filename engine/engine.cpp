#include "engine/engine.hpp"

namespace sluice::engine {

Engine::Engine(const DiskGraph& graph, const EngineOptions& options)
    : graph_(graph),
      options_(options),
      threads_(options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()))),
      drives_(graph.drive_paths(), true, graph.page_bytes()),
      planner_(graph) {
  io_ = std::make_unique<io::IoService>(drives_, options_.io);
}

Engine::~Engine() = default;

}  // namespace sluice::engine
