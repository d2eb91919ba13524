#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "format/trace_objects.h"

namespace msprof::trace {

enum class ArgKind : std::uint8_t {
  Unset = 0,
  Buffer = 1,
  Bytes = 2,
  Local = 3,
  Sampler = 4,
  Null = 5,
  Pointer = 6  // object: a Pointer allocation (0: a null pointer), offset into it
};

// An argument as it was at enqueue time. Buffers are "object + offset" so that
// pointer arguments of other device APIs take the same form.
struct KernelArg {
  std::uint32_t index = 0;
  ArgKind kind = ArgKind::Unset;
  CaptureId object = 0;  // buffer or sampler
  std::uint64_t offset = 0;
  std::vector<std::uint8_t> bytes;  // scalars and structs
  std::uint64_t local_size = 0;
  // A buffer, or a pointer into an allocation (not a null pointer).
  bool names_memory() const {
    return kind == ArgKind::Buffer || (kind == ArgKind::Pointer && object != 0);
  }
  friend bool operator==(const KernelArg&, const KernelArg&) = default;
};

struct Rect {
  std::vector<std::uint64_t> buffer_origin, host_origin, region;
  std::uint64_t buffer_row_pitch = 0, buffer_slice_pitch = 0;
  std::uint64_t host_row_pitch = 0, host_slice_pitch = 0;
  friend bool operator==(const Rect&, const Rect&) = default;
};

struct KernelLaunch {
  CaptureId kernel = 0;
  std::uint32_t work_dim = 0;
  std::vector<std::uint64_t> global_offset, global_size, local_size;  // local empty: driver picks
  std::vector<KernelArg> args;
  // Pointer allocations the kernel reaches through pointers stored in
  // memory (OpenCL's CL_KERNEL_EXEC_INFO_SVM_PTRS), as Pointer arguments.
  std::vector<KernelArg> indirect;
  friend bool operator==(const KernelLaunch&, const KernelLaunch&) = default;
};

struct BufferWrite {
  CaptureId buffer = 0;
  std::uint64_t offset = 0, size = 0;
  BlobRef data;
  std::optional<Rect> rect;
  friend bool operator==(const BufferWrite&, const BufferWrite&) = default;
};

struct BufferRead {
  CaptureId buffer = 0;
  std::uint64_t offset = 0, size = 0;
  std::optional<Rect> rect;
  friend bool operator==(const BufferRead&, const BufferRead&) = default;
};

// For rectangular copies the Rect's buffer fields describe the source and its
// host fields the destination.
struct BufferCopy {
  CaptureId src = 0, dst = 0;
  std::uint64_t src_offset = 0, dst_offset = 0, size = 0;
  std::optional<Rect> rect;
  friend bool operator==(const BufferCopy&, const BufferCopy&) = default;
};

// On an image: pattern is the color as given (16 bytes), rect the region.
struct BufferFill {
  CaptureId buffer = 0;
  std::vector<std::uint8_t> pattern;
  std::uint64_t offset = 0, size = 0;
  std::optional<Rect> rect = std::nullopt;
  friend bool operator==(const BufferFill&, const BufferFill&) = default;
};

struct BufferMap {
  CaptureId buffer = 0;
  std::uint64_t flags = 0, offset = 0, size = 0;
  std::optional<Rect> rect = std::nullopt;  // an image's region
  friend bool operator==(const BufferMap&, const BufferMap&) = default;
};

// An unmap's map_seq when the map command came before the range.
inline constexpr std::uint64_t kMappedBeforeRange = ~0ull;

// What the host left in a write mapping, replayed as a write.
struct BufferUnmap {
  CaptureId buffer = 0;
  std::uint64_t map_seq = 0, offset = 0, size = 0;
  BlobRef data;
  std::optional<Rect> rect = std::nullopt;  // an image's region; data packed, as for a write
  friend bool operator==(const BufferUnmap&, const BufferUnmap&) = default;
};

struct Marker {
  friend bool operator==(const Marker&, const Marker&) = default;
};
struct Barrier {
  friend bool operator==(const Barrier&, const Barrier&) = default;
};
// The host waited: finish, wait for events, or a blocking call.
struct HostWait {
  std::vector<CaptureId> events;
  friend bool operator==(const HostWait&, const HostWait&) = default;
};

using CommandBody = std::variant<KernelLaunch, BufferWrite, BufferRead, BufferCopy, BufferFill,
                                 BufferMap, BufferUnmap, Marker, Barrier, HostWait>;

struct Command {
  std::uint64_t seq = 0;  // order of the enqueue within the range
  CaptureId queue = 0;
  CaptureId event = 0;  // the event the command produced, 0 when none
  std::vector<CaptureId> wait_events;
  bool blocking = false;
  std::uint64_t host_time_ns = 0;
  CommandBody body;
  friend bool operator==(const Command&, const Command&) = default;
};

}  // namespace msprof::trace
