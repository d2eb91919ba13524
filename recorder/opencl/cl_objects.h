#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <span>

#include "format/hash128.h"
#include "format/trace_commands.h"
#include "format/trace_objects.h"
#include "recorder/core/memory_table.h"
#include "recorder/opencl/cl_memory.h"
#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

using trace::CaptureId;

struct ContextInfo {
  CaptureId id = 0;
  std::vector<cl_device_id> devices;
};

struct QueueInfo {
  CaptureId id = 0;
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties asked = 0;  // what the program asked for
};

struct ProgramInfo {
  CaptureId id = 0;
  cl_context context = nullptr;
  trace::ProgramKind kind = trace::ProgramKind::Source;
  std::vector<std::string> sources;
  std::vector<std::byte> il;
  std::vector<std::pair<cl_device_id, std::vector<std::byte>>> given_binaries;
  std::string build_options;
  std::string kernel_names;
  // A binary the process built itself from source or IL: sources, IL and
  // build options are the build's, so the program replays anywhere.
  bool source_from_binary = false;
};

// Where a binary came from: a program of this process built from source or
// IL whose binaries it (or the recorder) read, so a program later made
// from the same bytes can carry the source along.
struct BinaryOrigin {
  std::vector<std::string> sources;
  std::vector<std::byte> il;
  std::string build_options;
};

struct KernelInfo {
  CaptureId id = 0;
  cl_program program = nullptr;
  std::string name;
  std::uint32_t num_args = 0;
  std::vector<trace::KernelArg> args;  // current values, by index
  // Per index, the memory object of a buffer, image or pointer argument.
  std::vector<std::optional<MemoryKey>> arg_memory;
  // clSetKernelExecInfo's indirect SVM pointers, and their allocations.
  std::vector<trace::KernelArg> indirect;
  std::vector<MemoryKey> indirect_memory;
  // Per index, the call that set an argument we cannot replay ("" when
  // none): judged at each launch, so a later clSetKernelArg of a buffer
  // makes the kernel replayable again.
  std::vector<std::string> arg_unreplayable;
  // What clSetKernelExecInfo set that cannot replay, by parameter, each
  // until that parameter is set again: SVM pointers into no allocation,
  // fine-grained system SVM on, any other parameter.
  std::optional<std::string> svm_ptrs_unreplayable, system_svm_unreplayable, exec_info_unreplayable;
  // The first reason a launch with the current arguments cannot replay.
  std::optional<std::string> unreplayable() const;
};

struct SamplerInfo {
  CaptureId id = 0;
  cl_context context = nullptr;
  bool normalized = false;
  std::uint32_t addressing = 0;
  std::uint32_t filter = 0;
};

// Every object the program made, by handle, and the way back from capture
// ids. Guarded by the session's lock.
struct ClObjects {
  std::unordered_map<cl_context, ContextInfo> contexts;
  std::unordered_map<cl_command_queue, QueueInfo> queues;
  // Memory of every kind: buffers, sub-buffers, images, SVM allocations,
  // and what cannot be replayed (cl_memory.h).
  record::MemoryTable<ClMemory> memory;
  std::unordered_map<cl_program, ProgramInfo> programs;
  std::unordered_map<cl_kernel, KernelInfo> kernels;
  std::unordered_map<cl_sampler, SamplerInfo> samplers;
  // By XXH3-128 of the binary's bytes.
  std::unordered_map<trace::Hash128, BinaryOrigin, trace::Hash128Hasher> binary_origins;
  // Remembers the binaries of a program built from source or IL.
  void note_binaries(const ProgramInfo& program,
                     const std::vector<std::span<const std::byte>>& binaries);
  std::vector<cl_device_id> devices;  // index = device index in the trace
  std::vector<trace::DeviceInfo> device_infos;

  std::uint32_t device_index(cl_device_id device);
};

trace::DeviceInfo describe_device(cl_device_id device);

}  // namespace msprof::record::opencl
