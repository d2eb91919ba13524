#include "replayer/opencl/kernel_arg_info.h"

#include <array>

#include "replayer/opencl/program_builder.h"

namespace msprof::replay::opencl {

ClProgram build_arg_info_twin(cl_context context, cl_device_id device,
                              const trace::Program& program, const trace::TraceReader& reader) {
  cl_int err = CL_SUCCESS;
  std::string origin;
  ClProgram twin = program_from_source_or_il(context, program, reader, origin, err);
  if (!twin) return {};
  const std::string options = program.build_options + " -cl-kernel-arg-info";
  if (clBuildProgram(twin.get(), 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS)
    return {};
  return twin;
}

std::vector<trace::KernelArgInfo> kernel_arg_info(cl_program program,
                                                  const std::string& kernel_name) {
  std::vector<trace::KernelArgInfo> out;
  if (program == nullptr) return out;
  cl_int err = CL_SUCCESS;
  ClKernel kernel(clCreateKernel(program, kernel_name.c_str(), &err));
  if (err != CL_SUCCESS) return out;
  cl_uint count = 0;
  if (clGetKernelInfo(kernel.get(), CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr) !=
      CL_SUCCESS)
    return out;
  for (cl_uint i = 0; i < count; ++i) {
    trace::KernelArgInfo a;
    cl_kernel_arg_address_qualifier address = 0;
    cl_kernel_arg_access_qualifier access = 0;
    cl_kernel_arg_type_qualifier type_qualifier = 0;
    std::array<char, 256> name{}, type{};
    if (clGetKernelArgInfo(kernel.get(), i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                           &address, nullptr) != CL_SUCCESS)
      return {};
    clGetKernelArgInfo(kernel.get(), i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                       nullptr);
    clGetKernelArgInfo(kernel.get(), i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type_qualifier,
                       &type_qualifier, nullptr);
    clGetKernelArgInfo(kernel.get(), i, CL_KERNEL_ARG_NAME, name.size() - 1, name.data(), nullptr);
    clGetKernelArgInfo(kernel.get(), i, CL_KERNEL_ARG_TYPE_NAME, type.size() - 1, type.data(),
                       nullptr);
    a.name = name.data();
    a.type_name = type.data();
    a.address_qualifier = address;
    a.access_qualifier = access;
    a.type_qualifier = type_qualifier;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace msprof::replay::opencl
