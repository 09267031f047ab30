#include "base/output_guard.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <stdexcept>

namespace sluice::base {

namespace fs = std::filesystem;

OutputGuard::File OutputGuard::identify(const std::string& path, const std::string& what) {
  File f;
  f.path = path;
  f.what = what;
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) == 0) {  // stat follows links: the file that would be written
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

bool OutputGuard::same(const File& a, const File& b) {
  if (a.exists && b.exists) return a.device == b.device && a.inode == b.inode;
  return !a.exists && !b.exists && a.canonical == b.canonical;
}

void OutputGuard::input(const std::string& path, const std::string& what) {
  if (path.empty() || path == "-") return;
  File f = identify(path, what);
  if (!f.exists) return;
  for (const File& out : outputs_) {
    if (same(f, out)) refuse_overwriting(out, f);
  }
  inputs_.push_back(std::move(f));
}

void OutputGuard::inputs(const std::vector<NamedFile>& files) {
  for (const NamedFile& f : files) input(f.path, f.what);
}

void OutputGuard::output(const std::string& path, const std::string& role) {
  if (path.empty()) return;
  File f = identify(path, role);
  for (const File& in : inputs_) {
    if (same(f, in)) refuse_overwriting(f, in);
  }
  struct stat st {};
  // A character device (/dev/null) takes any number of writers.
  const bool shareable = f.exists && ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
  if (!shareable) {
    for (const File& out : outputs_) {
      if (same(f, out)) {
        throw std::invalid_argument(role + " and " + out.what + " both name " +
                                    (path == "-" ? std::string("standard output") : path) +
                                    ": one would replace the other; give each its own file");
      }
    }
  }
  outputs_.push_back(std::move(f));
}

}  // namespace sluice::base
