#include "format/plane_codec.h"

#include <cstring>
#include <string>

#include "format/trace_error.h"

namespace msprof::trace {
namespace {

void put_u32(std::byte* at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::byte>(value >> (8 * i));
}

std::uint32_t get_u32(const std::byte* at) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= std::to_integer<std::uint32_t>(at[i]) << (8 * i);
  return value;
}

}  // namespace

std::size_t planes_bound(std::size_t raw_size) {
  const std::size_t plane = raw_size / 4;
  // Every plane but the last is kept only when smaller than itself, so only
  // the one being compressed needs zstd's worst-case room.
  return kPlaneTableSize + 3 * plane + ZstdCompressor::bound(plane);
}

std::size_t encode_planes(ZstdCompressor& compressor, std::span<const std::byte> planes,
                          const PlaneCodings& codings, std::span<std::byte> out) {
  const std::size_t plane = planes.size() / 4;
  std::size_t at = kPlaneTableSize;
  for (std::size_t i = 0; i < 4; ++i) {
    const auto in = planes.subspan(i * plane, plane);
    const ZstdStyle style =
        codings[i] == PlaneCoding::ZstdLiterals ? ZstdStyle::Literals : ZstdStyle::Level;
    std::size_t n =
        codings[i] == PlaneCoding::Raw ? 0 : compressor.compress_to(in, out.subspan(at), style);
    if (n == 0) {
      std::memcpy(out.data() + at, in.data(), plane);
      n = plane;
    }
    put_u32(out.data() + 4 * i, static_cast<std::uint32_t>(n));
    at += n;
  }
  return at;
}

std::size_t encode_planes_in_place(ZstdCompressor& compressor, std::span<std::byte> out,
                                   std::size_t raw_size, const PlaneCodings& codings,
                                   std::span<std::byte> scratch) {
  const std::size_t plane = raw_size / 4;
  std::size_t at = kPlaneTableSize;
  for (std::size_t i = 0; i < 4; ++i) {
    // Every write below ends before plane i + 1 starts, so the planes not
    // yet coded are intact.
    std::byte* const source = out.data() + kPlaneTableSize + i * plane;
    const ZstdStyle style =
        codings[i] == PlaneCoding::ZstdLiterals ? ZstdStyle::Literals : ZstdStyle::Level;
    std::size_t n = codings[i] == PlaneCoding::Raw
                        ? 0
                        : compressor.compress_to({source, plane}, scratch, style);
    if (n == 0) {
      if (out.data() + at != source) std::memmove(out.data() + at, source, plane);
      n = plane;
    } else {
      std::memcpy(out.data() + at, scratch.data(), n);
    }
    put_u32(out.data() + 4 * i, static_cast<std::uint32_t>(n));
    at += n;
  }
  return at;
}

std::vector<std::byte> decode_planes(ZstdDecompressor& decompressor,
                                     std::span<const std::byte> payload, std::uint64_t raw_size,
                                     std::uint64_t offset) {
  const std::size_t plane = raw_size / 4;
  if (raw_size % 4 != 0 || payload.size() < kPlaneTableSize) {
    throw CorruptError("blob chunk plane table is cut short", offset);
  }
  std::array<std::span<const std::byte>, 4> stored;
  std::size_t at = kPlaneTableSize;
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t n = get_u32(payload.data() + 4 * i);
    if (n > plane || n > payload.size() - at) {
      throw CorruptError("blob chunk plane " + std::to_string(i) + " claims " + std::to_string(n) +
                             " bytes, more than the chunk holds",
                         offset);
    }
    stored[i] = payload.subspan(at, n);
    if (n != plane) ZstdDecompressor::check_frame(stored[i], plane, offset);
    at += n;
  }
  if (at != payload.size()) {
    throw CorruptError("blob chunk planes do not fill the frame's payload", offset);
  }
  std::vector<std::byte> planes(raw_size);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto out = std::span(planes).subspan(i * plane, plane);
    if (stored[i].size() == plane) {
      std::memcpy(out.data(), stored[i].data(), plane);
    } else {
      decompressor.decompress_into(stored[i], out, offset);
    }
  }
  return planes;
}

}  // namespace msprof::trace
