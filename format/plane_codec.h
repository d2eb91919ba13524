#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "format/zstd_codec.h"

namespace msprof::trace {

// The payload of a blob chunk with kFrameFlagPlanes: the chunk's four
// byte-shuffled planes (byte_shuffle.h), each coded on its own. A table of
// four little-endian u32, each plane's stored size, then the planes in
// order. A plane stored at its full size (raw size / 4) is its bytes as they
// are; a smaller one is a zstd frame of exactly those bytes.
//
// Why: the low bytes of float data are noise. zstd spends much of its
// time on a random float32 chunk failing to compress those planes; stored
// raw they cost a copy (bench/README.md, format_bench).
inline constexpr std::size_t kPlaneTableSize = 16;

// How encode_planes stores one plane.
enum class PlaneCoding : std::uint8_t { Raw, Zstd, ZstdLiterals };
using PlaneCodings = std::array<PlaneCoding, 4>;

// Largest payload encode_planes may write for a chunk of `raw_size` bytes:
// the output buffer a worker needs.
std::size_t planes_bound(std::size_t raw_size);

// `planes` is a shuffled chunk (size a multiple of 4), plane i coded as
// `codings[i]` says; a plane that zstd does not shrink is stored raw all the
// same. Writes into `out` (at least planes_bound() bytes) and returns the
// payload size.
std::size_t encode_planes(ZstdCompressor& compressor, std::span<const std::byte> planes,
                          const PlaneCodings& codings, std::span<std::byte> out);

// The same payload as encode_planes, coded where the planes already lie:
// `out` holds the shuffled chunk of `raw_size` bytes right after room for
// the table (at kPlaneTableSize). A raw plane stays where it is unless an
// earlier plane shrank; a compressed one is coded into `scratch` (at least
// ZstdCompressor::bound(raw_size / 4) bytes) and copied back. Float data
// has raw low planes first, so their bytes are never copied: on random
// float32 that is three quarters of every chunk.
std::size_t encode_planes_in_place(ZstdCompressor& compressor, std::span<std::byte> out,
                                   std::size_t raw_size, const PlaneCodings& codings,
                                   std::span<std::byte> scratch);

// The shuffled chunk of `raw_size` bytes that `payload` holds. Every plane's
// size and zstd frame header is checked before anything is allocated, so a
// damaged table costs no more memory than a sound chunk; CorruptError at
// `offset` when the table or a plane does not add up.
std::vector<std::byte> decode_planes(ZstdDecompressor& decompressor,
                                     std::span<const std::byte> payload, std::uint64_t raw_size,
                                     std::uint64_t offset);

}  // namespace msprof::trace
