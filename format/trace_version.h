#pragma once

#include <cstdint>

namespace msprof::trace {

// Version of the container layout (file header, frame header, trailer).
// 2: blob chunks may be byte-shuffled (kFrameFlagShuffle4); version 1
// readers would take such a chunk for damage, so they are told to update.
// 3: a shuffled chunk's planes may be coded one by one, raw or zstd
// (kFrameFlagPlanes). Versions 1 and 2 are still read.
inline constexpr std::uint32_t kContainerVersion = 3;
// Version of the record schema this build writes and reads (schemas/trace.fbs).
inline constexpr std::uint32_t kSchemaVersion = 2;
// Oldest reader that can read what this build writes.
inline constexpr std::uint32_t kMinReaderVersion = 2;

inline constexpr const char* kToolVersion = "0.1.0";

}  // namespace msprof::trace
