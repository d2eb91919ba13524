#include "replayer/core/verify/state_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace msprof::replay {

namespace {

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa == 0 ? INFINITY : NAN;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -value : value;
}

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

double element_value(const ElementType& type, const std::byte* p) {
  using K = ElementType::Kind;
  switch (type.kind) {
    case K::Float:
      if (type.size == 2) return half_to_float(load<std::uint16_t>(p));
      if (type.size == 4) return load<float>(p);
      return load<double>(p);
    case K::Signed:
      if (type.size == 1) return load<std::int8_t>(p);
      if (type.size == 2) return load<std::int16_t>(p);
      if (type.size == 4) return load<std::int32_t>(p);
      return static_cast<double>(load<std::int64_t>(p));
    case K::Unsigned:
      if (type.size == 1) return load<std::uint8_t>(p);
      if (type.size == 2) return load<std::uint16_t>(p);
      if (type.size == 4) return load<std::uint32_t>(p);
      return static_cast<double>(load<std::uint64_t>(p));
    case K::Bytes:
      return static_cast<double>(load<std::uint8_t>(p));
  }
  return 0;
}

}  // namespace

BufferComparator::BufferComparator(trace::CaptureId buffer, std::uint64_t size, ElementType element,
                                   std::optional<Tolerance> tolerance)
    : tolerance_(tolerance) {
  c_.buffer = buffer;
  c_.size = size;
  // A buffer that is no whole number of its elements is not what the kernel
  // says it is (or a struct array cut short): bytes never mislead.
  if (element.size == 0 || size % element.size != 0) element = ElementType{};
  c_.element = std::move(element);
}

void BufferComparator::note(std::uint64_t index, double expected, double actual, bool integral) {
  if (c_.differing == 0) c_.first_index = index;
  ++c_.differing;
  c_.equal = false;
  // NaN against a number counts as an infinite error, so it cannot hide.
  const double abs =
      std::isnan(expected) != std::isnan(actual) ? INFINITY : std::fabs(expected - actual);
  const bool both_nan = std::isnan(abs);  // NaNs of different payloads
  const double rel = both_nan        ? 0
                     : expected != 0 ? abs / std::fabs(expected)
                                     : (abs == 0 ? 0 : INFINITY);
  if (!both_nan) {
    c_.max_abs = std::max(c_.max_abs, abs);
    c_.max_rel = std::max(c_.max_rel, rel);
  }
  const bool accepted = tolerance_ && !integral && !both_nan && std::isfinite(abs) &&
                        abs <= tolerance_->atol + tolerance_->rtol * std::fabs(expected);
  if (!accepted) ++c_.outside;
}

void BufferComparator::compare_elements(const std::byte* expected, const std::byte* actual,
                                        std::size_t count) {
  const std::size_t size = c_.element.size;
  const bool integral = !c_.element.floating();
  const std::uint64_t base = fed_ / size;
  // Equal stretches are skipped at memcmp speed, the common case.
  std::size_t i = 0;
  while (i < count) {
    std::size_t run = std::min<std::size_t>(count - i, 4096 / size);
    if (std::memcmp(expected + i * size, actual + i * size, run * size) == 0) {
      i += run;
      continue;
    }
    for (const std::size_t end = i + run; i < end; ++i) {
      const std::byte* e = expected + i * size;
      const std::byte* a = actual + i * size;
      if (std::memcmp(e, a, size) == 0) continue;
      note(base + i, element_value(c_.element, e), element_value(c_.element, a), integral);
    }
  }
  fed_ += count * size;
}

void BufferComparator::feed(std::span<const std::byte> expected,
                            std::span<const std::byte> actual) {
  const std::size_t size = c_.element.size;
  std::size_t at = 0;
  if (carried_ != 0) {
    const std::size_t take = std::min(size - carried_, expected.size());
    std::memcpy(carry_expected_.data() + carried_, expected.data(), take);
    std::memcpy(carry_actual_.data() + carried_, actual.data(), take);
    carried_ += take;
    at = take;
    if (carried_ < size) return;
    compare_elements(carry_expected_.data(), carry_actual_.data(), 1);
    carried_ = 0;
  }
  const std::size_t whole = (expected.size() - at) / size;
  compare_elements(expected.data() + at, actual.data() + at, whole);
  at += whole * size;
  carried_ = expected.size() - at;
  std::memcpy(carry_expected_.data(), expected.data() + at, carried_);
  std::memcpy(carry_actual_.data(), actual.data() + at, carried_);
}

BufferComparison BufferComparator::finish(std::uint64_t actual_size) {
  if (actual_size != c_.size || fed_ + carried_ != c_.size) {
    const std::uint64_t compared = std::min(fed_, std::min(actual_size, c_.size));
    const std::uint64_t size = c_.element.size;
    if (c_.differing == 0) c_.first_index = compared / size;
    const std::uint64_t missing = (std::max(actual_size, c_.size) - compared + size - 1) / size;
    c_.differing += missing;
    c_.outside += missing;
    c_.equal = false;
    c_.max_abs = c_.max_rel = INFINITY;
  }
  return c_;
}

BufferComparison compare_buffer(trace::CaptureId buffer, std::span<const std::byte> expected,
                                std::span<const std::byte> actual, ElementType element,
                                std::optional<Tolerance> tolerance) {
  BufferComparator comparator(buffer, expected.size(), std::move(element), tolerance);
  const std::size_t common = std::min(expected.size(), actual.size());
  comparator.feed(expected.first(common), actual.first(common));
  return comparator.finish(actual.size());
}

}  // namespace msprof::replay
