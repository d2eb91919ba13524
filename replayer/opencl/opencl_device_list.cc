#include "replayer/opencl/opencl_device_list.h"

#include <algorithm>
#include <cctype>

#include "replayer/core/replay_error.h"

namespace msprof::replay::opencl {

namespace {

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  clGetDeviceInfo(device, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  clGetDeviceInfo(device, what, sizeof value, &value, nullptr);
  return value;
}

std::string device_names(const std::vector<OpenClDeviceEntry>& devices) {
  std::string names;
  for (const auto& d : devices) {
    names += (names.empty() ? "" : ", ") + std::to_string(d.description.index) + " '" +
             d.description.name + "'";
  }
  return names.empty() ? "(none)" : names;
}

bool all_digits(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

std::vector<OpenClDeviceEntry> list_opencl_devices() {
  std::vector<OpenClDeviceEntry> out;
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(0, nullptr, &platform_count) != CL_SUCCESS || platform_count == 0)
    return out;
  std::vector<cl_platform_id> platforms(platform_count);
  clGetPlatformIDs(platform_count, platforms.data(), nullptr);
  for (auto platform : platforms) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(count);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
    for (auto device : devices) {
      OpenClDeviceEntry e;
      e.platform = platform;
      e.device = device;
      auto& d = e.description;
      d.index = static_cast<std::uint32_t>(out.size());
      d.name = device_string(device, CL_DEVICE_NAME);
      d.vendor = device_string(device, CL_DEVICE_VENDOR);
      d.driver = device_string(device, CL_DRIVER_VERSION);
      d.platform = platform_string(platform, CL_PLATFORM_NAME);
      d.global_mem_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
      d.global_cache_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
      d.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
      d.max_clock_mhz = device_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
      e.cpu = (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
      e.shares_host_caches =
          e.cpu && device_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
      d.memory_is_host =
          e.cpu || device_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
      // PoCL's CPU devices compile each kernel to _pocl_kernel_<name>_workgroup.
      d.names_kernel_functions = e.cpu && d.platform == "Portable Computing Language";
      // Worker threads of this process run the kernels; PoCL's basic device
      // runs them on the thread that waits, which perf does not count.
      d.runs_in_process = e.cpu && !(d.names_kernel_functions && d.name.rfind("basic", 0) == 0);
      out.push_back(std::move(e));
    }
  }
  return out;
}

const OpenClDeviceEntry& choose_device(const std::vector<OpenClDeviceEntry>& devices,
                                       const std::string& spec, const trace::TraceInfo& info,
                                       std::string& note) {
  if (devices.empty()) {
    throw UsageError("no OpenCL device found; install an OpenCL driver (clinfo -l lists them)");
  }
  if (all_digits(spec)) {
    // Compared as text length first: a huge index is simply not a device.
    if (spec.size() <= 9) {
      const auto index = std::stoull(spec);
      if (index < devices.size()) return devices[index];
    }
  } else if (!spec.empty()) {
    for (const auto& d : devices) {
      if (d.description.name.find(spec) != std::string::npos) return d;
    }
  }
  if (!spec.empty()) {
    throw UsageError("no device '" + spec + "'; devices: " + device_names(devices));
  }
  for (const auto& recorded : info.devices) {
    for (const auto& d : devices) {
      if (d.description.name == recorded.device_name) return d;
    }
  }
  const std::string recorded = info.devices.empty() ? "unknown" : info.devices.front().device_name;
  note = "the trace was recorded on '" + recorded +
         "', which is not here; replaying on device 0 '" + devices.front().description.name + "'";
  return devices.front();
}

}  // namespace msprof::replay::opencl
