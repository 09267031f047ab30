#include "layout/drive_header.hpp"

#include <xxhash.h>

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <vector>

#include "base/errors.hpp"
#include "base/mapped_file.hpp"

namespace sluice::layout {

namespace {

constexpr const char* first_line = "sluice-drive 2\n";
constexpr uint64_t min_page = 512;

std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

}  // namespace

std::string DriveHeader::page() const {
  std::ostringstream text;
  text << first_line << "layout " << layout_id << "\nset " << edge_set << "\ndrive " << drive << "\ndrives " << drives
       << "\npage_bytes " << page_bytes << "\npages " << pages << "\nmanifest " << manifest << "\n";
  std::string body = text.str();
  body += "xxh64 " + hex64(XXH64(body.data(), body.size(), 0)) + "\n";
  if (body.size() > page_bytes) throw std::runtime_error("the manifest path is too long for a drive header: " + manifest);
  body.resize(page_bytes, '\0');
  return body;
}

std::optional<DriveHeader> DriveHeader::read(const std::string& path) {
  return read(base::FileDescriptor::open_for_reading(path), path);
}

std::optional<DriveHeader> DriveHeader::read(const base::FileDescriptor& file, const std::string& path) {
  const uint64_t size = file.size();
  std::vector<char> bytes(std::min<uint64_t>(size, 65536));
  if (bytes.size() < std::strlen(first_line)) return std::nullopt;
  file.read_exactly(bytes.data(), bytes.size(), 0, path);
  if (std::memcmp(bytes.data(), first_line, std::strlen(first_line)) != 0) return std::nullopt;
  const std::string text(bytes.data(), strnlen(bytes.data(), bytes.size()));
  const size_t sum_at = text.rfind("xxh64 ");
  if (sum_at == std::string::npos || text.size() < sum_at + 6 + 16 ||
      hex64(XXH64(text.data(), sum_at, 0)) != text.substr(sum_at + 6, 16)) {
    throw base::InputError(path, base::at_byte(0), "the drive header is damaged (its checksum does not match)");
  }
  DriveHeader h;
  std::istringstream lines(text.substr(0, sum_at));
  std::string line;
  std::getline(lines, line);  // sluice-drive 2
  while (std::getline(lines, line)) {
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "layout") h.layout_id = value;
    else if (key == "set") h.edge_set = value;
    else if (key == "drive") h.drive = unsigned(std::stoul(value));
    else if (key == "drives") h.drives = unsigned(std::stoul(value));
    else if (key == "page_bytes") h.page_bytes = std::stoull(value);
    else if (key == "pages") h.pages = std::stoull(value);
    else if (key == "manifest") h.manifest = value;
  }
  if (h.page_bytes < min_page || h.page_bytes > size) throw base::InputError(path, base::at_byte(0), "the drive header's page size is impossible");
  return h;
}

void DriveHeader::expect(const DriveHeader& e, const std::string& path) const {
  if (layout_id != e.layout_id) {
    throw DriveOfAnotherLayout(path, "drive file of another layout (" + manifest + ", id " + layout_id + "), not of " + e.manifest +
                                         " (id " + e.layout_id + "): it was overwritten by a later conversion, or the manifest "
                                         "names the wrong file",
                               manifest == e.manifest);
  }
  auto differ = [&](const std::string& what, const std::string& found, const std::string& wanted) {
    throw base::InputError(path, "", "drive header says " + what + " " + found + ", the manifest " + wanted);
  };
  if (edge_set != e.edge_set) differ("edge set", edge_set, e.edge_set);
  if (drive != e.drive || drives != e.drives) {
    differ("drive", std::to_string(drive) + " of " + std::to_string(drives),
           std::to_string(e.drive) + " of " + std::to_string(e.drives) + " (drive lines swapped?)");
  }
  if (page_bytes != e.page_bytes) differ("page size", std::to_string(page_bytes), std::to_string(e.page_bytes));
  if (pages != e.pages) differ("pages", std::to_string(pages), std::to_string(e.pages));
}

std::string new_layout_id() {
  // SLUICE_LAYOUT_ID fixes it, so that two conversions can be compared
  // byte for byte (the page checksums are seeded with it).
  if (const char* fixed = std::getenv("SLUICE_LAYOUT_ID")) {
    const std::string id = fixed;
    if (id.size() != 32 || id.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw std::invalid_argument("SLUICE_LAYOUT_ID='" + id + "' is not 32 lowercase hex digits");
    }
    return id;
  }
  std::random_device device;
  std::mt19937_64 random((uint64_t(device()) << 32) ^ device());
  return hex64(random()) + hex64(random());
}

uint64_t page_checksum_seed(const std::string& layout_id) {
  return XXH64(layout_id.data(), layout_id.size(), 0);
}

}  // namespace sluice::layout
