#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace msprof::bench {

// xorshift64*: cheap enough that making gigabytes of test data never takes
// longer than the thing measured on it.
class XorShift {
 public:
  explicit XorShift(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }

 private:
  std::uint64_t state_;
};

// float32 uniform in [0, 1), as a buffer of measurements looks to zstd.
void fill_random_floats(std::span<float> out, std::uint64_t seed);
// Every other float is zero, the rest as above: a sparse buffer.
void fill_half_zero_floats(std::span<float> out, std::uint64_t seed);
// Incompressible bytes.
void fill_random_bytes(std::span<std::byte> out, std::uint64_t seed);

}  // namespace msprof::bench
