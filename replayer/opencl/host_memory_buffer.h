#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

// A buffer whose storage is host memory of ours (a HostBlock, passed with
// CL_MEM_USE_HOST_PTR): on a device that works in place there, `bytes` is
// where the buffer's data lives, which the cache clear evicts. The memory
// goes when the driver destroys the buffer (its destructor callback), not
// when this handle goes: a command or sub-buffer may still hold the buffer.
struct HostMemoryBuffer {
  ClMem mem;
  std::span<const std::byte> bytes;
};

// DeviceError when host memory or the buffer cannot be had.
HostMemoryBuffer create_host_memory_buffer(cl_context context, cl_mem_flags flags,
                                           std::uint64_t size);

// Whether the device works on CL_MEM_USE_HOST_PTR memory in place rather
// than on a copy of it: a fill it makes must show in the host memory
// without a map, and a host write must show in what it reads back. Only
// then does evicting that memory clear the range's data from the caches.
bool works_in_host_memory(cl_context context, cl_device_id device, cl_command_queue queue);

}  // namespace msprof::replay::opencl
