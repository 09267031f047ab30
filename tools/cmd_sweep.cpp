// sluice sweep GRAPH.sluice [GRAPH2.sluice ...]: runs algorithms at each of
// a list of skipping thresholds λ, repeats alternating, and records time,
// bytes read and skipped, requests and bandwidth per run and per EDGEMAP.
// Several layouts (the same graph on two devices) make a device comparison;
// each device's calibrated λ (its `sluice calibrate` profile) joins the
// list and is marked. `sluice plot` draws the CSV.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <sys/sysmacros.h>

#include "io/device_profile.hpp"
#include "io/drive_set.hpp"
#include "programs/algorithm_run.hpp"
#include "tools/commands.hpp"

namespace sluice::tools {

using namespace programs;  // the commands are built on the programs library

namespace {

// One layout: the device it lives on and that device's calibration.
struct Device {
  std::string path;
  std::unique_ptr<engine::DiskGraph> out;
  std::string name;  // MAJOR:MINOR of the first drive file's file system
  std::optional<engine::DeviceCalibration> calibration;  // its `sluice calibrate` profile
  std::vector<PreparedAlgorithm> prepared;  // one per algorithm to run, in order
};

struct Run {
  const Device* device;
  std::string algorithm;
  engine::SkipThreshold skip;
  bool calibrated;
  unsigned repeat;
  double seconds;
  uint64_t iterations;
  std::string digest;
  std::vector<algorithms::EdgeMapRecord> edge_maps;
  uint64_t total(uint64_t engine::EdgeMapStats::*field) const {
    uint64_t sum = 0;
    for (const auto& r : edge_maps) sum += r.stats.*field;
    return sum;
  }
  double io_seconds() const {
    double sum = 0;
    for (const auto& r : edge_maps) sum += r.stats.io_seconds;
    return sum;
  }
};

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t k = values.size();
  return k % 2 ? values[k / 2] : (values[k / 2 - 1] + values[k / 2]) / 2;
}

// How sure a recommendation is: the next best λ (its text, its time over
// the best's) must be slower than the repeats move one λ's time.
std::string how_sure(const std::optional<std::pair<std::string, double>>& next_best, unsigned repeats, double widest_spread) {
  char text[256];
  if (!next_best) return "the only λ run";
  const auto& [lambda, ratio] = *next_best;
  if (repeats < 2) {
    std::snprintf(text, sizeof(text), "not sure: the next best, %s, takes %.2fx, and one run per λ measures no noise (--repeat 3)",
                  lambda.c_str(), ratio);
  } else if (ratio - 1 > widest_spread) {
    std::snprintf(text, sizeof(text), "sure: the next best, %s, takes %.2fx, more than the repeats differ (up to %.0f%%)",
                  lambda.c_str(), ratio, 100 * widest_spread);
  } else {
    std::snprintf(text, sizeof(text), "not sure: the next best, %s, takes %.2fx, within what the repeats differ (up to %.0f%%)",
                  lambda.c_str(), ratio, 100 * widest_spread);
  }
  return text;
}

}  // namespace

int cmd_sweep(int argc, char** argv) {
  std::string names;
  for (const Algorithm& a : algorithm_table()) names += (names.empty() ? "" : ", ") + a.name;
  const std::string algorithm_help = "comma-separated: " + names;
  po::options_description options("sluice sweep GRAPH.sluice [GRAPH2.sluice ...]");
  options.add_options()
    ("graphs", po::value<std::vector<std::string>>()->multitoken()->required(), "layouts to run on; several (the same graph on other devices) compare the devices")
    ("algorithm", po::value<std::string>()->default_value("bfs"), algorithm_help.c_str())
    ("skip-thresholds", po::value<std::string>()->default_value("0,16k,64k,256k,1m,inf"), "λ values to run at; each device's calibrated λ is added")
    ("repeat", po::value<unsigned>()->default_value(3), "runs per λ; repeats alternate over the λ list, reversed every other round")
    ("output,o", po::value<std::string>()->default_value(""), "write one CSV row per run to this file")
    ("edgemaps", po::value<std::string>()->default_value(""), "write one CSV row per EDGEMAP to this file");
  po::options_description parameters("the algorithms' parameters (each as `sluice NAME --help` describes it)");
  add_every_algorithm_option(parameters);
  options.add(parameters);
  add_engine_options(options, nullptr);
  po::positional_options_description positionals;
  positionals.add("graphs", -1);
  po::variables_map v;
  if (!parse_command_line(argc, argv,
                          "usage: sluice sweep GRAPH.sluice [GRAPH2.sluice ...] [--algorithm bfs,pagerank]\n"
                          "                    [--skip-thresholds 0,16k,64k,256k,1m,inf] [--repeat 3] [--output sweep.csv]\n"
                          "Draw the CSV with: sluice plot sweep.csv -o sweep.png",
                          options, positionals, v)) {
    return exit_ok;
  }
  std::vector<base::NamedFile> inputs;
  for (const std::string& graph : v["graphs"].as<std::vector<std::string>>()) {
    for (base::NamedFile& f : layout::sluice_layout_files(graph)) inputs.push_back(std::move(f));
  }
  ProgramOutputs outputs(v, inputs);
  outputs.expect(v, "edgemaps");
  std::vector<const Algorithm*> algorithms_to_run;
  for (const std::string& name : split_list(v["algorithm"].as<std::string>())) {
    try {
      algorithms_to_run.push_back(&find_algorithm(name));
    } catch (const po::error& e) {
      throw po::error(std::string("--algorithm: ") + e.what());
    }
    algorithms_to_run.back()->check(v);
  }
  std::vector<engine::SkipThreshold> thresholds;
  for (const auto& t : split_list(v["skip-thresholds"].as<std::string>())) {
    try {
      thresholds.push_back(parse_skip_threshold(t));
    } catch (const po::error& e) {
      throw po::error(std::string("--skip-thresholds: ") + e.what());
    }
  }
  if (thresholds.empty()) throw po::error("--skip-thresholds lists no threshold");
  const unsigned repeats = v["repeat"].as<unsigned>();
  if (repeats == 0) throw po::error("--repeat must be at least 1");

  // Open every layout first: a missing transpose fails before any run.
  std::vector<Device> devices;
  for (const auto& path : v["graphs"].as<std::vector<std::string>>()) {
    Device d;
    d.path = path;
    d.out = std::make_unique<engine::DiskGraph>(path);
    const std::map<std::string, std::vector<double>> no_vectors;
    for (const Algorithm* a : algorithms_to_run) {
      if (opens_transpose(a->transpose(v)) && !d.out->has_reversed()) {
        throw base::InputError(path, "", a->name + " needs the transpose: convert with --transpose");
      }
      if (a->transpose(v) == Transpose::undirected && !d.out->info().symmetric) {
        throw base::InputError(path, "", a->name + " needs an undirected graph: convert with --symmetrize");
      }
      d.prepared.push_back(a->prepare({v, *d.out, no_vectors, &outputs}));  // parameters read once per layout
    }
    const uint64_t device = io::DriveFile(d.out->drive_paths().at(0), false).device();
    d.name = std::to_string(major(dev_t(device))) + ":" + std::to_string(minor(dev_t(device)));
    d.calibration = engine::calibration_of(*d.out);
    devices.push_back(std::move(d));
  }

  std::vector<Run> runs;
  for (unsigned repeat = 0; repeat < repeats; ++repeat) {
    for (const Device& device : devices) {
      std::vector<std::pair<engine::SkipThreshold, bool>> order;
      for (const auto& t : thresholds) order.push_back({t, false});
      if (device.calibration) {
        const engine::SkipThreshold calibrated = engine::default_skip_threshold(*device.out).threshold;
        auto same = [&](const auto& entry) { return !entry.first.infinite && entry.first.bytes == calibrated.bytes; };
        auto it = std::find_if(order.begin(), order.end(), same);
        if (it != order.end()) it->second = true;
        else order.push_back({calibrated, true});
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
          return !a.first.infinite && (b.first.infinite || a.first.bytes < b.first.bytes);
        });
      }
      if (repeat % 2) std::reverse(order.begin(), order.end());
      for (size_t k = 0; k < algorithms_to_run.size(); ++k) {
        const std::string& algorithm = algorithms_to_run[k]->name;
        const bool transpose = opens_transpose(algorithms_to_run[k]->transpose(v));
        for (const auto& [skip, calibrated] : order) {
          engine::EngineOptions o = engine_options_from(v, *device.out);
          o.skip = skip;
          engine::Engine out(*device.out, o);
          std::unique_ptr<engine::Engine> in;
          if (transpose) in = out.transposed();
          algorithms::RunTrace trace(algorithm);
          trace.keep_records(true);
          const AlgorithmResult result = device.prepared[k].run({out, in.get()}, trace);
          Run run{&device, algorithm, skip, calibrated, repeat, result.seconds, result.iterations, result.digest,
                  trace.records()};
          std::fprintf(stderr, "%s %s λ=%s%s repeat %u: %.3f s, %.1f MB read\n", device.path.c_str(), algorithm.c_str(),
                       skip.text().c_str(), calibrated ? " (calibrated)" : "", repeat, run.seconds,
                       double(run.total(&engine::EdgeMapStats::bytes_read)) / 1e6);
          runs.push_back(std::move(run));
        }
      }
    }
  }

  // The table: medians over the repeats, per device, algorithm and λ.
  auto label_of = [](const Device& d) { return d.path + " (" + d.name + ")"; };
  int width = 14;
  for (const Device& d : devices) width = std::max(width, int(label_of(d).size()));
  std::printf("%-*s %-9s %10s %10s %10s %10s %10s %8s\n", width, "graph (device)", "algorithm", "λ", "seconds", "MB read",
              "MB skipped", "requests", "vs best");
  std::vector<std::string> notes;
  for (const Device& device : devices) {
    // Per λ, the log of its time relative to each algorithm's best, summed:
    // the recommended λ has the least geometric mean over the algorithms.
    std::map<std::pair<bool, uint64_t>, std::pair<double, size_t>> relative;
    std::map<std::pair<bool, uint64_t>, std::string> lambda_text;
    double widest_relative_spread = 0;  // of the repeats at one λ, over the median: what one more run could move
    for (const Algorithm* a : algorithms_to_run) {
      const std::string& algorithm = a->name;
      std::map<std::pair<bool, uint64_t>, std::vector<const Run*>> by_skip;  // (infinite, bytes) sorts inf last
      for (const Run& r : runs) {
        if (r.device == &device && r.algorithm == algorithm) by_skip[{r.skip.infinite, r.skip.bytes}].push_back(&r);
      }
      double best = 1e300, worst = 0, spread = 0;
      for (const auto& [key, list] : by_skip) {
        std::vector<double> s;
        for (const Run* r : list) s.push_back(r->seconds);
        best = std::min(best, median(s));
        worst = std::max(worst, median(s));
        const double range = *std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end());
        spread = std::max(spread, range);
        if (median(s) > 0) widest_relative_spread = std::max(widest_relative_spread, range / median(s));
      }
      // Repeats that differ more than λ moves the median: the ranking is noise.
      if (repeats > 1 && spread > worst - best) {
        char text[256];
        std::snprintf(text, sizeof(text), "note: %s on %s: repeats spread up to %.3f s, more than λ moves the median (%.3f s): "
                      "the differences between λ values are noise here (more --repeat, or a larger graph)",
                      algorithm.c_str(), label_of(device).c_str(), spread, worst - best);
        notes.push_back(text);
      }
      for (const auto& [key, list] : by_skip) {
        std::vector<double> s, mb, skipped, requests;
        for (const Run* r : list) {
          s.push_back(r->seconds);
          mb.push_back(double(r->total(&engine::EdgeMapStats::bytes_read)) / 1e6);
          skipped.push_back(double(r->total(&engine::EdgeMapStats::bytes_skipped)) / 1e6);
          requests.push_back(double(r->total(&engine::EdgeMapStats::requests)));
        }
        const std::string label = label_of(device);
        const std::string lambda = list.front()->skip.text() + (list.front()->calibrated ? "*" : "");
        std::printf("%-*s %-9s %10s %10.3f %10.1f %10.1f %10.0f %8.2f\n", width, label.c_str(), algorithm.c_str(), lambda.c_str(),
                    median(s), median(mb), median(skipped), median(requests), median(s) / best);
        relative[key].first += std::log(best > 0 ? median(s) / best : 1.0);
        ++relative[key].second;
        lambda_text[key] = list.front()->skip.text();
      }
    }
    // The λ values every algorithm ran at, by their geometric mean.
    std::vector<std::pair<double, std::pair<bool, uint64_t>>> ranked;
    for (const auto& [key, sum] : relative) {
      if (sum.second == algorithms_to_run.size()) ranked.push_back({std::exp(sum.first / double(sum.second)), key});
    }
    std::sort(ranked.begin(), ranked.end());
    if (!ranked.empty()) {
      std::printf("recommended λ for %s: %s (time %.2fx each algorithm's best, geometric mean); %s\n", label_of(device).c_str(),
                  lambda_text[ranked[0].second].c_str(), ranked[0].first,
                  how_sure(ranked.size() > 1 ? std::optional(std::pair(lambda_text[ranked[1].second], ranked[1].first / ranked[0].first))
                                             : std::nullopt,
                           repeats, widest_relative_spread)
                      .c_str());
    }
  }
  for (const std::string& note : notes) std::printf("%s\n", note.c_str());
  const bool any_profile = std::any_of(devices.begin(), devices.end(), [](const Device& d) { return d.calibration.has_value(); });
  std::printf("%smedians of %u run(s)\n", any_profile ? "* the device's calibrated λ (sluice calibrate); " : "", repeats);

  std::ostringstream csv;
  csv << "graph,device,algorithm,skip_threshold,skip_threshold_bytes,calibrated,repeat,seconds,iterations,edge_maps,"
         "bytes_read,bytes_skipped,requests,io_seconds,bandwidth_mb_s,digest,calibrated_skip_threshold,request_cost_ns,"
         "bandwidth_bytes_per_s,profile\n";
  std::ostringstream per_edge_map;
  per_edge_map << "graph,device,algorithm,skip_threshold,repeat,phase,iteration,direction,active_vertices,destinations,"
                  "active_pages,chunks,bytes_read,bytes_skipped,seconds,io_seconds\n";
  for (const Run& r : runs) {
    const Device& d = *r.device;
    const uint64_t read = r.total(&engine::EdgeMapStats::bytes_read);
    csv << csv_field(d.path) << "," << d.name << "," << r.algorithm << "," << r.skip.text() << ","
        << (r.skip.infinite ? std::string() : std::to_string(r.skip.bytes)) << "," << (r.calibrated ? "true" : "false") << ","
        << r.repeat << "," << r.seconds << "," << r.iterations << "," << r.edge_maps.size() << "," << read << ","
        << r.total(&engine::EdgeMapStats::bytes_skipped) << "," << r.total(&engine::EdgeMapStats::requests) << ","
        << r.io_seconds() << "," << (r.seconds > 0 ? double(read) / r.seconds / 1e6 : 0.0) << "," << csv_field(r.digest)
        << ",";
    if (d.calibration) {
      const io::DeviceProfile& profile = d.calibration->profile;
      csv << profile.skip_threshold << "," << profile.request_cost_ns << "," << profile.bandwidth << ","
          << csv_field(d.calibration->path);
    } else {
      csv << ",,,";
    }
    csv << "\n";
    for (const auto& e : r.edge_maps) {
      const engine::EdgeMapStats& s = e.stats;
      per_edge_map << csv_field(d.path) << "," << d.name << "," << r.algorithm << "," << r.skip.text() << "," << r.repeat
                   << "," << e.phase << "," << e.iteration << "," << engine::direction_name(s.direction) << ","
                   << s.active_vertices << "," << s.destinations << "," << s.active_pages << "," << s.requests << ","
                   << s.bytes_read << "," << s.bytes_skipped << "," << s.seconds << "," << s.io_seconds << "\n";
    }
  }
  outputs.text(v["output"].as<std::string>(), csv.str());
  outputs.text(v["edgemaps"].as<std::string>(), per_edge_map.str());
  outputs.commit();
  return exit_ok;
}

}  // namespace sluice::tools
