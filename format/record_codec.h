#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "format/frame.h"
#include "format/trace_record.h"

namespace msprof::trace {

// The only place that knows the FlatBuffers wire types: converts between them
// and the types of trace_record.h. Decoding verifies the buffer first and
// throws CorruptError for anything the verifier or the model rejects.

struct EncodedRecord {
  FrameType type;
  std::vector<std::byte> bytes;  // a size-prefixed FlatBuffer
};
EncodedRecord encode_record(const Record& record);
// The frame type that holds a record of type T, from record_kinds.h.
template <typename T>
constexpr FrameType frame_type_of() {
#define MSPROF_FRAME_TYPE_OF(type, value, name) \
  if constexpr (std::is_same_v<T, type>)        \
    return FrameType::type;                     \
  else
  MSPROF_TRACE_RECORD_KINDS(MSPROF_FRAME_TYPE_OF)
#undef MSPROF_FRAME_TYPE_OF
  static_assert(sizeof(T) == 0, "not a record kind of record_kinds.h");
}
Record decode_record(FrameType type, std::span<const std::byte> bytes, std::uint64_t offset);

struct IndexEntry {
  std::uint64_t offset = 0;
  std::uint64_t frame_size = 0;
  std::uint64_t raw_size = 0;
  Hash128 key;
  std::uint16_t type = 0;
  friend bool operator==(const IndexEntry&, const IndexEntry&) = default;
};
std::vector<std::byte> encode_index(std::span<const IndexEntry> entries);
std::vector<IndexEntry> decode_index(std::span<const std::byte> bytes, std::uint64_t offset);

}  // namespace msprof::trace
