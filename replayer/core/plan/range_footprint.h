#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/trace_commands.h"
#include "format/trace_range.h"
#include "replayer/core/device_description.h"
#include "replayer/core/plan/range_plan.h"
#include "replayer/core/plan/restore_plan.h"

namespace msprof::replay {

// Bytes of host memory a rectangular region spans from its base.
std::uint64_t host_extent(const trace::Rect& rect);

// What replaying a range holds in memory, before it is loaded.
struct RangeFootprint {
  std::uint64_t buffers = 0;    // its root buffers
  std::uint64_t copies = 0;     // pristine copies restores are made from
  std::uint64_t host_data = 0;  // the host side of its writes and reads
  std::uint64_t scratch = 0;    // a cache sweep's scratch on the device
  std::uint64_t device_bytes() const { return buffers + copies + scratch; }
};

RangeFootprint footprint_of(const RangePlan& plan, const RestorePlan& restores,
                            std::uint64_t scratch_bytes);

// The memory a replay may use: the device's (nullopt where its buffers are
// host memory, or it does not say) and the host's (nullopt where unknown).
struct MemoryCapacity {
  std::optional<std::uint64_t> device;
  std::optional<std::uint64_t> host;
  bool host_limited_by_user = false;  // --memory-limit, not what the host has
};

// limit: --memory-limit, else what the host has available now.
MemoryCapacity memory_capacity(const DeviceDescription& device, std::optional<std::uint64_t> limit);

// The bytes RestorePolicy::Auto may hold in copies: a quarter of the
// range's buffer bytes (at least kMinCopyBudget), within what the range
// leaves free. A quarter, not a half: the replayer's own memory (the driver,
// its compiler) comes on top, and the whole stays within 1.5x the buffers.
std::uint64_t copy_budget(const RangeFootprint& without_copies, const MemoryCapacity& capacity,
                          bool memory_is_host);
constexpr std::uint64_t kMinCopyBudget = 256ull << 20;

// Why the range cannot be loaded, naming what it needs and what is there,
// and the way out; nullopt when it fits.
std::optional<std::string> fit_problem(const RangeFootprint& need, const MemoryCapacity& capacity,
                                       bool memory_is_host);

}  // namespace msprof::replay
