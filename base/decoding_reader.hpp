// Reading an input as a byte stream, decompressing gzip (zlib) and zstd
// (libzstd) on the way when the first bytes say so: what lets a SNAP
// .txt.gz, a SuiteSparse .mtx.gz or `zcat ... |` be read without a
// temporary copy on disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace sluice::base {

enum class Compression { none, gzip, zstd };

// The compression the first bytes of a file announce (gzip's 1f 8b,
// zstd's 28 b5 2f fd).
Compression compression_of(const unsigned char* head, size_t size);
const char* compression_name(Compression c);

class DecodingReader {
 public:
  // Reads from `fd` (not owned), decoding as the first bytes announce;
  // `path` names the input in errors.
  DecodingReader(int fd, std::string path);
  ~DecodingReader();
  DecodingReader(const DecodingReader&) = delete;
  DecodingReader& operator=(const DecodingReader&) = delete;

  // Up to `size` decoded bytes into `out`; 0 at the end. Corrupt or
  // truncated compressed data is an InputError with the compressed offset.
  size_t read(char* out, size_t size);
  Compression compression() const { return compression_; }
  // Raw (compressed) bytes taken so far.
  uint64_t consumed() const { return consumed_ + input_begin_; }

 private:
  struct Decoder;
  size_t fill();  // more raw bytes into the input buffer; 0 at the end of the file
  int fd_;
  std::string path_;
  Compression compression_ = Compression::none;
  std::unique_ptr<unsigned char[]> input_;
  size_t input_begin_ = 0, input_end_ = 0;
  uint64_t consumed_ = 0;  // raw bytes before input_begin_
  bool input_done_ = false;
  std::unique_ptr<Decoder> decoder_;
};

}  // namespace sluice::base
