#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "format/trace_objects.h"

namespace msprof::replay {

// How one buffer's replayed content compares with the recorded final state.
// Buffers whose size is a multiple of 4 are compared as float32 elements
// (the common case for the kernels we replay), others byte by byte.
struct BufferComparison {
  trace::CaptureId buffer = 0;
  std::uint64_t size = 0;
  bool equal = true;
  bool as_float32 = false;
  std::uint64_t first_index = 0;  // first differing element
  std::uint64_t differing = 0;    // number of differing elements
  double max_abs = 0;
  double max_rel = 0;
};

BufferComparison compare_buffer(trace::CaptureId buffer, std::span<const std::byte> expected,
                                std::span<const std::byte> actual);

}  // namespace msprof::replay
