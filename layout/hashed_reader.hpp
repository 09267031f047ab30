// A layout file read front to back into the arrays it fills, its XXH64
// taken on the way (the checksum the manifest holds), so that a file is
// never held whole beside what it is read into.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "base/mapped_file.hpp"

namespace sluice::layout {

class HashedReader {
 public:
  HashedReader(const base::FileDescriptor& file, const std::string& path) : file_(file), path_(path), state_(XXH64_createState()) {
    if (!state_) throw std::bad_alloc();
    XXH64_reset(state_, 0);
  }
  ~HashedReader() { XXH64_freeState(state_); }
  HashedReader(const HashedReader&) = delete;
  HashedReader& operator=(const HashedReader&) = delete;

  // The next `bytes` of the file.
  void read(void* to, uint64_t bytes) {
    if (bytes == 0) return;
    file_.read_exactly(to, bytes, at_, path_);
    XXH64_update(state_, to, bytes);
    at_ += bytes;
  }
  // The padding up to `offset`.
  void skip_to(uint64_t offset) {
    char padding[64];
    while (at_ < offset) read(padding, std::min<uint64_t>(sizeof(padding), offset - at_));
  }
  // The checksum of what was read.
  uint64_t digest() const { return XXH64_digest(state_); }

 private:
  const base::FileDescriptor& file_;
  const std::string& path_;
  XXH64_state_t* state_;
  uint64_t at_ = 0;
};

}  // namespace sluice::layout
