#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace msprof::test {

// Damage done to a copy of a real trace, at places found with TraceReader
// so the damage hits what a test means it to.

// Where the frame of the first range record named `range` starts.
std::uint64_t range_frame_offset(const std::filesystem::path& trace, const std::string& range);
// The size of a frame at `offset`.
std::uint64_t frame_size_at(const std::filesystem::path& trace, std::uint64_t offset);
// Where the frame holding the (first) chunk of a blob that only `range`
// names starts: one of its final states, shared with no other range.
std::uint64_t private_chunk_offset(const std::filesystem::path& trace, const std::string& range);

// Copies the first `size` bytes of `from` to `to`.
void copy_truncated(const std::filesystem::path& from, const std::filesystem::path& to,
                    std::uint64_t size);
// Copies `from` to `to` with the byte at `offset` inverted.
void copy_flipped(const std::filesystem::path& from, const std::filesystem::path& to,
                  std::uint64_t offset);

// Bytes of a frame's header: the damage goes past it, into the payload.
inline constexpr std::uint64_t kFrameHeaderBytes = 56;

}  // namespace msprof::test
