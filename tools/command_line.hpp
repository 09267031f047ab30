// What every sluice command shares, and out-of-tree programs may use:
// option parsing with Boost, the exit codes, the options that open a
// graph, and the error handling of a command's run.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

#include "formats/block_graph.hpp"

namespace sluice::tools {

namespace po = boost::program_options;

enum ExitCode { exit_ok = 0, exit_error = 1, exit_usage = 2 };

// Parses argv against `options` (and positionals); prints --help. Returns
// false when the command should stop with exit_ok (help was shown).
bool parse_command_line(int argc, char** argv, const char* usage, po::options_description& options,
                        const po::positional_options_description& positionals, po::variables_map& values);

// Options that choose how a graph is opened: --format, --threads, the
// preprocessing flags, block size and buffer count.
void add_open_options(po::options_description& options);
OpenOptions open_options_from(const po::variables_map& values);

std::vector<std::string> split_list(const std::string& text);

// Runs one command with the shared error handling: usage errors exit 2
// with a hint, anything else prints "PROGRAM: error: ..." and exits 1.
int run_command(const std::string& program, const std::function<int(int, char**)>& command, int argc, char** argv);

}  // namespace sluice::tools
