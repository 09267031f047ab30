// sluice plot SWEEP.csv [-o sweep.png]: draws `sluice sweep` output with
// the Python package's sluice.plot (matplotlib). It runs under
// $SLUICE_PYTHON when set, else the first of python3 and /usr/bin/python3
// that can: in a build tree the copy built beside the programs
// (BUILD/python/sluice/plot.py), else the installed package's.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "tools/commands.hpp"

extern char** environ;

namespace sluice::tools {

namespace {

namespace fs = std::filesystem;

// Whether `python` runs `probe` (the imports the plot needs), quietly.
bool can_plot(const std::string& python, const char* probe) {
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = {python, "-c", probe};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, python.c_str(), &quiet, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  if (failed) return false;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int cmd_plot(int argc, char** argv) {
  // In a build tree the plot beside the programs runs as a script: it needs
  // matplotlib alone, not the package's native module (which a sanitizer
  // build could not load into a plain interpreter).
  std::error_code ec;
  const fs::path built = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "python" / "sluice" / "plot.py";
  const bool in_tree = !ec && fs::exists(built);
  std::vector<std::string> candidates = {"python3", "/usr/bin/python3"};
  if (const char* chosen = std::getenv("SLUICE_PYTHON"); chosen && *chosen) candidates = {chosen};
  for (const std::string& python : candidates) {
    if (!can_plot(python, in_tree ? "import matplotlib" : "import sluice.plot, matplotlib")) continue;
    std::vector<std::string> args = {python};
    if (in_tree) {
      args.push_back(built.string());
    } else {
      args.insert(args.end(), {"-m", "sluice.plot"});
    }
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    std::vector<char*> exec_argv;
    for (std::string& a : args) exec_argv.push_back(a.data());
    exec_argv.push_back(nullptr);
    std::cout.flush();
    ::execvp(python.c_str(), exec_argv.data());
    base::throw_system_error(python, "exec");
  }
  std::string tried;
  for (const std::string& python : candidates) tried += (tried.empty() ? "" : ", ") + python;
  throw std::runtime_error("sluice plot needs the Python package sluice and matplotlib under one Python (tried " + tried +
                           "): pip install '.[plot]', or Debian's python3-matplotlib with the package built "
                           "(-DSLUICE_PYTHON=ON); SLUICE_PYTHON names another interpreter");
}

}  // namespace sluice::tools
