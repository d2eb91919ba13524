#include "replayer/core/state_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace msprof::replay {

namespace {

void note_difference(BufferComparison& c, std::uint64_t index, double expected, double actual) {
  if (c.differing == 0) c.first_index = index;
  ++c.differing;
  c.equal = false;
  // NaN against a number counts as an infinite error, so it cannot hide.
  const double abs =
      std::isnan(expected) != std::isnan(actual) ? INFINITY : std::fabs(expected - actual);
  if (std::isnan(abs)) return;  // both NaN with different payloads
  const double rel = expected != 0 ? abs / std::fabs(expected) : (abs == 0 ? 0 : INFINITY);
  c.max_abs = std::max(c.max_abs, abs);
  c.max_rel = std::max(c.max_rel, rel);
}

}  // namespace

BufferComparison compare_buffer(trace::CaptureId buffer, std::span<const std::byte> expected,
                                std::span<const std::byte> actual) {
  BufferComparison c;
  c.buffer = buffer;
  c.size = expected.size();
  if (expected.size() != actual.size()) {
    c.equal = false;
    c.first_index = std::min(expected.size(), actual.size());
    c.differing = std::max(expected.size(), actual.size()) - c.first_index;
    c.max_abs = c.max_rel = INFINITY;
    return c;
  }
  // Decided before the equality shortcut: the summary names the element type
  // of every compared buffer, bit-exact or not.
  c.as_float32 = expected.size() % sizeof(float) == 0;
  if (std::memcmp(expected.data(), actual.data(), expected.size()) == 0) return c;
  if (c.as_float32) {
    const std::size_t n = expected.size() / sizeof(float);
    for (std::size_t i = 0; i < n; ++i) {
      if (std::memcmp(expected.data() + i * 4, actual.data() + i * 4, 4) == 0) continue;
      float e, a;
      std::memcpy(&e, expected.data() + i * 4, 4);
      std::memcpy(&a, actual.data() + i * 4, 4);
      note_difference(c, i, e, a);
    }
  } else {
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (expected[i] == actual[i]) continue;
      note_difference(c, i, static_cast<double>(expected[i]), static_cast<double>(actual[i]));
    }
  }
  return c;
}

}  // namespace msprof::replay
