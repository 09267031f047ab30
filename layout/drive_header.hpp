// The first page of every drive file of a sluice layout: who the file
// belongs to. A foreign, swapped or stale drive file (two graphs converted
// with the same stem into the same drive directories, manifest lines
// edited by hand, another page size) is then an error at open that names
// both layouts, not a wrong answer; and convert can refuse to overwrite
// another layout's drive files. The page is text, readable with
// `head -c 4096`, ending in the XXH64 of what precedes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"

namespace sluice::layout {

struct DriveHeader {
  std::string layout_id;  // 32 hex digits, random per conversion
  std::string edge_set;   // "out" or "in"
  unsigned drive = 0, drives = 1;
  uint64_t page_bytes = 4096;
  uint64_t pages = 0;     // edge pages on this drive, after the header page
  std::string manifest;   // absolute path of the manifest that was written with it

  // The header page (page_bytes bytes).
  std::string page() const;
  // The header in a drive file, or nothing when the file does not start
  // with one (not a sluice drive file); a damaged header is an InputError.
  static std::optional<DriveHeader> read(const std::string& path);
  // The same from an open file (the descriptor that will be read, so the
  // header checked is the header of the data read).
  static std::optional<DriveHeader> read(const base::FileDescriptor& file, const std::string& path);

  // Throws InputError naming the file and what differs from `expected`
  // (DriveOfAnotherLayout when the layout ids differ).
  void expect(const DriveHeader& expected, const std::string& path) const;
};

// A drive file written by another conversion than the manifest's. When
// that conversion was of this very manifest path (`same_manifest`), it is
// a later conversion of this layout: one still under way renames its
// manifest into place last.
class DriveOfAnotherLayout : public base::InputError {
 public:
  DriveOfAnotherLayout(const std::string& path, const std::string& what, bool same_manifest)
      : base::InputError(path, "", what), same_manifest_(same_manifest) {}
  bool same_manifest() const { return same_manifest_; }

 private:
  bool same_manifest_;
};

// A fresh random layout id.
std::string new_layout_id();

// The seed of the per-page checksums of a layout (from its id).
uint64_t page_checksum_seed(const std::string& layout_id);

}  // namespace sluice::layout
