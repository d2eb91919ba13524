#include "bench/format/bench_data.h"

#include <cstring>

namespace msprof::bench {
namespace {

// 24 random mantissa bits: every float32 in [0, 1) with that resolution.
float unit_float(std::uint64_t bits) {
  return static_cast<float>(bits >> 40) * 0x1p-24f;
}

}  // namespace

void fill_random_floats(std::span<float> out, std::uint64_t seed) {
  XorShift rng(seed);
  for (float& f : out) f = unit_float(rng.next());
}

void fill_half_zero_floats(std::span<float> out, std::uint64_t seed) {
  XorShift rng(seed);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = (i % 2 == 0) ? unit_float(rng.next()) : 0.0f;
}

void fill_random_bytes(std::span<std::byte> out, std::uint64_t seed) {
  XorShift rng(seed);
  std::size_t i = 0;
  for (; i + 8 <= out.size(); i += 8) {
    const std::uint64_t word = rng.next();
    std::memcpy(out.data() + i, &word, 8);
  }
  const std::uint64_t word = rng.next();
  std::memcpy(out.data() + i, &word, out.size() - i);
}

}  // namespace msprof::bench
