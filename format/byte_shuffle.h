#pragma once

#include <cstddef>
#include <span>

namespace msprof::trace {

// The byte-shuffle filter for blob chunks: the bytes of 4-byte elements
// regrouped into four planes (every element's byte 0, then every byte 1, ...).
// Device buffers are mostly float32 and int32 arrays, whose high bytes vary
// little: planes put those bytes together, so zstd finds them, and mostly
// compresses faster too (bench/README.md, shuffle_bench).
//
// `in` and `out` have the same size, a multiple of 4, and do not overlap.
void shuffle4(std::span<const std::byte> in, std::span<std::byte> out);
void unshuffle4(std::span<const std::byte> in, std::span<std::byte> out);

}  // namespace msprof::trace
