#include "replayer/opencl/device_memory.h"

#include <algorithm>

#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/host_memory_buffer.h"
#include "replayer/opencl/opencl_device.h"

namespace msprof::replay::opencl {

cl_context MemoryContext::context() const {
  return device.context();
}

cl_command_queue MemoryContext::control_queue() const {
  return device.control_queue();
}

ClMem MemoryContext::create_buffer(cl_mem_flags flags, std::uint64_t size, cl_int& err,
                                   std::span<const std::byte>* host_bytes) const {
  if (!evicts_lines) {
    return ClMem(
        clCreateBuffer(device.context(), flags, std::max<std::uint64_t>(size, 1), nullptr, &err));
  }
  auto buffer = create_host_memory_buffer(device.context(), flags, size);
  line_flush.add(buffer.bytes);
  if (host_bytes != nullptr) *host_bytes = buffer.bytes;
  err = CL_SUCCESS;
  return std::move(buffer.mem);
}

cl_event Submission::marker() const {
  cl_event event = nullptr;
  cl_check(clEnqueueMarkerWithWaitList(queue, count(), list(), &event),
           "clEnqueueMarkerWithWaitList");
  return event;
}

cl_event DeviceMemory::enqueue_unmap(const Submission& at, const trace::BufferUnmap& unmap,
                                     std::span<const std::byte> data) {
  if (data.empty()) return at.marker();
  return enqueue_unmap_write(at, unmap, data);
}

void DeviceMemory::restore(cl_command_queue queue, unsigned workers) {
  switch (restore_) {
    case Restore::Copy:
      restore_from_copy(queue, workers);
      break;
    case Restore::Zeros:
      restore_zeros(queue, workers);
      break;
    case Restore::Nothing:
      break;
  }
}

std::array<std::size_t, 3> triple(const std::vector<std::uint64_t>& v, std::size_t fill) {
  std::array<std::size_t, 3> out{fill, fill, fill};
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 3); ++i) out[i] = v[i];
  return out;
}

}  // namespace msprof::replay::opencl
