#include "replayer/opencl/kernel_cache_flusher.h"

#include <algorithm>
#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"

namespace msprof::replay::opencl {

namespace {

// Each work-item sums a contiguous slice, which a CPU device streams and a
// GPU device reads coalesced enough; the sum is kept alive by a store the
// compiler cannot prove dead.
constexpr const char* kFlushSource = R"CL(
__kernel void msprof_cache_flush(__global const uint* scratch, __global uint* sink,
                                 ulong per_item, ulong count) {
  ulong begin = get_global_id(0) * per_item;
  ulong end = min(begin + per_item, count);
  uint acc = 0;
  for (ulong i = begin; i < end; ++i) acc += scratch[i];
  if (acc == 0x2545F491u) sink[0] = acc;
}
)CL";

constexpr std::size_t kFlushItems = 1024;

}  // namespace

KernelCacheFlusher::KernelCacheFlusher(cl_context context, cl_device_id device, std::uint64_t bytes)
    : bytes_(std::max<std::uint64_t>(bytes / 4 * 4, 4096)) {
  cl_int err = CL_SUCCESS;
  // A queue of its own: its setup may run while ranges load on the others.
  const cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES, 0, 0};
  queue_ = ClQueue(clCreateCommandQueueWithProperties(context, device, queue_properties, &err));
  cl_check(err, "clCreateCommandQueueWithProperties");
  scratch_ = ClMem(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes_, nullptr, &err));
  if (err != CL_SUCCESS) {
    throw DeviceError("cannot allocate the " + std::to_string(bytes_ >> 20) +
                      " MiB cache-clearing buffer (" + cl_error_name(err) +
                      "); use --cache-size with a smaller size or --cache-control none");
  }
  sink_ = ClMem(clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &err));
  cl_check(err, "clCreateBuffer");
  const char* source = kFlushSource;
  program_ = ClProgram(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  cl_check(err, "clCreateProgramWithSource");
  cl_check(clBuildProgram(program_.get(), 1, &device, "", nullptr, nullptr), "clBuildProgram");
  kernel_ = ClKernel(clCreateKernel(program_.get(), "msprof_cache_flush", &err));
  cl_check(err, "clCreateKernel");
  // Written once, so the device has really placed it; after that reading it
  // is what evicts the range's lines, and writing it again per flush only
  // doubled the cost.
  const cl_uint pattern = 0x9E3779B9u;
  cl_check(clEnqueueFillBuffer(queue_.get(), scratch_.get(), &pattern, sizeof pattern, 0, bytes_, 0,
                               nullptr, nullptr),
           "clEnqueueFillBuffer");
  cl_check(clFinish(queue_.get()), "clFinish");
}

void KernelCacheFlusher::clear() {
  const cl_mem scratch = scratch_.get(), sink = sink_.get();
  const cl_ulong count = bytes_ / 4;
  const cl_ulong per_item = (count + kFlushItems - 1) / kFlushItems;
  cl_check(clSetKernelArg(kernel_.get(), 0, sizeof scratch, &scratch), "clSetKernelArg");
  cl_check(clSetKernelArg(kernel_.get(), 1, sizeof sink, &sink), "clSetKernelArg");
  cl_check(clSetKernelArg(kernel_.get(), 2, sizeof per_item, &per_item), "clSetKernelArg");
  cl_check(clSetKernelArg(kernel_.get(), 3, sizeof count, &count), "clSetKernelArg");
  const std::size_t global = kFlushItems;
  cl_check(clEnqueueNDRangeKernel(queue_.get(), kernel_.get(), 1, nullptr, &global, nullptr, 0,
                                  nullptr, nullptr),
           "clEnqueueNDRangeKernel");
  cl_check(clFinish(queue_.get()), "clFinish");
}

std::string KernelCacheFlusher::method() const {
  return "read " + std::to_string((bytes_ + (1u << 19)) >> 20) + " MiB in a device kernel";
}

}  // namespace msprof::replay::opencl
