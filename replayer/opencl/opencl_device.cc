#include "replayer/opencl/opencl_device.h"

#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/opencl_loaded_range.h"

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
}

void OpenClDevice::prepare_cache_clear(std::uint64_t cache_scratch_bytes) {
  if (pending_flusher_.valid() ||
      (flusher_ && flusher_->bytes() == CacheFlusher::scratch_size(cache_scratch_bytes))) {
    return;
  }
  pending_flusher_ = std::async(
      std::launch::async, [context = context_.get(), device = entry_.device, cache_scratch_bytes] {
        return std::make_unique<CacheFlusher>(context, device, cache_scratch_bytes);
      });
}

CacheFlusher& OpenClDevice::flusher(std::uint64_t bytes) {
  if (pending_flusher_.valid()) {
    auto made = pending_flusher_.get();
    if (made->bytes() == CacheFlusher::scratch_size(bytes)) flusher_ = std::move(made);
  }
  if (!flusher_ || flusher_->bytes() != CacheFlusher::scratch_size(bytes)) {
    flusher_.reset();
    flusher_ = std::make_unique<CacheFlusher>(context_.get(), entry_.device, bytes);
  }
  return *flusher_;
}

std::unique_ptr<LoadedRange> OpenClDevice::load(const RangePlan& plan, const trace::TraceInfo& info,
                                                const trace::TraceReader& reader,
                                                std::uint64_t cache_scratch_bytes) {
  return std::make_unique<OpenClLoadedRange>(*this, plan, info, reader, cache_scratch_bytes);
}

}  // namespace msprof::replay::opencl
