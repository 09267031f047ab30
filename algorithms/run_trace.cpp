#include "algorithms/run_trace.hpp"

#include "base/interruption.hpp"

namespace sluice::algorithms {

namespace {
// On ranks: this rank and what it exchanged.
void add_exchange_stats(nlohmann::ordered_json& line, const engine::EdgeMapStats& s) {
  if (s.rank < 0) return;
  line["rank"] = s.rank;
  line["sent_bytes"] = s.sent_bytes;
  line["received_bytes"] = s.received_bytes;
  line["frontier_sent_bytes"] = s.frontier_sent_bytes;
  line["frontier_received_bytes"] = s.frontier_received_bytes;
  line["comm_seconds"] = s.comm_seconds;
  line["collectives"] = s.collectives;
}
}  // namespace

void add_stats(nlohmann::ordered_json& line, const engine::EdgeMapStats& s) {
  line["direction"] = engine::direction_name(s.direction);
  line["active_vertices"] = s.active_vertices;
  line["destinations"] = s.destinations;
  line["cached"] = s.cached;
  line["active_pages"] = s.active_pages;
  line["chunks"] = s.requests;
  line["bytes_read"] = s.bytes_read;
  line["bytes_skipped"] = s.bytes_skipped;
  line["cached_pages"] = s.cached_pages;
  line["full_scan"] = s.full_scan;
  line["seconds"] = s.seconds;
  line["plan_seconds"] = s.plan_seconds;
  line["io_seconds"] = s.io_seconds;
  line["scatter_seconds"] = s.scatter_seconds;
  line["gather_seconds"] = s.gather_seconds;
  line["vertex_seconds"] = s.vertex_seconds;
  line["bandwidth_mb_s"] = s.bandwidth() / 1e6;
  add_exchange_stats(line, s);
}

void RunTrace::record(const engine::Engine& engine, const char* phase, uint64_t iteration) {
  mark_ = std::chrono::steady_clock::now();
  const engine::EdgeMapStats& s = engine.last_stats();
  ++edge_maps_;
  bytes_read_ += s.bytes_read;
  edge_map_seconds_ += s.seconds;
  vertex_seconds_ += s.vertex_seconds;
  if (keep_records_) records_.push_back({phase, iteration, s});
  if (show_progress_) {
    if (!progress_) progress_ = std::make_unique<base::Progress>(algorithm_, 0, true, "bytes");
    progress_->set_what(algorithm_ + " trial " + std::to_string(trial_) + ": " + phase + " " + std::to_string(iteration) +
                        ", " + std::to_string(edge_maps_) + " EDGEMAPs, read");
    progress_->advance(s.bytes_read);
  }
  base::throw_if_interrupted();  // between EDGEMAPs, where stopping is clean
  if (!stats_) return;
  nlohmann::ordered_json line = {{"record", "edgemap"}, {"algorithm", algorithm_}, {"trial", trial_},
                                 {"phase", phase}, {"iteration", iteration}};
  add_stats(line, s);
  // An engine that runs as one process on a rank (Engine::transposed) still reads for this rank.
  if (rank_ >= 0 && !line.contains("rank")) line["rank"] = rank_;
  *stats_ << line.dump() << "\n";
}

void RunTrace::record_exchange(const engine::Engine& engine, const char* phase, uint64_t iteration) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - mark_).count();
  mark_ = now;
  const engine::EdgeMapStats& s = engine.last_stats();
  vertex_seconds_ += s.vertex_seconds;
  base::throw_if_interrupted();
  if (!stats_) return;
  nlohmann::ordered_json line = {{"record", "exchange"}, {"algorithm", algorithm_}, {"trial", trial_},
                                 {"phase", phase},       {"iteration", iteration},  {"seconds", seconds},
                                 {"vertex_seconds", s.vertex_seconds}};
  add_exchange_stats(line, s);
  *stats_ << line.dump() << "\n";
}

void RunTrace::end_trial(double seconds, uint64_t iterations, const std::string& digest,
                         const nlohmann::ordered_json& counts) {
  if (stats_) {
    nlohmann::ordered_json line = {{"record", "summary"}, {"algorithm", algorithm_}, {"trial", trial_},
                                   {"seconds", seconds},  {"iterations", iterations},  {"edge_maps", edge_maps_},
                                   {"bytes_read", bytes_read_}, {"digest", digest},
                                   {"edgemap_seconds", edge_map_seconds_}, {"vertex_seconds", vertex_seconds_}};
    if (rank_ >= 0) line["rank"] = rank_;
    for (const auto& [key, value] : counts.items()) {
      if (!line.contains(key)) line[key] = value;
    }
    *stats_ << line.dump() << "\n";
  }
  progress_.reset();  // its last line stays
  mark_ = std::chrono::steady_clock::now();
  ++trial_;
  edge_maps_ = bytes_read_ = 0;
  edge_map_seconds_ = vertex_seconds_ = 0;
  records_.clear();
}

}  // namespace sluice::algorithms
