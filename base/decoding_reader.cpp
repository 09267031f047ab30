#include "base/decoding_reader.hpp"

#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"

namespace sluice::base {

namespace {
constexpr size_t input_bytes = size_t(1) << 20;
}

Compression compression_of(const unsigned char* head, size_t size) {
  if (size >= 2 && head[0] == 0x1f && head[1] == 0x8b) return Compression::gzip;
  if (size >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f && head[3] == 0xfd) return Compression::zstd;
  return Compression::none;
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::gzip: return "gzip";
    case Compression::zstd: return "zstd";
    default: return "none";
  }
}

struct DecodingReader::Decoder {
  z_stream zlib{};
  ZSTD_DStream* zstd = nullptr;
  bool zlib_open = false;
  bool frame_open = false;  // inside a gzip member or zstd frame
  ~Decoder() {
    if (zlib_open) inflateEnd(&zlib);
    if (zstd) ZSTD_freeDStream(zstd);
  }
};

DecodingReader::DecodingReader(int fd, std::string path)
    : fd_(fd), path_(std::move(path)), input_(new unsigned char[input_bytes]), decoder_(std::make_unique<Decoder>()) {
  // The first bytes decide; a pipe may deliver them a few at a time.
  while (input_end_ < 4 && fill() > 0) {
  }
  compression_ = compression_of(input_.get(), input_end_);
  if (compression_ == Compression::gzip) {
    if (inflateInit2(&decoder_->zlib, 15 + 16) != Z_OK) throw InputError(path_, "", "cannot start gzip decoding");
    decoder_->zlib_open = true;
  } else if (compression_ == Compression::zstd) {
    decoder_->zstd = ZSTD_createDStream();
    if (!decoder_->zstd) throw std::bad_alloc();
  }
}

DecodingReader::~DecodingReader() = default;

size_t DecodingReader::fill() {
  if (input_done_) return 0;
  if (input_begin_ == input_end_) {
    consumed_ += input_begin_;
    input_begin_ = input_end_ = 0;
  }
  for (;;) {
    ssize_t got = ::read(fd_, input_.get() + input_end_, input_bytes - input_end_);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_, at_byte(consumed_ + input_end_), std::string("read failed: ") + std::strerror(errno));
    if (got == 0) input_done_ = true;
    input_end_ += size_t(got);
    return size_t(got);
  }
}

size_t DecodingReader::read(char* out, size_t size) {
  if (size == 0) return 0;
  if (compression_ == Compression::none) {
    if (input_begin_ == input_end_ && fill() == 0) return 0;
    const size_t n = std::min(size, input_end_ - input_begin_);
    std::memcpy(out, input_.get() + input_begin_, n);
    input_begin_ += n;
    return n;
  }
  size_t produced = 0;
  while (produced == 0) {
    if (input_begin_ == input_end_ && fill() == 0) {
      if (decoder_->frame_open) {
        throw InputError(path_, at_byte(consumed_ + input_end_),
                         std::string("the ") + compression_name(compression_) + " stream ends early (truncated file?)");
      }
      return 0;
    }
    const uint64_t offset = consumed_ + input_begin_;
    if (compression_ == Compression::gzip) {
      z_stream& z = decoder_->zlib;
      z.next_in = input_.get() + input_begin_;
      z.avail_in = unsigned(input_end_ - input_begin_);
      z.next_out = reinterpret_cast<unsigned char*>(out);
      z.avail_out = unsigned(std::min<size_t>(size, UINT32_MAX));
      const int status = inflate(&z, Z_NO_FLUSH);
      if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
        // Where the decoder stopped: the damage is at or just before it.
        const uint64_t at = offset + uint64_t(input_end_ - input_begin_ - z.avail_in);
        throw InputError(path_, at_byte(at), std::string("corrupt gzip data: ") + (z.msg ? z.msg : "inflate failed"));
      }
      input_begin_ = input_end_ - z.avail_in;
      produced = size_t(reinterpret_cast<char*>(z.next_out) - out);
      decoder_->frame_open = status != Z_STREAM_END;
      if (status == Z_STREAM_END) inflateReset(&z);  // another gzip member may follow
    } else {
      ZSTD_inBuffer in{input_.get() + input_begin_, input_end_ - input_begin_, 0};
      ZSTD_outBuffer o{out, size, 0};
      const size_t status = ZSTD_decompressStream(decoder_->zstd, &o, &in);
      if (ZSTD_isError(status)) {
        throw InputError(path_, at_byte(offset + in.pos), std::string("corrupt zstd data: ") + ZSTD_getErrorName(status));
      }
      input_begin_ += in.pos;
      produced = o.pos;
      decoder_->frame_open = status != 0;
    }
  }
  return produced;
}

}  // namespace sluice::base
