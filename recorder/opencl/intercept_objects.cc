// Object creation and kernel arguments: tracked always, inside ranges or not,
// since a range uses objects made long before it.
#include <cstring>
#include <string>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_image.h"
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

void add_buffer(cl_mem mem, cl_context context, cl_mem_flags flags, std::uint64_t size,
                cl_mem parent, std::uint64_t origin, const void* host = nullptr) {
  if (mem == nullptr) return;
  record_objects([&](ClObjects& o) {
    o.images.erase(mem);
    BufferInfo info{
        CaptureSession::get()->new_id(), context, flags, size, parent, origin, 0, 0, std::nullopt};
    // A buffer over SVM memory aliases the allocation: replay must make it
    // over the replayed allocation, or kernels on the two would part ways.
    if (parent == nullptr && host != nullptr && (flags & CL_MEM_USE_HOST_PTR) != 0) {
      if (const auto at = o.svm.find(reinterpret_cast<std::uintptr_t>(host))) {
        info.svm_base = at->base;
        info.svm_offset = at->offset;
      }
    }
    const bool own_memory = parent == nullptr && info.svm_base == 0;
    o.buffers[mem] = info;
    if (own_memory) CaptureSession::get()->buffer_created_locked(size);
  });
}

// Pipes, GL objects: memory the recorder cannot replay.
void add_unreplayable_memory(cl_mem mem) {
  if (mem == nullptr) return;
  record_objects([&](ClObjects& o) {
    o.buffers.erase(mem);
    o.images.insert(mem);
  });
}

void add_image(cl_mem mem, cl_context context, cl_mem_flags flags) {
  if (mem == nullptr) return;
  const auto desc = describe_image(mem);
  if (!desc) {
    add_unreplayable_memory(mem);
    return;
  }
  const cl_mem over = image_buffer(mem);
  record_objects([&](ClObjects& o) {
    o.images.erase(mem);
    BufferInfo info{CaptureSession::get()->new_id(),
                    context,
                    flags,
                    desc->packed_size(),
                    over,
                    0,
                    0,
                    0,
                    std::nullopt};
    info.image = desc;
    o.buffers[mem] = info;
    if (over == nullptr) CaptureSession::get()->buffer_created_locked(info.size);
  });
}

cl_mem CL_API_CALL layer_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                        void* host, cl_int* err) {
  cl_mem m = next().clCreateBuffer(context, flags, size, host, err);
  add_buffer(m, context, flags, size, nullptr, 0, host);
  return m;
}

cl_mem CL_API_CALL layer_clCreateBufferWithProperties(cl_context context,
                                                      const cl_mem_properties* props,
                                                      cl_mem_flags flags, size_t size, void* host,
                                                      cl_int* err) {
  cl_mem m = next().clCreateBufferWithProperties(context, props, flags, size, host, err);
  add_buffer(m, context, flags, size, nullptr, 0, host);
  return m;
}

cl_mem CL_API_CALL layer_clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
                                           cl_buffer_create_type type, const void* info,
                                           cl_int* err) {
  cl_mem m = next().clCreateSubBuffer(parent, flags, type, info, err);
  if (m != nullptr && type == CL_BUFFER_CREATE_TYPE_REGION && info != nullptr) {
    const auto* region = static_cast<const cl_buffer_region*>(info);
    cl_context context = nullptr;
    next().clGetMemObjectInfo(parent, CL_MEM_CONTEXT, sizeof context, &context, nullptr);
    add_buffer(m, context, flags, region->size, parent, region->origin);
  }
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                       const cl_image_desc* desc, void* host, cl_int* err) {
  cl_mem m = next().clCreateImage(c, f, fmt, desc, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImageWithProperties(cl_context c, const cl_mem_properties* props,
                                                     cl_mem_flags f, const cl_image_format* fmt,
                                                     const cl_image_desc* desc, void* host,
                                                     cl_int* err) {
  cl_mem m = next().clCreateImageWithProperties(c, props, f, fmt, desc, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage2D(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                         size_t w, size_t h, size_t pitch, void* host,
                                         cl_int* err) {
  cl_mem m = next().clCreateImage2D(c, f, fmt, w, h, pitch, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage3D(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                         size_t w, size_t h, size_t d, size_t rp, size_t sp,
                                         void* host, cl_int* err) {
  cl_mem m = next().clCreateImage3D(c, f, fmt, w, h, d, rp, sp, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreatePipe(cl_context c, cl_mem_flags f, cl_uint packet,
                                      cl_uint max_packets, const cl_pipe_properties* props,
                                      cl_int* err) {
  cl_mem m = next().clCreatePipe(c, f, packet, max_packets, props, err);
  add_unreplayable_memory(m);
  return m;
}

// Registers a program the driver made; `fill` adds what its kind keeps.
template <typename Fill>
cl_program add_program(cl_program program, cl_context context, trace::ProgramKind kind,
                       Fill&& fill) {
  if (program == nullptr) return program;
  record_objects([&](ClObjects& o) {
    ProgramInfo info;
    info.id = CaptureSession::get()->new_id();
    info.context = context;
    info.kind = kind;
    fill(info);
    o.programs[program] = std::move(info);
  });
  return program;
}

cl_program CL_API_CALL layer_clCreateProgramWithSource(cl_context context, cl_uint count,
                                                       const char** strings, const size_t* lengths,
                                                       cl_int* err) {
  cl_program p = next().clCreateProgramWithSource(context, count, strings, lengths, err);
  return add_program(p, context, trace::ProgramKind::Source, [&](ProgramInfo& info) {
    for (cl_uint i = 0; i < count; ++i) {
      const std::size_t n =
          lengths != nullptr && lengths[i] != 0 ? lengths[i] : std::strlen(strings[i]);
      info.sources.emplace_back(strings[i], n);
    }
  });
}

cl_program CL_API_CALL layer_clCreateProgramWithBinary(cl_context context, cl_uint count,
                                                       const cl_device_id* devices,
                                                       const size_t* lengths,
                                                       const unsigned char** binaries,
                                                       cl_int* status, cl_int* err) {
  cl_program p =
      next().clCreateProgramWithBinary(context, count, devices, lengths, binaries, status, err);
  // Hashed before the lock: a binary is megabytes at most, hashed at memory
  // speed, and the program's other threads need not wait for it.
  std::vector<trace::Hash128> hashes;
  if (p != nullptr) {
    for (cl_uint i = 0; i < count; ++i) {
      hashes.push_back(
          trace::hash128({reinterpret_cast<const std::byte*>(binaries[i]), lengths[i]}));
    }
  }
  cl_program made = add_program(p, context, trace::ProgramKind::Binary, [&](ProgramInfo& info) {
    for (cl_uint i = 0; i < count; ++i) {
      const auto* b = reinterpret_cast<const std::byte*>(binaries[i]);
      info.given_binaries.emplace_back(devices[i], std::vector<std::byte>(b, b + lengths[i]));
    }
  });
  if (made == nullptr) return made;
  record_objects([&](ClObjects& o) {
    const auto program = o.programs.find(made);
    if (program == o.programs.end()) return;
    for (const auto& h : hashes) {
      const auto origin = o.binary_origins.find(h);
      if (origin == o.binary_origins.end()) continue;
      // The process built these very bytes from source or IL (a framework's
      // program cache, tinygrad's compile-then-load).
      program->second.sources = origin->second.sources;
      program->second.il = origin->second.il;
      program->second.build_options = origin->second.build_options;
      program->second.source_from_binary = true;
      break;
    }
  });
  return made;
}

// A probe of LoaderBinder: a call through some loader reached the layer.
cl_int CL_API_CALL layer_clGetPlatformInfo(cl_platform_id platform, cl_platform_info what,
                                           size_t size, void* value, size_t* size_ret) {
  LoaderBinder::note_call();
  return next().clGetPlatformInfo(platform, what, size, value, size_ret);
}

cl_int CL_API_CALL layer_clGetProgramInfo(cl_program program, cl_program_info what, size_t size,
                                          void* value, size_t* size_ret) {
  const cl_int status = next().clGetProgramInfo(program, what, size, value, size_ret);
  if (status != CL_SUCCESS || what != CL_PROGRAM_BINARIES || value == nullptr) return status;
  // The program reads the binaries of what it built: remember where they
  // came from, for a program it makes from them later.
  std::vector<std::size_t> sizes(size / sizeof(unsigned char*));
  if (sizes.empty() ||
      next().clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizes.size() * sizeof(std::size_t),
                              sizes.data(), nullptr) != CL_SUCCESS)
    return status;
  const auto* pointers = static_cast<unsigned char* const*>(value);
  std::vector<std::span<const std::byte>> binaries;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (pointers[i] != nullptr)
      binaries.emplace_back(reinterpret_cast<const std::byte*>(pointers[i]), sizes[i]);
  }
  record_objects([&](ClObjects& o) {
    const auto it = o.programs.find(program);
    if (it != o.programs.end()) o.note_binaries(it->second, binaries);
  });
  return status;
}

cl_program CL_API_CALL layer_clCreateProgramWithIL(cl_context context, const void* il,
                                                   size_t length, cl_int* err) {
  cl_program p = next().clCreateProgramWithIL(context, il, length, err);
  return add_program(p, context, trace::ProgramKind::IL, [&](ProgramInfo& info) {
    const auto* b = static_cast<const std::byte*>(il);
    info.il.assign(b, b + length);
  });
}

cl_program CL_API_CALL layer_clCreateProgramWithBuiltInKernels(cl_context context, cl_uint n,
                                                               const cl_device_id* devices,
                                                               const char* names, cl_int* err) {
  cl_program p = next().clCreateProgramWithBuiltInKernels(context, n, devices, names, err);
  return add_program(p, context, trace::ProgramKind::BuiltIn,
                     [&](ProgramInfo& info) { info.kernel_names = names != nullptr ? names : ""; });
}

cl_int CL_API_CALL layer_clBuildProgram(cl_program program, cl_uint n, const cl_device_id* devices,
                                        const char* options,
                                        void(CL_CALLBACK* notify)(cl_program, void*), void* user) {
  const cl_int status = next().clBuildProgram(program, n, devices, options, notify, user);
  if (status == CL_SUCCESS) {
    record_objects([&](ClObjects& o) {
      if (const auto it = o.programs.find(program);
          it != o.programs.end() && !it->second.source_from_binary) {
        // A program made from a binary whose source is known keeps the
        // options that source was built with: a rebuild needs those.
        it->second.build_options = options != nullptr ? options : "";
      }
    });
  }
  return status;
}

cl_program CL_API_CALL layer_clLinkProgram(cl_context context, cl_uint n,
                                           const cl_device_id* devices, const char* options,
                                           cl_uint count, const cl_program* inputs,
                                           void(CL_CALLBACK* notify)(cl_program, void*), void* user,
                                           cl_int* err) {
  cl_program p =
      next().clLinkProgram(context, n, devices, options, count, inputs, notify, user, err);
  // A linked program has no single source; it replays from its binary on
  // the same device and driver.
  return add_program(p, context, trace::ProgramKind::Binary, [&](ProgramInfo& info) {
    info.build_options = options != nullptr ? options : "";
  });
}

void add_kernel(cl_kernel kernel, cl_program program, std::string name) {
  cl_uint num_args = 0;
  next().clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, nullptr);
  record_objects([&](ClObjects& o) {
    KernelInfo info;
    info.id = CaptureSession::get()->new_id();
    info.program = program;
    info.name = std::move(name);
    info.num_args = num_args;
    info.args.resize(num_args);
    info.arg_buffers.resize(num_args, nullptr);
    info.arg_svm.resize(num_args, 0);
    info.arg_unreplayable.resize(num_args);
    for (cl_uint i = 0; i < num_args; ++i) info.args[i].index = i;
    o.kernels[kernel] = std::move(info);
  });
}

cl_kernel CL_API_CALL layer_clCreateKernel(cl_program program, const char* name, cl_int* err) {
  cl_kernel k = next().clCreateKernel(program, name, err);
  if (k != nullptr) add_kernel(k, program, name);
  return k;
}

cl_int CL_API_CALL layer_clCreateKernelsInProgram(cl_program program, cl_uint n, cl_kernel* kernels,
                                                  cl_uint* n_ret) {
  cl_uint made = 0;
  const cl_int status = next().clCreateKernelsInProgram(program, n, kernels, &made);
  if (n_ret != nullptr) *n_ret = made;
  if (status == CL_SUCCESS && kernels != nullptr) {
    for (cl_uint i = 0; i < made && i < n; ++i) {
      char name[1024] = {};
      next().clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
      add_kernel(kernels[i], program, name);
    }
  }
  return status;
}

cl_kernel CL_API_CALL layer_clCloneKernel(cl_kernel source, cl_int* err) {
  cl_kernel k = next().clCloneKernel(source, err);
  if (k == nullptr) return k;
  record_objects([&](ClObjects& o) {
    if (const auto it = o.kernels.find(source); it != o.kernels.end()) {
      KernelInfo copy = it->second;
      copy.id = CaptureSession::get()->new_id();
      o.kernels[k] = std::move(copy);
    }
  });
  return k;
}

cl_int CL_API_CALL layer_clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size,
                                        const void* value) {
  const cl_int status = next().clSetKernelArg(kernel, index, size, value);
  if (status != CL_SUCCESS) return status;
  record_objects([&](ClObjects& o) {
    const auto it = o.kernels.find(kernel);
    if (it == o.kernels.end() || index >= it->second.args.size()) return;
    KernelInfo& k = it->second;
    trace::KernelArg arg;
    arg.index = index;
    k.arg_buffers[index] = nullptr;
    k.arg_svm[index] = 0;
    k.arg_unreplayable[index].clear();
    if (value == nullptr) {
      // A __local size, or a NULL buffer: both replay as the same call.
      arg.kind = trace::ArgKind::Local;
      arg.local_size = size;
    } else if (size == sizeof(cl_mem) && *static_cast<const cl_mem*>(value) == nullptr) {
      arg.kind = trace::ArgKind::Null;
    } else if (size == sizeof(cl_mem) && o.buffers.contains(*static_cast<const cl_mem*>(value))) {
      const cl_mem mem = *static_cast<const cl_mem*>(value);
      arg.kind = trace::ArgKind::Buffer;
      arg.object = o.buffers.at(mem).id;
      k.arg_buffers[index] = mem;
    } else if (size == sizeof(cl_mem) && o.images.contains(*static_cast<const cl_mem*>(value))) {
      k.arg_unreplayable[index] = "a pipe or GL kernel argument";
      arg.kind = trace::ArgKind::Bytes;
    } else if (size == sizeof(cl_sampler) &&
               o.samplers.contains(*static_cast<const cl_sampler*>(value))) {
      arg.kind = trace::ArgKind::Sampler;
      arg.object = o.samplers.at(*static_cast<const cl_sampler*>(value)).id;
    } else {
      arg.kind = trace::ArgKind::Bytes;
      const auto* b = static_cast<const std::uint8_t*>(value);
      arg.bytes.assign(b, b + size);
    }
    k.args[index] = std::move(arg);
  });
  return status;
}

cl_int CL_API_CALL layer_clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint index,
                                                  const void* value) {
  const cl_int status = next().clSetKernelArgSVMPointer(kernel, index, value);
  if (status != CL_SUCCESS) return status;
  record_objects([&](ClObjects& o) {
    const auto it = o.kernels.find(kernel);
    if (it == o.kernels.end() || index >= it->second.args.size()) return;
    KernelInfo& k = it->second;
    k.arg_buffers[index] = nullptr;
    k.arg_svm[index] = 0;
    k.arg_unreplayable[index].clear();
    trace::KernelArg arg;
    arg.index = index;
    arg.kind = trace::ArgKind::Pointer;
    if (value != nullptr) {
      if (const auto at = o.svm.find(reinterpret_cast<std::uintptr_t>(value))) {
        arg.object = at->info->id;
        arg.offset = at->offset;
        k.arg_svm[index] = at->base;
      } else {
        k.arg_unreplayable[index] =
            "clSetKernelArgSVMPointer with a pointer into no SVM allocation (system SVM)";
      }
    }
    k.args[index] = std::move(arg);
  });
  return status;
}

cl_int CL_API_CALL layer_clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info what,
                                             size_t size, const void* value) {
  const cl_int status = next().clSetKernelExecInfo(kernel, what, size, value);
  if (status != CL_SUCCESS) return status;
  record_objects([&](ClObjects& o) {
    const auto it = o.kernels.find(kernel);
    if (it == o.kernels.end()) return;
    KernelInfo& k = it->second;
    if (what == CL_KERNEL_EXEC_INFO_SVM_PTRS) {
      // Replaces the list; each pointer as allocation + offset.
      k.indirect.clear();
      k.indirect_svm.clear();
      k.svm_ptrs_unreplayable.reset();
      const auto* pointers = static_cast<void* const*>(value);
      for (std::size_t i = 0; pointers != nullptr && i < size / sizeof(void*); ++i) {
        const auto at = o.svm.find(reinterpret_cast<std::uintptr_t>(pointers[i]));
        if (!at) {
          k.svm_ptrs_unreplayable =
              "clSetKernelExecInfo with a pointer into no SVM allocation (system SVM)";
          continue;
        }
        trace::KernelArg arg;
        arg.index = static_cast<std::uint32_t>(i);
        arg.kind = trace::ArgKind::Pointer;
        arg.object = at->info->id;
        arg.offset = at->offset;
        k.indirect.push_back(std::move(arg));
        k.indirect_svm.push_back(at->base);
      }
    } else if (what == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) {
      // Any host pointer may then be reached: no allocation to record.
      const bool on = value != nullptr && size == sizeof(cl_bool) &&
                      *static_cast<const cl_bool*>(value) != CL_FALSE;
      if (on) {
        k.system_svm_unreplayable =
            "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)";
      } else {
        k.system_svm_unreplayable.reset();
      }
    } else {
      k.exec_info_unreplayable = "clSetKernelExecInfo(" + std::to_string(what) + ")";
    }
  });
  return status;
}

void* CL_API_CALL layer_clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                   cl_uint alignment) {
  void* p = next().clSVMAlloc(context, flags, size, alignment);
  if (p == nullptr) return p;
  record_objects([&](ClObjects& o) {
    o.svm.add(reinterpret_cast<std::uintptr_t>(p),
              SvmInfo{CaptureSession::get()->new_id(), context, flags, size, alignment});
    CaptureSession::get()->buffer_created_locked(size);
  });
  return p;
}

void CL_API_CALL layer_clSVMFree(cl_context context, void* p) {
  if (p != nullptr && CaptureSession::get() != nullptr && !inside_svm_free_callback) {
    // The final state of an allocation the range touched is read now: the
    // memory is gone after the call.
    CaptureSession* session = CaptureSession::get();
    try {
      std::lock_guard lock(session->mutex());
      ClRecorder::instance().svm_freed(reinterpret_cast<std::uintptr_t>(p), nullptr);
    } catch (const std::exception& e) {
      session->warn(std::string("recorder bookkeeping failed: ") + e.what());
    }
  }
  next().clSVMFree(context, p);
}

cl_sampler CL_API_CALL layer_clCreateSampler(cl_context context, cl_bool normalized,
                                             cl_addressing_mode addressing, cl_filter_mode filter,
                                             cl_int* err) {
  cl_sampler s = next().clCreateSampler(context, normalized, addressing, filter, err);
  if (s != nullptr) {
    record_objects([&](ClObjects& o) {
      o.samplers[s] = {CaptureSession::get()->new_id(), context, normalized != CL_FALSE, addressing,
                       filter};
    });
  }
  return s;
}

// OpenCL 2.0's form (pyopencl's): a zero-terminated property list; what
// it leaves out has the defaults of clCreateSampler's form.
cl_sampler CL_API_CALL layer_clCreateSamplerWithProperties(cl_context context,
                                                           const cl_sampler_properties* props,
                                                           cl_int* err) {
  cl_sampler s = next().clCreateSamplerWithProperties(context, props, err);
  if (s == nullptr) return s;
  bool normalized = true;
  cl_uint addressing = CL_ADDRESS_CLAMP, filter = CL_FILTER_NEAREST;
  for (const cl_sampler_properties* p = props; p != nullptr && p[0] != 0; p += 2) {
    if (p[0] == CL_SAMPLER_NORMALIZED_COORDS) normalized = p[1] != CL_FALSE;
    if (p[0] == CL_SAMPLER_ADDRESSING_MODE) addressing = static_cast<cl_uint>(p[1]);
    if (p[0] == CL_SAMPLER_FILTER_MODE) filter = static_cast<cl_uint>(p[1]);
  }
  record_objects([&](ClObjects& o) {
    o.samplers[s] = {CaptureSession::get()->new_id(), context, normalized, addressing, filter};
  });
  return s;
}

// Forgetting objects the driver is about to destroy keeps the tables as
// small as what the program holds; the reference count says when.
template <typename Handle>
cl_uint reference_count(Handle handle, cl_int (*get)(Handle, cl_uint, size_t, void*, size_t*),
                        cl_uint what) {
  cl_uint count = 0;
  return get(handle, what, sizeof count, &count, nullptr) == CL_SUCCESS ? count : 0;
}

cl_int CL_API_CALL layer_clReleaseMemObject(cl_mem mem) {
  const bool last =
      CaptureSession::get() != nullptr &&
      reference_count<cl_mem>(mem, next().clGetMemObjectInfo, CL_MEM_REFERENCE_COUNT) == 1;
  const cl_int status = next().clReleaseMemObject(mem);
  if (last && status == CL_SUCCESS) {
    record_objects([&](ClObjects& o) {
      o.buffers.erase(mem);
      o.images.erase(mem);
    });
  }
  return status;
}

cl_int CL_API_CALL layer_clReleaseKernel(cl_kernel kernel) {
  const bool last =
      CaptureSession::get() != nullptr &&
      reference_count<cl_kernel>(kernel, next().clGetKernelInfo, CL_KERNEL_REFERENCE_COUNT) == 1;
  const cl_int status = next().clReleaseKernel(kernel);
  if (last && status == CL_SUCCESS) record_objects([&](ClObjects& o) { o.kernels.erase(kernel); });
  return status;
}

}  // namespace

void install_object_intercepts(cl_icd_dispatch& t) {
  t.clCreateContext = layer_clCreateContext;
  t.clCreateContextFromType = layer_clCreateContextFromType;
  t.clCreateCommandQueue = layer_clCreateCommandQueue;
  t.clCreateCommandQueueWithProperties = layer_clCreateCommandQueueWithProperties;
  t.clGetCommandQueueInfo = layer_clGetCommandQueueInfo;
  t.clGetProgramInfo = layer_clGetProgramInfo;
  t.clGetPlatformInfo = layer_clGetPlatformInfo;
  t.clGetEventProfilingInfo = layer_clGetEventProfilingInfo;
  t.clCreateBuffer = layer_clCreateBuffer;
  t.clCreateBufferWithProperties = layer_clCreateBufferWithProperties;
  t.clCreateSubBuffer = layer_clCreateSubBuffer;
  t.clCreateImage = layer_clCreateImage;
  t.clCreateImageWithProperties = layer_clCreateImageWithProperties;
  t.clCreateImage2D = layer_clCreateImage2D;
  t.clCreateImage3D = layer_clCreateImage3D;
  t.clCreatePipe = layer_clCreatePipe;
  t.clCreateProgramWithSource = layer_clCreateProgramWithSource;
  t.clCreateProgramWithBinary = layer_clCreateProgramWithBinary;
  t.clCreateProgramWithIL = layer_clCreateProgramWithIL;
  t.clCreateProgramWithBuiltInKernels = layer_clCreateProgramWithBuiltInKernels;
  t.clBuildProgram = layer_clBuildProgram;
  t.clLinkProgram = layer_clLinkProgram;
  t.clCreateKernel = layer_clCreateKernel;
  t.clCreateKernelsInProgram = layer_clCreateKernelsInProgram;
  t.clCloneKernel = layer_clCloneKernel;
  t.clSetKernelArg = layer_clSetKernelArg;
  t.clSetKernelArgSVMPointer = layer_clSetKernelArgSVMPointer;
  t.clSetKernelExecInfo = layer_clSetKernelExecInfo;
  t.clCreateSampler = layer_clCreateSampler;
  t.clCreateSamplerWithProperties = layer_clCreateSamplerWithProperties;
  t.clSVMAlloc = layer_clSVMAlloc;
  t.clSVMFree = layer_clSVMFree;
  t.clReleaseMemObject = layer_clReleaseMemObject;
  t.clReleaseKernel = layer_clReleaseKernel;
}

}  // namespace msprof::record::opencl
