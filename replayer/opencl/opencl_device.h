#pragma once

#include <future>
#include <memory>
#include <optional>
#include <string>

#include "replayer/core/device/replay_device.h"
#include "replayer/core/host/cache_clearer.h"
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
                                    const CacheClearRequest& cache,
                                    const RestorePlan& restores) override;
  std::uint64_t cache_clear_bytes(const CacheClearRequest& cache) override;
  // Makes a sweep's cache clearer on a thread of its own: its scratch costs
  // a page fault per page, about as long as loading a small range. Nothing
  // to make where ranges evict their own lines.
  void prepare_cache_clear(const CacheClearRequest& cache) override;
  std::string cache_clear_method() const override;
  // As observed in this process (request_thread_control asks, before the
  // driver loads).
  std::string thread_placement(ThreadControl asked) const override;

  // Whether ranges clear the cache by evicting their own buffers line by
  // line (HostLineFlush): on a CPU device that works in place on host
  // memory of ours, unless the request asks for a sweep. The device is
  // probed once.
  bool evicts_lines(const CacheClearRequest& cache);
  // A range evicted its lines: cache_clear_method() says so.
  void note_lines_evicted() { lines_evicted_ = true; }

  cl_context context() const { return context_.get(); }
  cl_device_id device() const { return entry_.device; }
  cl_command_queue control_queue() const { return control_.get(); }
  // Where restores go: an out-of-order queue where the device has them, so
  // the pieces of copy_pieces() run at once; else the control queue.
  cl_command_queue restore_queue() const;
  // How many pieces to cut each restored buffer into.
  unsigned restore_workers() const;
  // The cache clearer for `bytes` of scratch, made on first use and kept:
  // host threads reading host memory on a CPU device, a kernel elsewhere.
  CacheClearer& cache_clearer(std::uint64_t bytes);

 private:
  OpenClDeviceEntry entry_;
  ClContext context_;
  ClQueue control_;
  ClQueue restore_;  // out of order; empty where the device has none
  std::unique_ptr<CacheClearer> clearer_;
  std::uint64_t clearer_request_ = 0;  // the `bytes` clearer_ was made for
  std::uint64_t pending_request_ = 0;
  std::optional<bool> in_host_memory_;  // probed on first need
  bool lines_evicted_ = false;
  // Declared last, so it is waited for before anything it uses goes.
  std::future<std::unique_ptr<CacheClearer>> pending_clearer_;
};

}  // namespace msprof::replay::opencl
