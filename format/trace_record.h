#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "format/record_kinds.h"
#include "format/trace_objects.h"
#include "format/trace_range.h"

namespace msprof::trace {

struct ChunkRef {
  Hash128 hash;
  std::uint64_t size = 0;
  friend bool operator==(const ChunkRef&, const ChunkRef&) = default;
};

// A blob as the list of its chunks; each chunk is stored once per trace.
struct BlobManifest {
  Hash128 hash;
  std::uint64_t size = 0;
  std::uint64_t chunk_size = 0;
  std::vector<ChunkRef> chunks;
  friend bool operator==(const BlobManifest&, const BlobManifest&) = default;
};

namespace detail {
// A macro list can only put a comma before every type, so the variant is
// made from a list led by a placeholder type, which is dropped.
template <typename Lead, typename... Kinds>
using VariantOfKinds = std::variant<Kinds...>;
}  // namespace detail

// Every record kind of record_kinds.h, in its order.
#define MSPROF_RECORD_ALTERNATIVE(type, value, name) , type
using Record = detail::VariantOfKinds<void MSPROF_TRACE_RECORD_KINDS(MSPROF_RECORD_ALTERNATIVE)>;
#undef MSPROF_RECORD_ALTERNATIVE

}  // namespace msprof::trace
