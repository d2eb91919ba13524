#include "replayer/opencl/opencl_device.h"

#include <algorithm>

#include "replayer/core/host/host_cache_sweep.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/host_memory_buffer.h"
#include "replayer/opencl/kernel_cache_flusher.h"
#include "replayer/opencl/opencl_loaded_range.h"
#include "replayer/opencl/worker_thread_placement.h"

namespace msprof::replay::opencl {

OpenClDevice::OpenClDevice(const OpenClDeviceEntry& entry) : entry_(entry) {
  cl_int err = CL_SUCCESS;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(entry_.platform), 0};
  context_ = ClContext(clCreateContext(properties, 1, &entry_.device, nullptr, nullptr, &err));
  cl_check(err, "clCreateContext");
  const cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES, 0, 0};
  control_ = ClQueue(
      clCreateCommandQueueWithProperties(context_.get(), entry_.device, queue_properties, &err));
  cl_check(err, "clCreateCommandQueueWithProperties");
  // Restores run as pieces that the device may execute at once where it
  // takes out-of-order queues (a CPU device: on several worker threads).
  cl_command_queue_properties host_queue = 0;
  clGetDeviceInfo(entry_.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host_queue, &host_queue,
                  nullptr);
  if ((host_queue & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
    const cl_queue_properties any_order[] = {CL_QUEUE_PROPERTIES,
                                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    restore_ =
        ClQueue(clCreateCommandQueueWithProperties(context_.get(), entry_.device, any_order, &err));
    if (err != CL_SUCCESS) restore_ = ClQueue();
  }
}

cl_command_queue OpenClDevice::restore_queue() const {
  return restore_ ? restore_.get() : control_.get();
}

unsigned OpenClDevice::restore_workers() const {
  // A GPU copies with its DMA engines, whole buffers at a time.
  return restore_ && entry_.cpu ? std::max(1u, entry_.description.compute_units) : 1u;
}

namespace {

std::unique_ptr<CacheClearer> make_cache_clearer(const OpenClDeviceEntry& entry, cl_context context,
                                                 std::uint64_t bytes) {
  if (entry.shares_host_caches) {
    return std::make_unique<HostCacheSweep>(bytes, entry.description.compute_units);
  }
  return std::make_unique<KernelCacheFlusher>(context, entry.device, bytes);
}

}  // namespace

bool OpenClDevice::evicts_lines(const CacheClearRequest& cache) {
  if (!cache.enabled() || cache.sweep_asked || !entry_.shares_host_caches ||
      !HostLineFlush::available()) {
    return false;
  }
  if (!in_host_memory_) {
    in_host_memory_ = works_in_host_memory(context_.get(), entry_.device, control_.get());
  }
  return *in_host_memory_;
}

void OpenClDevice::prepare_cache_clear(const CacheClearRequest& cache) {
  if (!cache.enabled() || evicts_lines(cache)) return;
  const std::uint64_t cache_scratch_bytes = cache.scratch_bytes;
  if (pending_clearer_.valid() || (clearer_ && clearer_request_ == cache_scratch_bytes)) return;
  pending_request_ = cache_scratch_bytes;
  pending_clearer_ =
      std::async(std::launch::async, [this, context = context_.get(), cache_scratch_bytes] {
        return make_cache_clearer(entry_, context, cache_scratch_bytes);
      });
}

CacheClearer& OpenClDevice::cache_clearer(std::uint64_t bytes) {
  if (pending_clearer_.valid()) {
    auto made = pending_clearer_.get();
    if (pending_request_ == bytes) {
      clearer_ = std::move(made);
      clearer_request_ = bytes;
    }
  }
  if (!clearer_ || clearer_request_ != bytes) {
    clearer_.reset();
    clearer_ = make_cache_clearer(entry_, context_.get(), bytes);
    clearer_request_ = bytes;
  }
  return *clearer_;
}

std::string OpenClDevice::thread_placement(ThreadControl asked) const {
  if (!entry_.cpu) return "";
  return describe_thread_placement(asked, observe_thread_pinning());
}

std::string OpenClDevice::cache_clear_method() const {
  if (lines_evicted_) return HostLineFlush::describe();
  return clearer_ ? clearer_->method() : "";
}

std::unique_ptr<LoadedRange> OpenClDevice::load(const RangePlan& plan, const trace::TraceInfo& info,
                                                const trace::TraceReader& reader,
                                                const CacheClearRequest& cache,
                                                const RestorePlan& restores) {
  return std::make_unique<OpenClLoadedRange>(*this, plan, info, reader, cache, restores);
}

std::uint64_t OpenClDevice::cache_clear_bytes(const CacheClearRequest& cache) {
  return !cache.enabled() || evicts_lines(cache) ? 0 : cache.scratch_bytes;
}

}  // namespace msprof::replay::opencl
