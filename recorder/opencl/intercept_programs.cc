// Programs: their source, IL or binaries and build options, and where a
// binary the process built itself came from.
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_intercepts.h"

namespace msprof::record::opencl {
namespace {

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

}  // namespace

void install_program_intercepts(cl_icd_dispatch& t) {
  t.clCreateProgramWithSource = layer_clCreateProgramWithSource;
  t.clCreateProgramWithBinary = layer_clCreateProgramWithBinary;
  t.clGetProgramInfo = layer_clGetProgramInfo;
  t.clCreateProgramWithIL = layer_clCreateProgramWithIL;
  t.clCreateProgramWithBuiltInKernels = layer_clCreateProgramWithBuiltInKernels;
  t.clBuildProgram = layer_clBuildProgram;
  t.clLinkProgram = layer_clLinkProgram;
}

}  // namespace msprof::record::opencl
