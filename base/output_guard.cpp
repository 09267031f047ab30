#include "base/output_guard.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace sluice::base {

namespace fs = std::filesystem;

OutputGuard::File OutputGuard::identify(const std::string& path, const std::string& what) {
  File f;
  f.path = path;
  f.what = what;
  struct stat st {};
  // "-" is standard output: redirected into a file (`> FILE`, `1<>FILE`),
  // it is that file, and may be an input as much as any path.
  if (path == "-" ? ::fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)
                  : ::stat(path.c_str(), &st) == 0) {  // stat follows links: the file that would be written
    f.exists = true;
    f.device = st.st_dev;
    f.inode = st.st_ino;
  }
  std::error_code ec;
  f.canonical = path == "-" ? "-" : fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  return f;
}

void OutputGuard::refuse_overwriting(const File& output, const File& input) {
  throw std::invalid_argument(output.what + " " + output.path + " is " + input.what +
                              (input.path == output.path ? "" : " (" + input.path + ")") +
                              ": writing it would destroy what is being read; choose another name");
}

// Two files are the same when both exist with one device and inode, or
// neither exists and their canonical paths agree: one key says which.
std::string OutputGuard::key(const File& f) {
  return f.exists ? "@" + std::to_string(f.device) + ":" + std::to_string(f.inode) : "/" + f.canonical;
}

void OutputGuard::input(const std::string& path, const std::string& what) {
  if (path.empty() || path == "-") return;
  File f = identify(path, what);
  if (!f.exists) return;
  if (auto out = outputs_.find(key(f)); out != outputs_.end()) refuse_overwriting(out->second, f);
  inputs_.emplace(key(f), std::move(f));
}

void OutputGuard::inputs(const std::vector<NamedFile>& files) {
  for (const NamedFile& f : files) input(f.path, f.what);
}

void OutputGuard::output(const std::string& path, const std::string& role) {
  if (path.empty()) return;
  File f = identify(path, role);
  const std::string k = key(f);
  if (auto in = inputs_.find(k); in != inputs_.end()) refuse_overwriting(f, in->second);
  struct stat st {};
  // A character device (/dev/null) takes any number of writers.
  const bool shareable = f.exists && ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
  if (shareable) return;
  if (auto out = outputs_.find(k); out != outputs_.end()) {
    throw std::invalid_argument(role + " and " + out->second.what + " both name " +
                                (path == "-" ? std::string("standard output") : path) +
                                ": one would replace the other; give each its own file");
  }
  outputs_.emplace(k, std::move(f));
}

}  // namespace sluice::base
