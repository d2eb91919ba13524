#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "format/hash128.h"
#include "format/record_kinds.h"
#include "format/trace_version.h"

namespace msprof::trace {

static_assert(std::endian::native == std::endian::little, "the trace layout is little-endian");

// Frames that hold no record: X(name in FrameType, value on disk, name).
// Record frames are the record kinds of record_kinds.h.
#define MSPROF_TRACE_CONTAINER_FRAME_TYPES(X) \
  X(BlobChunk, 17, "blob-chunk")              \
  X(Index, 32, "index")

// Frame types on disk. Values are fixed forever; new ones are appended.
// clang-format off
enum class FrameType : std::uint16_t {
#define MSPROF_FRAME_TYPE_VALUE(type, value, name) type = value,
  MSPROF_TRACE_RECORD_KINDS(MSPROF_FRAME_TYPE_VALUE)
  MSPROF_TRACE_CONTAINER_FRAME_TYPES(MSPROF_FRAME_TYPE_VALUE)
#undef MSPROF_FRAME_TYPE_VALUE
};
// clang-format on

// Every frame type this build knows, records first in the order of
// record_kinds.h (the order of the Record variant).
struct FrameKind {
  FrameType type;
  std::string_view name;
  bool is_record;
};
// clang-format off
inline constexpr std::array kFrameKinds = {
#define MSPROF_RECORD_FRAME_KIND(type, value, name) FrameKind{FrameType::type, name, true},
#define MSPROF_CONTAINER_FRAME_KIND(type, value, name) FrameKind{FrameType::type, name, false},
  MSPROF_TRACE_RECORD_KINDS(MSPROF_RECORD_FRAME_KIND)
  MSPROF_TRACE_CONTAINER_FRAME_TYPES(MSPROF_CONTAINER_FRAME_KIND)
#undef MSPROF_RECORD_FRAME_KIND
#undef MSPROF_CONTAINER_FRAME_KIND
};
// clang-format on

bool is_known_frame_type(std::uint16_t type);
bool is_record_frame_type(std::uint16_t type);
// The kind's name, or "unknown".
std::string_view frame_type_name(std::uint16_t type);

inline constexpr std::uint16_t kFrameFlagZstd = 1u << 0;
// The payload checksum is left out (0): the frame's key is the XXH3-128 of
// its raw content and is checked after decompression instead. Blob chunks
// use it, to spare a pass over every byte on the writer's hot path.
inline constexpr std::uint16_t kFrameFlagContentKeyed = 1u << 1;
// Blob chunks only, with zstd: the raw bytes were byte-shuffled by 4
// (byte_shuffle.h) before compression; the key is of the unshuffled bytes.
inline constexpr std::uint16_t kFrameFlagShuffle4 = 1u << 2;
// Blob chunks only, with zstd and shuffle: the payload is the four planes
// coded one by one, each raw or zstd (plane_codec.h).
inline constexpr std::uint16_t kFrameFlagPlanes = 1u << 3;

// File header: magic and the container versions.
inline constexpr std::array<char, 8> kFileMagic = {'M', 'S', 'P', 'R', 'T', 'R', 'C', '\n'};
inline constexpr std::size_t kFileHeaderSize = 16;

struct FileHeader {
  std::uint32_t container_version = 0;
  std::uint32_t min_reader_version = 0;
};
std::array<std::byte, kFileHeaderSize> encode_file_header();
// Throws CorruptError (not a trace, or a container version below the reader
// version it asks for, which no writer writes) or UnsupportedVersionError.
FileHeader decode_file_header(std::span<const std::byte> bytes);

// Every frame starts with this fixed, uncompressed header. The sync word and
// the header's own checksum let a scan find frames again after damage.
inline constexpr std::uint32_t kFrameSync = 0x314D5246;  // "FRM1"
inline constexpr std::size_t kFrameHeaderSize = 56;

struct FrameHeader {
  std::uint16_t type = 0;
  std::uint16_t flags = 0;
  std::uint64_t stored_size = 0;   // payload bytes on disk
  std::uint64_t raw_size = 0;      // payload bytes after decompression
  std::uint64_t payload_hash = 0;  // hash64 of the stored payload
  Hash128 key;                     // content hash for blob chunks and manifests

  std::uint64_t frame_size() const { return kFrameHeaderSize + stored_size; }
};
std::array<std::byte, kFrameHeaderSize> encode_frame_header(const FrameHeader& header);
// nullopt when the bytes are not a well-formed header (sync or checksum).
std::optional<FrameHeader> decode_frame_header(std::span<const std::byte> bytes);

// The trailer, last in a file that was closed: where the index frame is.
inline constexpr std::array<char, 8> kTrailerMagic = {'M', 'S', 'P', 'R', 'I', 'D', 'X', '\n'};
inline constexpr std::size_t kTrailerSize = 40;

struct Trailer {
  std::uint64_t index_offset = 0;
  std::uint64_t index_frame_size = 0;
  std::uint64_t trailer_offset = 0;
  // The writer's; read back so that the file header's copy, which has no
  // checksum of its own, is checked against it.
  std::uint32_t container_version = kContainerVersion;
};
std::array<std::byte, kTrailerSize> encode_trailer(const Trailer& trailer);
std::optional<Trailer> decode_trailer(std::span<const std::byte> bytes);

// Raw sizes a reader accepts; larger claims are corruption, never allocations.
inline constexpr std::uint64_t kMaxRecordRawSize = 1ull << 30;
inline constexpr std::uint64_t kMaxChunkSize = 64ull << 20;

}  // namespace msprof::trace
