#include "replayer/opencl/host_memory_buffer.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "replayer/core/host/host_block.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"

namespace msprof::replay::opencl {
namespace {

void CL_CALLBACK free_block(cl_mem /*mem*/, void* block) {
  delete static_cast<HostBlock*>(block);
}

}  // namespace

HostMemoryBuffer create_host_memory_buffer(cl_context context, cl_mem_flags flags,
                                           std::uint64_t size) {
  auto block = std::make_unique<HostBlock>(std::max<std::uint64_t>(size, 1));
  cl_int err = CL_SUCCESS;
  ClMem mem(
      clCreateBuffer(context, flags | CL_MEM_USE_HOST_PTR, block->size(), block->data(), &err));
  cl_check(err, "clCreateBuffer");
  HostMemoryBuffer out{std::move(mem), block->bytes()};
  cl_check(clSetMemObjectDestructorCallback(out.mem.get(), free_block, block.get()),
           "clSetMemObjectDestructorCallback");
  block.release();  // the callback owns it now
  return out;
}

bool works_in_host_memory(cl_context context, cl_device_id device, cl_command_queue queue) {
  cl_uint align_bits = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                      nullptr) != CL_SUCCESS ||
      align_bits / 8 > HostBlock::kAlignment) {
    return false;
  }
  constexpr std::size_t kProbeBytes = 4096;
  try {
    const auto probe = create_host_memory_buffer(context, CL_MEM_READ_WRITE, kProbeBytes);
    auto* host = const_cast<std::byte*>(probe.bytes.data());
    const cl_uchar pattern = 0xA5;
    if (clEnqueueFillBuffer(queue, probe.mem.get(), &pattern, 1, 0, kProbeBytes, 0, nullptr,
                            nullptr) != CL_SUCCESS ||
        clFinish(queue) != CL_SUCCESS) {
      return false;
    }
    const auto is = [&](const std::byte* p, cl_uchar v) {
      return std::all_of(p, p + kProbeBytes, [v](std::byte b) { return b == std::byte{v}; });
    };
    if (!is(host, pattern)) return false;
    std::memset(host, 0x5A, kProbeBytes);
    std::vector<std::byte> back(kProbeBytes);
    if (clEnqueueReadBuffer(queue, probe.mem.get(), CL_TRUE, 0, kProbeBytes, back.data(), 0,
                            nullptr, nullptr) != CL_SUCCESS) {
      return false;
    }
    return is(back.data(), 0x5A);
  } catch (const ReplayError&) {
    return false;
  }
}

}  // namespace msprof::replay::opencl
