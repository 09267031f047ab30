// What every sluice command shares, and out-of-tree programs may use:
// option parsing with Boost, the exit codes, the options that open a
// graph, and the error handling of a command's run.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"
#include "formats/writers.hpp"
#include "programs/option_values.hpp"

namespace sluice::programs {

namespace po = boost::program_options;

enum ExitCode { exit_ok = 0, exit_error = 1, exit_usage = 2 };

// "sluice 0.3.0" (what --version prints).
std::string version_line();

// Parses argv against `options` (and positionals); prints --help or
// --version. Returns false when the command should stop with exit_ok.
// Unsigned options given a negative number, and unknown options (with the
// nearest known one as a hint), are usage errors.
bool parse_command_line(int argc, char** argv, const char* usage, po::options_description& options,
                        const po::positional_options_description& positionals, po::variables_map& values);

// The known word nearest to `word` (edit distance at most 3), or "".
std::string nearest(const std::string& word, const std::vector<std::string>& known);

// Options that choose how a graph is read: --format, --threads, --base,
// --vertices, --wide-ids, the BV and Blaze file options, block size and
// buffer count.
void add_read_options(po::options_description& options);
// And the preprocessing that rebuilds the graph in memory: --symmetrize,
// --drop-self-loops, --dedup, --sort, --drop-weights (for convert and the
// programs that read any format).
void add_rebuild_options(po::options_description& options);
// From either or both.
formats::OpenOptions open_options_from(const po::variables_map& values);

// How a sluice layout's edge pages are stored: --compress (gap-coded, the
// default; refused where they cannot hold the graph) or --plain (fixed
// records).
void add_page_options(po::options_description& options);
// Into `write`; a page option given for another format than `to` is
// refused, naming it as the caller knows it (Python: compress=False).
void page_options_from(const po::variables_map& values, const std::string& to, formats::WriteOptions& write,
                       const char* compress_name = "--compress", const char* plain_name = "--plain");
// Refuses, before any work, an output whose files would go into a
// directory that is not there, naming the file and the directory (a
// ranked layout's writer makes its drive directories itself).
void require_output_directories(const std::string& output, const std::string& to, const formats::WriteOptions& write);

// --threads / -t (0: every core, as base::resolve_threads counts them, for
// every layer); `what` says what they do ("compute threads").
void add_threads_option(po::options_description& options, const char* what = "threads");
// --threads, checked at once: at most max_threads(), and a count the
// system can start now (0 stays 0: the default of each layer).
int threads_option(const po::variables_map& values);

// Runs one command with the shared error handling: usage errors exit 2
// with a hint, anything else prints "PROGRAM: error: ..." and exits 1.
int run_command(const std::string& program, const std::function<int(int, char**)>& command, int argc, char** argv);
// The command run_command is running, as typed: the program's name ("sluice
// bfs", "sluice-bfs") and its arguments (for the run record of --stats).
const std::vector<std::string>& invocation();

}  // namespace sluice::programs
