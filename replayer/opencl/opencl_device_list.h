#pragma once

#include <string>
#include <vector>

#include "format/trace_objects.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/opencl/cl_api.h"

namespace msprof::replay::opencl {

struct OpenClDeviceEntry {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceDescription description;
  // A CPU device working in host memory: its caches are the host's, so the
  // host can clear them without a kernel.
  bool shares_host_caches = false;
  // A CPU device: its kernels run on worker threads in this process.
  bool cpu = false;
};

// Every device of every platform, numbered in that order. An empty list when
// there is no OpenCL platform at all.
std::vector<OpenClDeviceEntry> list_opencl_devices();

// `spec` is an index or a substring of the device name; empty picks the
// device the trace was recorded on when present, else the first one and says
// so in `note`. UsageError listing the devices when nothing fits.
const OpenClDeviceEntry& choose_device(const std::vector<OpenClDeviceEntry>& devices,
                                       const std::string& spec, const trace::TraceInfo& info,
                                       std::string& note);

}  // namespace msprof::replay::opencl
