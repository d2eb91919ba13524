#include "format/frame.h"

#include <cstring>
#include <string>

#include "format/trace_error.h"
#include "format/trace_version.h"

namespace msprof::trace {
namespace {

template <typename T>
void put(std::byte* out, std::size_t at, T value) {
  std::memcpy(out + at, &value, sizeof value);
}

template <typename T>
T get(std::span<const std::byte> in, std::size_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof value);
  return value;
}

std::uint32_t checksum32(std::span<const std::byte> bytes) {
  return static_cast<std::uint32_t>(hash64(bytes));
}

const FrameKind* find_kind(std::uint16_t type) {
  for (const FrameKind& kind : kFrameKinds) {
    if (static_cast<std::uint16_t>(kind.type) == type) return &kind;
  }
  return nullptr;
}

}  // namespace

bool is_known_frame_type(std::uint16_t type) {
  return find_kind(type) != nullptr;
}

bool is_record_frame_type(std::uint16_t type) {
  const FrameKind* kind = find_kind(type);
  return kind != nullptr && kind->is_record;
}

std::string_view frame_type_name(std::uint16_t type) {
  const FrameKind* kind = find_kind(type);
  return kind != nullptr ? kind->name : "unknown";
}

std::array<std::byte, kFileHeaderSize> encode_file_header() {
  std::array<std::byte, kFileHeaderSize> out{};
  std::memcpy(out.data(), kFileMagic.data(), kFileMagic.size());
  put<std::uint32_t>(out.data(), 8, kContainerVersion);
  put<std::uint32_t>(out.data(), 12, kContainerVersion);
  return out;
}

FileHeader decode_file_header(std::span<const std::byte> bytes) {
  if (bytes.size() < kFileHeaderSize || std::memcmp(bytes.data(), kFileMagic.data(), 8) != 0) {
    throw CorruptError("not an msprof-replay trace (bad magic); record one with msprof-record", 0);
  }
  FileHeader header{get<std::uint32_t>(bytes, 8), get<std::uint32_t>(bytes, 12)};
  if (header.min_reader_version > kContainerVersion || header.container_version == 0) {
    throw UnsupportedVersionError(
        "trace container version " + std::to_string(header.container_version) +
            " needs a reader of version " + std::to_string(header.min_reader_version) +
            "; this reader is version " + std::to_string(kContainerVersion) +
            " (update msprof-replay and msprof-analyze)",
        8);
  }
  if (header.container_version < header.min_reader_version) {
    throw CorruptError("the file header is damaged: container version " +
                           std::to_string(header.container_version) +
                           " is below the reader version " +
                           std::to_string(header.min_reader_version) + " it asks for",
                       8);
  }
  return header;
}

std::array<std::byte, kFrameHeaderSize> encode_frame_header(const FrameHeader& header) {
  std::array<std::byte, kFrameHeaderSize> out{};
  put<std::uint32_t>(out.data(), 0, kFrameSync);
  put<std::uint16_t>(out.data(), 4, header.type);
  put<std::uint16_t>(out.data(), 6, header.flags);
  put<std::uint64_t>(out.data(), 8, header.stored_size);
  put<std::uint64_t>(out.data(), 16, header.raw_size);
  put<std::uint64_t>(out.data(), 24, header.payload_hash);
  put<std::uint64_t>(out.data(), 32, header.key.lo);
  put<std::uint64_t>(out.data(), 40, header.key.hi);
  put<std::uint32_t>(out.data(), 48, 0);
  put<std::uint32_t>(out.data(), 52, checksum32(std::span(out).first(52)));
  return out;
}

std::optional<FrameHeader> decode_frame_header(std::span<const std::byte> bytes) {
  if (bytes.size() < kFrameHeaderSize) return std::nullopt;
  if (get<std::uint32_t>(bytes, 0) != kFrameSync) return std::nullopt;
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (get<std::uint32_t>(bytes, 52) != checksum32(bytes.first(52))) return std::nullopt;
#endif
  if (get<std::uint32_t>(bytes, 48) != 0) return std::nullopt;
  FrameHeader header;
  header.type = get<std::uint16_t>(bytes, 4);
  header.flags = get<std::uint16_t>(bytes, 6);
  header.stored_size = get<std::uint64_t>(bytes, 8);
  header.raw_size = get<std::uint64_t>(bytes, 16);
  header.payload_hash = get<std::uint64_t>(bytes, 24);
  header.key = {get<std::uint64_t>(bytes, 32), get<std::uint64_t>(bytes, 40)};
  return header;
}

std::array<std::byte, kTrailerSize> encode_trailer(const Trailer& trailer) {
  std::array<std::byte, kTrailerSize> out{};
  std::memcpy(out.data(), kTrailerMagic.data(), kTrailerMagic.size());
  put<std::uint64_t>(out.data(), 8, trailer.index_offset);
  put<std::uint64_t>(out.data(), 16, trailer.index_frame_size);
  put<std::uint64_t>(out.data(), 24, trailer.trailer_offset);
  put<std::uint32_t>(out.data(), 32, trailer.container_version);
  put<std::uint32_t>(out.data(), 36, checksum32(std::span(out).first(36)));
  return out;
}

std::optional<Trailer> decode_trailer(std::span<const std::byte> bytes) {
  if (bytes.size() < kTrailerSize) return std::nullopt;
  if (std::memcmp(bytes.data(), kTrailerMagic.data(), 8) != 0) return std::nullopt;
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (get<std::uint32_t>(bytes, 36) != checksum32(bytes.first(36))) return std::nullopt;
#endif
  return Trailer{get<std::uint64_t>(bytes, 8), get<std::uint64_t>(bytes, 16),
                 get<std::uint64_t>(bytes, 24), get<std::uint32_t>(bytes, 32)};
}

}  // namespace msprof::trace
