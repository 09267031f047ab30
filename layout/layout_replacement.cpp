#include "layout/layout_replacement.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"
#include "layout/drive_header.hpp"
#include "layout/sluice_layout.hpp"

namespace sluice::layout {

namespace fs = std::filesystem;

namespace {

void refuse_line_breaks(const std::string& path, const char* what) {
  if (path.find_first_of("\n\r") != std::string::npos) {
    throw std::invalid_argument(std::string(what) + " '" + path + "' contains a line break: the manifest could not name it");
  }
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// Whether the file starts with the 8-byte `magic` (SLUICEIX: a layout's
// index, SLUICEID: its id map, SLUICESM: an edge set's sample).
bool starts_with(const std::string& path, const char* magic) {
  char start[8] = {};
  base::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  return file.get() >= 0 && ::pread(file.get(), start, 8, 0) == 8 && std::memcmp(start, magic, 8) == 0;
}
bool is_sluice_index(const std::string& path) { return starts_with(path, "SLUICEIX"); }

}  // namespace

LayoutReplacement::LayoutReplacement(const std::string& manifest_path, const std::vector<std::string>& drive_dirs, bool force)
    : manifest_path_(manifest_path), force_(force) {
  refuse_line_breaks(manifest_path, "the manifest path");
  for (const std::string& d : drive_dirs) refuse_line_breaks(d, "the drive directory");
  struct stat st {};
  if (::stat(manifest_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    throw std::invalid_argument(manifest_path + ": is " + std::string(base::file_kind(st.st_mode)) +
                                "; a layout's manifest must be a regular file (its index and drive files would be "
                                "named by nothing)");
  }
  std::error_code ec;
  manifest_absolute_ = fs::absolute(manifest_path, ec).lexically_normal().string();
  if (::stat(manifest_path.c_str(), &st) == 0) {
    try {
      previous_ = Manifest::read(manifest_path).files(manifest_path);
    } catch (const std::exception&) {
      // Not a readable layout: nothing of it may be replaced without --force.
    }
  }
}

bool LayoutReplacement::was_ours(const std::string& path) const {
  for (const base::NamedFile& f : previous_) {
    if (same_file(f.path, path)) return true;
  }
  return false;
}

void LayoutReplacement::check_drive_file(const std::string& path) const {
  std::error_code ec;
  if (force_ || !fs::exists(path, ec)) return;
  std::optional<DriveHeader> theirs;
  try {
    theirs = DriveHeader::read(path);
  } catch (const base::InputError&) {  // a damaged header: a sluice drive file all the same
    throw std::runtime_error(path + ": exists with a damaged drive header; pass --force to overwrite it");
  }
  if (!theirs) throw std::runtime_error(path + ": exists and is not a sluice drive file; pass --force to overwrite it");
  if (theirs->manifest != manifest_absolute_) {
    throw std::runtime_error(path + ": belongs to the layout " + theirs->manifest +
                             "; converting would break it (pass --force to overwrite it, or use other drive directories)");
  }
}

void LayoutReplacement::check_index(const std::string& path) const {
  std::error_code ec;
  if (force_ || !fs::exists(path, ec) || was_ours(path)) return;
  if (is_sluice_index(path)) {
    throw std::runtime_error(path + ": is the index of another layout (not of " + manifest_path_ +
                             "); converting would break it (pass --force to overwrite it, or choose another name)");
  }
  throw std::runtime_error(path + ": exists and is not a sluice index; pass --force to overwrite it");
}

void LayoutReplacement::check_id_map(const std::string& path) const { check_listed(path, "the id map"); }

void LayoutReplacement::check_sample(const std::string& path) const { check_listed(path, "a sample file"); }

void LayoutReplacement::check_listed(const std::string& path, const char* what) const {
  std::error_code ec;
  if (force_ || !fs::exists(path, ec) || was_ours(path)) return;
  throw std::runtime_error(path + ": exists and is not " + what + " of " + manifest_path_ + "; pass --force to overwrite it, or choose another name");
}

void LayoutReplacement::remove_leftovers(const std::vector<base::NamedFile>& written) const {
  for (const base::NamedFile& old : previous_) {
    bool kept = false;
    for (const base::NamedFile& f : written) kept = kept || same_file(old.path, f.path);
    if (kept) continue;
    bool still_ours = false;
    try {
      const std::optional<DriveHeader> header = DriveHeader::read(old.path);
      still_ours = header ? header->manifest == manifest_absolute_
                          : is_sluice_index(old.path) || starts_with(old.path, "SLUICEID") || starts_with(old.path, "SLUICESM");
    } catch (const std::exception&) {
      still_ours = false;  // damaged or gone: not ours to judge
    }
    if (still_ours) ::unlink(old.path.c_str());
  }
}

}  // namespace sluice::layout
