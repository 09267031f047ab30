// What one algorithm run did, EDGEMAP by EDGEMAP: the totals a program
// prints in its summary line and, when asked for, the --stats file: JSON
// lines, each with a "record" field —
//   "run"      first: what produced the file (sluice version, graph,
//              engine options, algorithm parameters; see set_run);
//   "edgemap"  one per EDGEMAP: trial, phase, iteration and the engine's
//              statistics (engine.hpp, EdgeMapStats);
//   "exchange" on ranks, one per step that only exchanged values (WCC's
//              label rounds): what crossed the network, no edges;
//   "summary"  one per trial: seconds, iterations, EDGEMAPs, bytes read,
//              the digest of the result, and where the seconds went: in
//              EDGEMAPs, and in vertex work on the engine's threads
//              before each (the rest ran on one thread, or after the
//              last EDGEMAP).
// The field names are listed in docs/statistics.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/progress.hpp"
#include "engine/engine.hpp"

namespace sluice::algorithms {

// One EDGEMAP's statistics as the fields of a JSON record (--stats lines,
// the Python module's edgemaps): the one place EdgeMapStats becomes text.
void add_stats(nlohmann::ordered_json& line, const engine::EdgeMapStats& stats);

// One EDGEMAP as a trace keeps it (keep_records).
struct EdgeMapRecord {
  std::string phase;
  uint64_t iteration = 0;
  engine::EdgeMapStats stats;
};

class RunTrace {
 public:
  RunTrace(std::string algorithm, std::ostream* stats = nullptr) : algorithm_(std::move(algorithm)), stats_(stats) {}

  // The trial's kernel starts now: an exchange step before its first
  // EDGEMAP counts its seconds from here, not from opening the graph.
  void start_trial() { mark_ = std::chrono::steady_clock::now(); }

  // Adds the engine's last EDGEMAP; throws Interrupted (formats/
  // interruption.hpp) when a stop was requested, so runs end between EDGEMAPs.
  void record(const engine::Engine& engine, const char* phase, uint64_t iteration);
  // Adds a step that only exchanged values between ranks
  // (Engine::end_exchange_step): an "exchange" record with its seconds
  // (since the run's previous record, of whichever engine, or the
  // trial's start: an algorithm may run EDGEMAPs on several engines, as
  // WCC on ranks does on the parts' transposed ones), vertex work, rank,
  // bytes sent and received and communication seconds. Its vertex work
  // counts in the summary's; it is no EDGEMAP.
  void record_exchange(const engine::Engine& engine, const char* phase, uint64_t iteration);
  // Closes a trial with its summary record; the next EDGEMAPs belong to
  // the next trial. Totals restart with it.
  // `counts`: more fields of the summary record (the algorithm's counts:
  // "reached", "converged", ...).
  void end_trial(double seconds, uint64_t iterations, const std::string& digest,
                 const nlohmann::ordered_json& counts = nlohmann::ordered_json::object());

  // On a terminal, a line per trial on stderr kept current: the phase and
  // iteration, bytes read and their rate (the programs turn it on).
  void show_progress(bool show) { show_progress_ = show; }
  // Keeps every EDGEMAP's statistics of the current trial (sluice sweep).
  void keep_records(bool keep) { keep_records_ = keep; }
  // Distributed runs: the summary records carry this rank too (EDGEMAP
  // records carry it from their statistics).
  void set_rank(int rank) { rank_ = rank; }
  const std::vector<EdgeMapRecord>& records() const { return records_; }

  const std::string& algorithm() const { return algorithm_; }
  uint64_t trial() const { return trial_; }
  uint64_t edge_maps() const { return edge_maps_; }
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  std::string algorithm_;
  std::ostream* stats_;
  uint64_t trial_ = 0, edge_maps_ = 0, bytes_read_ = 0;
  double edge_map_seconds_ = 0, vertex_seconds_ = 0;
  int rank_ = -1;
  std::chrono::steady_clock::time_point mark_ = std::chrono::steady_clock::now();  // the last record's, or the trial's start
  bool keep_records_ = false, show_progress_ = false;
  std::unique_ptr<base::Progress> progress_;
  std::vector<EdgeMapRecord> records_;
};

}  // namespace sluice::algorithms
