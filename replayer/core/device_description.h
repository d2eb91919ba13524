#pragma once

#include <cstdint>
#include <string>

namespace msprof::replay {

// The device as the user and the result files see it.
struct DeviceDescription {
  std::uint32_t index = 0;
  std::string name, platform, vendor, driver;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t global_cache_bytes = 0;  // last-level cache, as the device reports it
  std::uint32_t compute_units = 0;
  std::uint32_t max_clock_mhz = 0;
  // Its buffers take host memory (a CPU device, or one sharing the host's
  // memory): what a range needs of the device it needs of the host.
  bool memory_is_host = false;
};

}  // namespace msprof::replay
