#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

namespace msprof::trace {

// How zstd is asked to work on a piece of data.
enum class ZstdStyle {
  // At the compressor's level: repeats looked for as that level does.
  Level,
  // Byte values coded by their frequency, with only long repeats looked
  // for. The exponent plane of float data has a few common values and no
  // repeats worth a search: coded this way it is both faster and smaller
  // than at level 1 (bench/README.md, format_bench, has the writer's
  // figures). Falls back to Level where the zstd library lacks the
  // parameters it needs.
  Literals,
};

// One compression context, reused across calls; not thread-safe (one per worker).
class ZstdCompressor {
 public:
  explicit ZstdCompressor(int level);
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  // The compressed bytes, valid until the next call; nullopt when
  // compression would not shrink the data (the caller then stores it raw).
  std::optional<std::span<const std::byte>> compress(std::span<const std::byte> in);
  // Compresses into a caller's buffer of at least bound(in.size()) bytes;
  // returns the compressed size, 0 when compression would not shrink it.
  std::size_t compress_to(std::span<const std::byte> in, std::span<std::byte> out,
                          ZstdStyle style = ZstdStyle::Level);
  static std::size_t bound(std::size_t size);

 private:
  ZSTD_CCtx_s* cctx_;
  int level_;
  bool literals_ = false;  // the context's advanced parameters hold ZstdStyle::Literals
  // Reused across calls and never zero-filled: it is only ever written.
  std::unique_ptr<std::byte[]> scratch_;
  std::size_t scratch_size_ = 0;
};

class ZstdDecompressor {
 public:
  ZstdDecompressor();
  ~ZstdDecompressor();
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  // Exactly `raw_size` bytes must come out, else CorruptError at `offset`.
  // The claim is checked against the zstd frame before anything is
  // allocated, so a damaged size never costs more memory than the stored
  // blocks can really produce.
  std::vector<std::byte> decompress(std::span<const std::byte> in, std::uint64_t raw_size,
                                    std::uint64_t offset);
  // The same into a caller's buffer: exactly `out.size()` bytes must come out.
  void decompress_into(std::span<const std::byte> in, std::span<std::byte> out,
                       std::uint64_t offset);
  // CorruptError unless `in` is one whole zstd frame announcing `raw_size`
  // bytes: the check made before allocating for it.
  static void check_frame(std::span<const std::byte> in, std::uint64_t raw_size,
                          std::uint64_t offset);

 private:
  void decompress_checked(std::span<const std::byte> in, std::span<std::byte> out,
                          std::uint64_t offset);
  ZSTD_DCtx_s* dctx_;
};

}  // namespace msprof::trace
