#include "format/zstd_codec.h"

#include <string>

// For ZSTD_c_literalCompressionMode; checked at run time, see the constructor.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "format/trace_error.h"

namespace msprof::trace {

ZstdCompressor::ZstdCompressor(int level) : cctx_(ZSTD_createCCtx()), level_(level) {
  if (cctx_ == nullptr) throw TraceError("out of memory for a zstd context");
  // ZstdStyle::Literals lives in the context's advanced parameters, which
  // the level calls (ZSTD_compressCCtx) ignore. The most negative levels
  // give up on short repeats; the literals they leave are Huffman-coded only
  // when asked, an experimental parameter that a library built otherwise
  // may refuse, in which case every call works at the level.
  literals_ =
      !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, -50)) &&
      !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_literalCompressionMode, ZSTD_ps_enable)) &&
      !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_minMatch, 7)) &&
      !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_hashLog, 6));
}

ZstdCompressor::~ZstdCompressor() {
  ZSTD_freeCCtx(cctx_);
}

std::optional<std::span<const std::byte>> ZstdCompressor::compress(std::span<const std::byte> in) {
  const std::size_t bound = ZSTD_compressBound(in.size());
  if (scratch_size_ < bound) {
    scratch_ = std::make_unique_for_overwrite<std::byte[]>(bound);
    scratch_size_ = bound;
  }
  const std::size_t n = compress_to(in, {scratch_.get(), scratch_size_});
  if (n == 0) return std::nullopt;
  return std::span<const std::byte>(scratch_.get(), n);
}

std::size_t ZstdCompressor::bound(std::size_t size) {
  return ZSTD_compressBound(size);
}

std::size_t ZstdCompressor::compress_to(std::span<const std::byte> in, std::span<std::byte> out,
                                        ZstdStyle style) {
  const std::size_t n =
      style == ZstdStyle::Literals && literals_
          ? ZSTD_compress2(cctx_, out.data(), out.size(), in.data(), in.size())
          : ZSTD_compressCCtx(cctx_, out.data(), out.size(), in.data(), in.size(), level_);
  if (ZSTD_isError(n)) {
    throw TraceError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
  }
  return n < in.size() ? n : 0;
}

ZstdDecompressor::ZstdDecompressor() : dctx_(ZSTD_createDCtx()) {
  if (dctx_ == nullptr) throw TraceError("out of memory for a zstd context");
}

ZstdDecompressor::~ZstdDecompressor() {
  ZSTD_freeDCtx(dctx_);
}

std::vector<std::byte> ZstdDecompressor::decompress(std::span<const std::byte> in,
                                                    std::uint64_t raw_size, std::uint64_t offset) {
  // The claim is checked before the allocation it would cost.
  check_frame(in, raw_size, offset);
  std::vector<std::byte> out(raw_size);
  decompress_checked(in, out, offset);
  return out;
}

void ZstdDecompressor::decompress_into(std::span<const std::byte> in, std::span<std::byte> out,
                                       std::uint64_t offset) {
  check_frame(in, out.size(), offset);
  decompress_checked(in, out, offset);
}

void ZstdDecompressor::check_frame(std::span<const std::byte> in, std::uint64_t raw_size,
                                   std::uint64_t offset) {
  const unsigned long long content = ZSTD_getFrameContentSize(in.data(), in.size());
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
      content != raw_size) {
    throw CorruptError("frame payload is not the zstd frame its header announces", offset);
  }
  const std::size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
  if (ZSTD_isError(frame) || frame != in.size()) {
    throw CorruptError("frame payload is a damaged or incomplete zstd frame", offset);
  }
}

void ZstdDecompressor::decompress_checked(std::span<const std::byte> in, std::span<std::byte> out,
                                          std::uint64_t offset) {
  const std::size_t n = ZSTD_decompressDCtx(dctx_, out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) {
    throw CorruptError(std::string("frame payload does not decompress: ") + ZSTD_getErrorName(n),
                       offset);
  }
  if (n != out.size()) {
    throw CorruptError("frame payload decompresses to " + std::to_string(n) +
                           " bytes, header says " + std::to_string(out.size()),
                       offset);
  }
}

}  // namespace msprof::trace
