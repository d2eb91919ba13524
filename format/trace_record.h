#pragma once

#include <cstdint>
#include <variant>
#include <vector>

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

using Record =
    std::variant<TraceInfo, Context, Program, Kernel, Buffer, Queue, Sampler, Range, BlobManifest>;

}  // namespace msprof::trace
