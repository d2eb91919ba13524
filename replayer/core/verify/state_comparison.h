#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "format/trace_objects.h"
#include "replayer/core/tolerance.h"
#include "replayer/core/verify/element_type.h"

namespace msprof::replay {

// How one buffer's replayed content compares with the recorded final state,
// in the element type the kernels use it as.
struct BufferComparison {
  trace::CaptureId buffer = 0;
  std::uint64_t size = 0;
  ElementType element;
  bool equal = true;              // bit for bit
  std::uint64_t first_index = 0;  // first differing element
  std::uint64_t differing = 0;    // elements not bit-equal
  std::uint64_t outside = 0;      // of those, elements outside the tolerance (all without one)
  double max_abs = 0;
  double max_rel = 0;
  bool within_tolerance() const { return !equal && outside == 0; }
};

// Compares a buffer piece by piece, in the order of its bytes, so neither
// side has to be held whole: the caller feeds the expected bytes as the
// trace delivers them with the replayed bytes of the same place. Pieces need
// not be multiples of the element size.
class BufferComparator {
 public:
  BufferComparator(trace::CaptureId buffer, std::uint64_t size, ElementType element,
                   std::optional<Tolerance> tolerance);

  // expected and actual have the same length, and follow the last piece.
  void feed(std::span<const std::byte> expected, std::span<const std::byte> actual);
  // Ends the comparison; a buffer whose two sides were not both `size`
  // bytes long differs in every element past the shorter.
  BufferComparison finish(std::uint64_t actual_size);

 private:
  void compare_elements(const std::byte* expected, const std::byte* actual, std::size_t count);
  void note(std::uint64_t index, double expected, double actual, bool integral);

  BufferComparison c_;
  std::optional<Tolerance> tolerance_;
  std::uint64_t fed_ = 0;  // bytes compared so far
  std::array<std::byte, 8> carry_expected_{}, carry_actual_{};
  std::size_t carried_ = 0;  // bytes of a split element held back
};

// Both sides whole: for tests and small buffers.
BufferComparison compare_buffer(trace::CaptureId buffer, std::span<const std::byte> expected,
                                std::span<const std::byte> actual, ElementType element = {},
                                std::optional<Tolerance> tolerance = std::nullopt);

}  // namespace msprof::replay
