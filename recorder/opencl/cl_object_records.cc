// The records of the objects a range uses, made at their first use while
// their handles are surely alive; what needs blobs is finished on the
// snapshot worker.
#include <span>
#include <string>
#include <utility>

#include "recorder/opencl/cl_recorder.h"

namespace msprof::record::opencl {

CaptureId ClRecorder::context_id(cl_context context) const {
  const auto it = objects_.contexts.find(context);
  return it == objects_.contexts.end() ? 0 : it->second.id;
}

void ClRecorder::describe_once(RangeCapture& capture, CaptureId id,
                               const std::function<DeferredRecord()>& make) {
  if (id == 0 || CaptureSession::get()->object_known(id)) return;
  for (const auto& [known, record] : capture.object_records) {
    if (known == id) return;
  }
  capture.object_records.emplace_back(id, make());
}

// A memory object and its context (a queue's context is described with the
// queue; an SVM allocation's may be the only mention of it).
void ClRecorder::describe_memory(RangeCapture& capture, const ClMemory& memory) {
  capture.objects.insert(memory.id());
  describe_once(capture, memory.id(), [&] { return memory_record(memory); });
  if (const auto c = objects_.contexts.find(memory.context()); c != objects_.contexts.end()) {
    capture.objects.insert(c->second.id);
    describe_once(capture, c->second.id, [&] { return describe_context(c->second); });
  }
}

CaptureBackend::DeferredRecord ClRecorder::memory_record(const ClMemory& memory) {
  trace::Buffer record = memory.record();
  record.context = context_id(memory.context());
  // A parent gone since (an SVM allocation freed under a buffer over it)
  // is no parent.
  if (memory.parent()) {
    if (const ClMemory* parent = objects_.memory.find(*memory.parent()))
      record.parent = parent->id();
  }
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_program(cl_program program,
                                                            const ProgramInfo& info) {
  CaptureSession& session = *CaptureSession::get();
  trace::Program record;
  record.id = info.id;
  record.context =
      objects_.contexts.contains(info.context) ? objects_.contexts.at(info.context).id : 0;
  record.kind = info.kind;
  record.sources = info.sources;
  record.build_options = info.build_options;
  record.kernel_names = info.kernel_names;
  SnapshotPipeline::BlobSlot il;
  if (!info.il.empty()) il = session.snapshot_copy(info.il);
  std::vector<std::pair<std::uint32_t, SnapshotPipeline::BlobSlot>> given, built;
  for (const auto& [device, bytes] : info.given_binaries) {
    given.emplace_back(objects_.device_index(device), session.snapshot_copy(bytes));
  }
  cl_uint count = 0;
  if (next().clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr) ==
          CL_SUCCESS &&
      count > 0) {
    std::vector<cl_device_id> devices(count);
    std::vector<std::size_t> sizes(count);
    next().clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof(cl_device_id) * count,
                            devices.data(), nullptr);
    // Asking for the binaries of a program built from source or IL makes
    // some drivers (PoCL) compile every kernel of it there and then, on the
    // program's thread, where the program compiles only the kernels it
    // runs: for a library's program of dozens of kernels that is most of
    // the recorded run. Its source or IL rebuilds it anywhere, so its
    // binaries are asked for only with --program-binaries. A program
    // loaded from binaries has them built already.
    const bool want_binaries =
        info.kind == trace::ProgramKind::Binary || session.config().program_binaries;
    if (!want_binaries) {
      for (cl_uint i = 0; i < count; ++i)
        record.devices.push_back(objects_.device_index(devices[i]));
    } else if (next().clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                       sizeof(std::size_t) * count, sizes.data(),
                                       nullptr) == CL_SUCCESS) {
      std::vector<std::vector<std::byte>> binaries(count);
      std::vector<unsigned char*> pointers(count);
      for (cl_uint i = 0; i < count; ++i) {
        binaries[i].resize(sizes[i]);
        pointers[i] = reinterpret_cast<unsigned char*>(binaries[i].data());
      }
      if (next().clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(unsigned char*) * count,
                                  pointers.data(), nullptr) == CL_SUCCESS) {
        std::vector<std::span<const std::byte>> spans(binaries.begin(), binaries.end());
        objects_.note_binaries(info, spans);
        for (cl_uint i = 0; i < count; ++i) {
          record.devices.push_back(objects_.device_index(devices[i]));
          if (sizes[i] > 0)
            built.emplace_back(record.devices.back(), session.snapshot(std::move(binaries[i])));
        }
      }
    }
  }
  return [record = std::move(record), il, given, built]() mutable -> trace::Record {
    if (il) record.il = *il;
    for (const auto& [device, slot] : given) record.given_binaries.push_back({device, *slot});
    for (const auto& [device, slot] : built) record.built_binaries.push_back({device, *slot});
    return record;
  };
}

CaptureBackend::DeferredRecord ClRecorder::describe_context(const ContextInfo& info) {
  trace::Context record{info.id, {}};
  for (cl_device_id d : info.devices) record.devices.push_back(objects_.device_index(d));
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_queue(const QueueInfo& info) {
  trace::Queue record{info.id,
                      context_id(info.context),
                      objects_.device_index(info.device),
                      info.asked,
                      (info.asked & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
                      (info.asked & CL_QUEUE_PROFILING_ENABLE) != 0};
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_kernel(cl_kernel kernel,
                                                           const KernelInfo& info) {
  trace::Kernel record;
  record.id = info.id;
  record.program =
      objects_.programs.contains(info.program) ? objects_.programs.at(info.program).id : 0;
  record.name = info.name;
  record.num_args = info.num_args;
  for (cl_uint i = 0; i < info.num_args; ++i) {
    trace::KernelArgInfo a;
    cl_kernel_arg_address_qualifier address = 0;
    cl_kernel_arg_access_qualifier access = 0;
    cl_kernel_arg_type_qualifier type_qualifier = 0;
    char name[256] = {}, type[256] = {};
    if (next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                                  &address, nullptr) != CL_SUCCESS) {
      record.arg_info.clear();
      break;
    }
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                              nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type_qualifier,
                              &type_qualifier, nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_NAME, sizeof name - 1, name, nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, nullptr);
    a.name = name;
    a.type_name = type;
    a.address_qualifier = address;
    a.access_qualifier = access;
    a.type_qualifier = type_qualifier;
    record.arg_info.push_back(std::move(a));
  }
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_sampler(const SamplerInfo& info) {
  trace::Sampler record{info.id, context_id(info.context), info.normalized, info.addressing,
                        info.filter};
  return [record] { return trace::Record{record}; };
}

}  // namespace msprof::record::opencl
