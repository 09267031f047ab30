// Outputs that can never destroy inputs. A command names every file it
// reads, then every file it will write, before any work: an output that is
// an input under any name (the same device and inode, through a link, a
// relative path or a hard link) is refused, and so are two outputs that
// name one file (one would silently replace the other).
#pragma once

#include <string>
#include <sys/types.h>
#include <unordered_map>
#include <vector>

namespace sluice::base {

// A file and what it is to the user ("the layout's index").
struct NamedFile {
  std::string path, what;
};

class OutputGuard {
 public:
  // A file the command reads; `what` says what it is ("the layout's
  // index"). Missing files and "-" (standard input) are ignored. Checked
  // against the outputs named so far, as they are against it.
  void input(const std::string& path, const std::string& what = "an input");
  void inputs(const std::vector<NamedFile>& files);
  // A file the command writes; `role` names it for the user ("--output").
  // Throws std::invalid_argument when it is an input or another output.
  // "" is ignored; "-" is standard output, which two outputs may not share,
  // and which, redirected into a file, is that file (`> g.out.index`).
  void output(const std::string& path, const std::string& role);

 private:
  struct File {
    std::string path, what;
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;
    std::string canonical;  // the absolute path with links resolved, for files not there yet
  };
  static File identify(const std::string& path, const std::string& what);
  static std::string key(const File& f);
  [[noreturn]] static void refuse_overwriting(const File& output, const File& input);

  // By key: a layout split for a thousand ranks names some 20,000 files.
  std::unordered_map<std::string, File> inputs_, outputs_;
};

}  // namespace sluice::base
