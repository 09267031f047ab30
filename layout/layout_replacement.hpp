// Writing a layout where files may already be: what may be replaced, what
// must be refused, and what is left over afterwards. A layout's files are
// replaced only when they belong to the layout being rewritten (the one
// whose manifest is at the same path), or with --force; once the new
// layout is in place, files of the old one that it no longer uses (drives
// dropped, the transpose dropped) are removed.
#pragma once

#include <string>
#include <vector>

#include "base/output_guard.hpp"

namespace sluice::layout {

class LayoutReplacement {
 public:
  // Refuses a manifest path that is not a regular file or a new name (a
  // device would keep the manifest of index and drive files written beside
  // it nowhere), and any path with a line break (the manifest is lines).
  LayoutReplacement(const std::string& manifest_path, const std::vector<std::string>& drive_dirs, bool force);

  // Throws unless the drive file at `path` is missing, belongs to this
  // layout (its header names this manifest), or force was given.
  void check_drive_file(const std::string& path) const;
  // The same for an index: it may be replaced when the old manifest at
  // this path lists it.
  void check_index(const std::string& path) const;
  // The same for an id map, and for an edge set's sample.
  void check_id_map(const std::string& path) const;
  void check_sample(const std::string& path) const;

  // After the new layout is committed: removes the old layout's files that
  // `written` does not include, each only if it still belongs to it.
  void remove_leftovers(const std::vector<base::NamedFile>& written) const;

 private:
  bool was_ours(const std::string& path) const;
  // Throws unless the file at `path` is missing, listed by the layout now
  // at the manifest path, or force was given; `what` names what it would be.
  void check_listed(const std::string& path, const char* what) const;

  std::string manifest_path_, manifest_absolute_;
  bool force_;
  std::vector<base::NamedFile> previous_;  // the files of the layout now at manifest_path
};

}  // namespace sluice::layout
