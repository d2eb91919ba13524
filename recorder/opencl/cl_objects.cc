#include "recorder/opencl/cl_objects.h"

#include <algorithm>

namespace msprof::record::opencl {
namespace {

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (next().clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string out(size, '\0');
  if (next().clGetDeviceInfo(device, what, size, out.data(), nullptr) != CL_SUCCESS) return "";
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  if (next().clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return "";
  std::string out(size, '\0');
  if (next().clGetPlatformInfo(platform, what, size, out.data(), nullptr) != CL_SUCCESS) return "";
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  if (next().clGetDeviceInfo(device, what, sizeof value, &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  return "OTHER";
}

}  // namespace

trace::DeviceInfo describe_device(cl_device_id device) {
  trace::DeviceInfo d;
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  if (platform != nullptr) {
    d.platform_name = platform_string(platform, CL_PLATFORM_NAME);
    d.platform_version = platform_string(platform, CL_PLATFORM_VERSION);
  }
  d.device_name = device_string(device, CL_DEVICE_NAME);
  d.vendor = device_string(device, CL_DEVICE_VENDOR);
  d.driver_version = device_string(device, CL_DRIVER_VERSION);
  d.device_version = device_string(device, CL_DEVICE_VERSION);
  d.device_type = type_name(device_value<cl_device_type>(device, CL_DEVICE_TYPE));
  d.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  d.global_mem_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  d.local_mem_bytes = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  d.global_cache_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  d.cacheline_bytes = device_value<cl_uint>(device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
  d.max_clock_mhz = device_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  d.max_work_group_size = device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  d.address_bits = device_value<cl_uint>(device, CL_DEVICE_ADDRESS_BITS);
  return d;
}

std::optional<std::string> KernelInfo::unreplayable() const {
  for (const auto* why :
       {&svm_ptrs_unreplayable, &system_svm_unreplayable, &exec_info_unreplayable}) {
    if (*why) return *why;
  }
  for (const std::string& reason : arg_unreplayable) {
    if (!reason.empty()) return reason;
  }
  return std::nullopt;
}

void ClObjects::note_binaries(const ProgramInfo& program,
                              const std::vector<std::span<const std::byte>>& binaries) {
  const bool built_from_text = !program.sources.empty() || !program.il.empty();
  if (!built_from_text) return;
  for (const auto& binary : binaries) {
    if (binary.empty()) continue;
    binary_origins[trace::hash128(binary)] =
        BinaryOrigin{program.sources, program.il, program.build_options};
  }
}

std::uint32_t ClObjects::device_index(cl_device_id device) {
  const auto it = std::find(devices.begin(), devices.end(), device);
  if (it != devices.end()) return static_cast<std::uint32_t>(it - devices.begin());
  devices.push_back(device);
  device_infos.push_back(describe_device(device));
  return static_cast<std::uint32_t>(devices.size() - 1);
}

}  // namespace msprof::record::opencl
