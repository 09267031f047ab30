// Output that appears only when complete: bytes go to "PATH.tmp-XXXXXX",
// which is fsync'ed and renamed onto PATH by commit(). Destroying an
// uncommitted file removes the temporary, so an error leaves nothing behind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path, size_t buffer_bytes = 1 << 20);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile& operator=(AtomicFile&&) = delete;
  ~AtomicFile();

  void write(const void* data, size_t length);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Writes `length` zero bytes (page padding).
  void write_zeros(size_t length);
  uint64_t bytes_written() const { return written_; }
  const std::string& path() const { return path_; }

  // Flushes, fsyncs and renames the temporary onto the final path.
  void commit() {
    finish();
    publish();
  }
  // The two halves of commit(), so a group can sync all before renaming any.
  void finish();
  void publish();

 private:
  void flush();

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  std::vector<char> buffer_;
  size_t used_ = 0;
  uint64_t written_ = 0;
};

// Commits a group of files together: either all appear or none does.
void commit_all(std::vector<AtomicFile>& files);

}  // namespace sluice
