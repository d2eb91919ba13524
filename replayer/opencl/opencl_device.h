#pragma once

#include <future>
#include <memory>

#include "replayer/core/replay_device.h"
#include "replayer/opencl/cache_flusher.h"
#include "replayer/opencl/cl_handle.h"
#include "replayer/opencl/opencl_device_list.h"

namespace msprof::replay::opencl {

// The OpenCL backend: one context on one device, shared by every range of
// the replay, with a control queue for restores and read-backs.
class OpenClDevice : public ReplayDevice {
 public:
  explicit OpenClDevice(const OpenClDeviceEntry& entry);

  const DeviceDescription& description() const override { return entry_.description; }
  std::unique_ptr<LoadedRange> load(const RangePlan& plan, const trace::TraceInfo& info,
                                    const trace::TraceReader& reader,
                                    std::uint64_t cache_scratch_bytes) override;
  // Makes the flusher on a thread of its own: filling its scratch costs a
  // page fault per page, about as long as loading a small range.
  void prepare_cache_clear(std::uint64_t cache_scratch_bytes) override;

  cl_context context() const { return context_.get(); }
  cl_device_id device() const { return entry_.device; }
  cl_command_queue control_queue() const { return control_.get(); }
  // The flusher for `bytes` of scratch, made on first use and kept.
  CacheFlusher& flusher(std::uint64_t bytes);

 private:
  OpenClDeviceEntry entry_;
  ClContext context_;
  ClQueue control_;
  std::unique_ptr<CacheFlusher> flusher_;
  // Declared last, so it is waited for before anything it uses goes.
  std::future<std::unique_ptr<CacheFlusher>> pending_flusher_;
};

}  // namespace msprof::replay::opencl
