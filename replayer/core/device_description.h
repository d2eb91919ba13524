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
  // Its kernels run on threads of this process (a CPU device such as
  // PoCL's): what host counters and a CPU simulator can watch.
  bool runs_in_process = false;
  // The driver runs kernels as functions named after them, which a
  // simulator can tell apart (PoCL: _pocl_kernel_<name>_workgroup).
  bool names_kernel_functions = false;
};

}  // namespace msprof::replay
