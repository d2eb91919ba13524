// Kernels, their arguments and execution info, and samplers: tracked
// always, so a launch inside a range knows every argument it has.
#include <string>
#include <utility>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/cl_reference_count.h"

namespace msprof::record::opencl {
namespace {

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
    info.arg_memory.resize(num_args);
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
    k.arg_memory[index].reset();
    k.arg_unreplayable[index].clear();
    if (value == nullptr) {
      // A __local size, or a NULL buffer: both replay as the same call.
      arg.kind = trace::ArgKind::Local;
      arg.local_size = size;
    } else if (size == sizeof(cl_mem) && *static_cast<const cl_mem*>(value) == nullptr) {
      arg.kind = trace::ArgKind::Null;
    } else if (const ClMemory* memory =
                   size == sizeof(cl_mem)
                       ? o.memory.find(key_of(*static_cast<const cl_mem*>(value)))
                       : nullptr) {
      if (memory->unreplayable()) {
        k.arg_unreplayable[index] = "a pipe or GL kernel argument";
        arg.kind = trace::ArgKind::Bytes;
      } else {
        arg.kind = trace::ArgKind::Buffer;
        arg.object = memory->id();
        k.arg_memory[index] = key_of(*static_cast<const cl_mem*>(value));
      }
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
    k.arg_memory[index].reset();
    k.arg_unreplayable[index].clear();
    trace::KernelArg arg;
    arg.index = index;
    arg.kind = trace::ArgKind::Pointer;
    if (value != nullptr) {
      if (const auto at = o.memory.find_address(reinterpret_cast<std::uintptr_t>(value))) {
        arg.object = at->object->id();
        arg.offset = at->offset;
        k.arg_memory[index] = at->key();
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
      k.indirect_memory.clear();
      k.svm_ptrs_unreplayable.reset();
      const auto* pointers = static_cast<void* const*>(value);
      for (std::size_t i = 0; pointers != nullptr && i < size / sizeof(void*); ++i) {
        const auto at = o.memory.find_address(reinterpret_cast<std::uintptr_t>(pointers[i]));
        if (!at) {
          k.svm_ptrs_unreplayable =
              "clSetKernelExecInfo with a pointer into no SVM allocation (system SVM)";
          continue;
        }
        trace::KernelArg arg;
        arg.index = static_cast<std::uint32_t>(i);
        arg.kind = trace::ArgKind::Pointer;
        arg.object = at->object->id();
        arg.offset = at->offset;
        k.indirect.push_back(std::move(arg));
        k.indirect_memory.push_back(at->key());
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

cl_int CL_API_CALL layer_clReleaseKernel(cl_kernel kernel) {
  const bool last =
      CaptureSession::get() != nullptr &&
      reference_count<cl_kernel>(kernel, next().clGetKernelInfo, CL_KERNEL_REFERENCE_COUNT) == 1;
  const cl_int status = next().clReleaseKernel(kernel);
  if (last && status == CL_SUCCESS) record_objects([&](ClObjects& o) { o.kernels.erase(kernel); });
  return status;
}

}  // namespace

void install_kernel_intercepts(cl_icd_dispatch& t) {
  t.clCreateKernel = layer_clCreateKernel;
  t.clCreateKernelsInProgram = layer_clCreateKernelsInProgram;
  t.clCloneKernel = layer_clCloneKernel;
  t.clSetKernelArg = layer_clSetKernelArg;
  t.clSetKernelArgSVMPointer = layer_clSetKernelArgSVMPointer;
  t.clSetKernelExecInfo = layer_clSetKernelExecInfo;
  t.clCreateSampler = layer_clCreateSampler;
  t.clCreateSamplerWithProperties = layer_clCreateSamplerWithProperties;
  t.clReleaseKernel = layer_clReleaseKernel;
}

}  // namespace msprof::record::opencl
