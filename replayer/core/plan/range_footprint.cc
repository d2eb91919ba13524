#include "replayer/core/plan/range_footprint.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <variant>

#include "replayer/core/host/host_memory.h"

namespace msprof::replay {

namespace {

// Device memory a range may fill: drivers keep some for themselves.
constexpr double kDeviceMemoryShare = 0.85;

std::array<std::uint64_t, 3> triple(const std::vector<std::uint64_t>& v, std::uint64_t fill) {
  std::array<std::uint64_t, 3> out{fill, fill, fill};
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 3); ++i) out[i] = v[i];
  return out;
}

std::string size_text(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (1ull << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  } else if (bytes >= (1ull << 20)) {
    std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / (1ull << 20));
  } else if (bytes >= (1ull << 10)) {
    std::snprintf(text, sizeof text, "%.0f KiB", static_cast<double>(bytes) / (1ull << 10));
  } else {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return text;
}

std::uint64_t host_need(const RangeFootprint& f, bool memory_is_host) {
  return f.host_data + (memory_is_host ? f.device_bytes() : 0);
}

std::uint64_t room(std::optional<std::uint64_t> capacity, std::uint64_t used) {
  if (!capacity) return UINT64_MAX;
  return *capacity > used ? *capacity - used : 0;
}

}  // namespace

std::uint64_t host_extent(const trace::Rect& r) {
  const auto o = triple(r.host_origin, 0), g = triple(r.region, 1);
  const std::uint64_t row = r.host_row_pitch != 0 ? r.host_row_pitch : g[0];
  const std::uint64_t slice = r.host_slice_pitch != 0 ? r.host_slice_pitch : row * g[1];
  return (o[2] + g[2] - 1) * slice + (o[1] + g[1] - 1) * row + o[0] + g[0];
}

RangeFootprint footprint_of(const RangePlan& plan, const RestorePlan& restores,
                            std::uint64_t scratch_bytes) {
  RangeFootprint f;
  for (const auto* b : plan.buffers) {
    if (b->parent == 0) f.buffers += b->size;
  }
  f.copies = restores.bytes(RestoreSource::Copy);
  f.scratch = scratch_bytes;
  for (const auto& command : plan.range->commands) {
    if (const auto* w = std::get_if<trace::BufferWrite>(&command.body)) {
      f.host_data += w->data.size;
    } else if (const auto* u = std::get_if<trace::BufferUnmap>(&command.body)) {
      f.host_data += u->data.size;
    } else if (const auto* r = std::get_if<trace::BufferRead>(&command.body)) {
      f.host_data += r->rect ? host_extent(*r->rect) : r->size;
    }
  }
  return f;
}

MemoryCapacity memory_capacity(const DeviceDescription& device,
                               std::optional<std::uint64_t> limit) {
  MemoryCapacity c;
  if (!device.memory_is_host && device.global_mem_bytes != 0) {
    c.device = static_cast<std::uint64_t>(kDeviceMemoryShare *
                                          static_cast<double>(device.global_mem_bytes));
  }
  c.host = limit ? limit : available_host_memory();
  c.host_limited_by_user = limit.has_value();
  return c;
}

std::uint64_t copy_budget(const RangeFootprint& without_copies, const MemoryCapacity& capacity,
                          bool memory_is_host) {
  const std::uint64_t wanted = std::max(without_copies.buffers / 4, kMinCopyBudget);
  std::uint64_t free = room(capacity.host, host_need(without_copies, memory_is_host));
  if (!memory_is_host) free = std::min(free, room(capacity.device, without_copies.device_bytes()));
  return std::min(wanted, free);
}

std::optional<std::string> fit_problem(const RangeFootprint& need, const MemoryCapacity& capacity,
                                       bool memory_is_host) {
  const auto parts = [&](bool host_side) {
    std::string out = size_text(need.buffers) + " of buffers";
    if (need.copies != 0) out += ", " + size_text(need.copies) + " of restore copies";
    if (need.scratch != 0) out += ", " + size_text(need.scratch) + " of cache-sweep scratch";
    if (host_side && need.host_data != 0) out += ", " + size_text(need.host_data) + " of host data";
    return out;
  };
  const std::string lighter =
      need.copies != 0 ? "; replay with --restore trace to hold no restore copies" : "";
  if (!memory_is_host && capacity.device && need.device_bytes() > *capacity.device) {
    return "needs " + size_text(need.device_bytes()) + " of device memory (" + parts(false) +
           "), the device offers " + size_text(*capacity.device) + lighter +
           ", or replay it on a device with more memory (--device)";
  }
  const std::uint64_t host = host_need(need, memory_is_host);
  if (capacity.host && host > *capacity.host) {
    const std::string where =
        capacity.host_limited_by_user ? "--memory-limit allows " : "the host has available ";
    return "needs " + size_text(host) + " of host memory (" +
           (memory_is_host ? parts(true) : size_text(need.host_data) + " of host data") + "), " +
           where + size_text(*capacity.host) + lighter +
           (capacity.host_limited_by_user ? ", or raise --memory-limit" : ", or free memory");
  }
  return std::nullopt;
}

}  // namespace msprof::replay
