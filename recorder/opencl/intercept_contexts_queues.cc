// Contexts and queues: tracked always, inside ranges or not, since a range
// uses objects made long before it. Every queue is profiled, out of the
// program's sight.
#include <vector>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/loader_binder.h"

namespace msprof::record::opencl {
namespace {

std::vector<cl_device_id> context_devices(cl_context context) {
  std::size_t size = 0;
  if (next().clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
  next().clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr);
  return devices;
}

void add_context(cl_context context) {
  if (context == nullptr) return;
  const auto devices = context_devices(context);
  record_objects([&](ClObjects& o) {
    for (cl_device_id d : devices) o.device_index(d);
    o.contexts[context] = {CaptureSession::get()->new_id(), devices};
  });
}

cl_context CL_API_CALL layer_clCreateContext(
    const cl_context_properties* props, cl_uint n, const cl_device_id* devices,
    void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* user, cl_int* err) {
  cl_context c = next().clCreateContext(props, n, devices, notify, user, err);
  add_context(c);
  return c;
}

cl_context CL_API_CALL layer_clCreateContextFromType(
    const cl_context_properties* props, cl_device_type type,
    void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* user, cl_int* err) {
  cl_context c = next().clCreateContextFromType(props, type, notify, user, err);
  add_context(c);
  return c;
}

void add_queue(cl_command_queue queue, cl_context context, cl_device_id device,
               cl_command_queue_properties asked) {
  if (queue == nullptr) return;
  record_objects([&](ClObjects& o) {
    o.queues[queue] = {CaptureSession::get()->new_id(), context, device, asked};
  });
}

// Profiling is turned on for every queue so the recorder can time the
// original run; it does not change what the commands compute.
cl_command_queue CL_API_CALL layer_clCreateCommandQueue(cl_context context, cl_device_id device,
                                                        cl_command_queue_properties props,
                                                        cl_int* err) {
  const bool recording = CaptureSession::get() != nullptr;
  cl_command_queue q = next().clCreateCommandQueue(
      context, device, recording ? props | CL_QUEUE_PROFILING_ENABLE : props, err);
  add_queue(q, context, device, props);
  return q;
}

cl_command_queue CL_API_CALL layer_clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device, const cl_queue_properties* props, cl_int* err) {
  if (CaptureSession::get() == nullptr) {
    return next().clCreateCommandQueueWithProperties(context, device, props, err);
  }
  std::vector<cl_queue_properties> list;
  cl_command_queue_properties asked = 0;
  bool has_props = false;
  for (const cl_queue_properties* p = props; p != nullptr && p[0] != 0; p += 2) {
    if (p[0] == CL_QUEUE_PROPERTIES) {
      asked = static_cast<cl_command_queue_properties>(p[1]);
      list.push_back(CL_QUEUE_PROPERTIES);
      list.push_back(static_cast<cl_queue_properties>(asked | CL_QUEUE_PROFILING_ENABLE));
      has_props = true;
    } else {
      list.push_back(p[0]);
      list.push_back(p[1]);
    }
  }
  if (!has_props) {
    list.push_back(CL_QUEUE_PROPERTIES);
    list.push_back(CL_QUEUE_PROFILING_ENABLE);
  }
  list.push_back(0);
  cl_command_queue q = next().clCreateCommandQueueWithProperties(context, device, list.data(), err);
  add_queue(q, context, device, asked);
  return q;
}

// The program sees the properties it asked for, not the profiling bit the
// recorder added.
cl_int CL_API_CALL layer_clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info what,
                                               size_t size, void* value, size_t* size_ret) {
  const cl_int status = next().clGetCommandQueueInfo(queue, what, size, value, size_ret);
  if (status == CL_SUCCESS && what == CL_QUEUE_PROPERTIES && value != nullptr &&
      size >= sizeof(cl_command_queue_properties)) {
    record_objects([&](ClObjects& o) {
      if (const auto it = o.queues.find(queue); it != o.queues.end()) {
        auto* props = static_cast<cl_command_queue_properties*>(value);
        *props =
            (*props & ~CL_QUEUE_PROFILING_ENABLE) | (it->second.asked & CL_QUEUE_PROFILING_ENABLE);
      }
    });
  }
  return status;
}

// Nor does it see timestamps on a queue it did not ask to profile: what it
// gets back is what it would get without the recorder.
cl_int CL_API_CALL layer_clGetEventProfilingInfo(cl_event event, cl_profiling_info what,
                                                 size_t size, void* value, size_t* size_ret) {
  cl_command_queue queue = nullptr;
  if (next().clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr) ==
          CL_SUCCESS &&
      queue != nullptr) {
    bool hidden = false;
    record_objects([&](ClObjects& o) {
      if (const auto it = o.queues.find(queue); it != o.queues.end())
        hidden = (it->second.asked & CL_QUEUE_PROFILING_ENABLE) == 0;
    });
    if (hidden) return CL_PROFILING_INFO_NOT_AVAILABLE;
  }
  return next().clGetEventProfilingInfo(event, what, size, value, size_ret);
}

// A probe of LoaderBinder: a call through some loader reached the layer.
cl_int CL_API_CALL layer_clGetPlatformInfo(cl_platform_id platform, cl_platform_info what,
                                           size_t size, void* value, size_t* size_ret) {
  LoaderBinder::note_call();
  return next().clGetPlatformInfo(platform, what, size, value, size_ret);
}

}  // namespace

void install_context_queue_intercepts(cl_icd_dispatch& t) {
  t.clCreateContext = layer_clCreateContext;
  t.clCreateContextFromType = layer_clCreateContextFromType;
  t.clCreateCommandQueue = layer_clCreateCommandQueue;
  t.clCreateCommandQueueWithProperties = layer_clCreateCommandQueueWithProperties;
  t.clGetCommandQueueInfo = layer_clGetCommandQueueInfo;
  t.clGetEventProfilingInfo = layer_clGetEventProfilingInfo;
  t.clGetPlatformInfo = layer_clGetPlatformInfo;
}

}  // namespace msprof::record::opencl
