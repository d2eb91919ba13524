#include "replayer/opencl/svm_memory.h"

#include <algorithm>
#include <string>
#include <vector>

#include "replayer/core/replay_error.h"
#include "replayer/core/restore/copy_pieces.h"
#include "replayer/opencl/cl_error.h"

namespace msprof::replay::opencl {

SvmMemory::SvmMemory(const MemoryContext& context, const trace::Buffer& record)
    : DeviceMemory(context, record) {
  constexpr cl_svm_mem_flags kSvmFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                                         CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  const cl_svm_mem_flags flags = record.flags & kSvmFlags;
  const auto size = std::max<std::uint64_t>(record.size, 1);
  void* pointer =
      clSVMAlloc(context.context(), flags, size, static_cast<cl_uint>(record.alignment));
  if (pointer == nullptr) {
    const bool fine = (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0;
    throw DeviceError("the device gave no " + std::string(fine ? "fine" : "coarse") +
                      "-grained SVM allocation of " + std::to_string(record.size) +
                      " bytes for allocation " + std::to_string(record.id) +
                      "; replay on a device whose clinfo lists that SVM capability");
  }
  svm_ = ClSvm(context.context(), pointer);
  const cl_uchar zero = 0;
  cl_check(
      clEnqueueSVMMemFill(context.control_queue(), pointer, &zero, 1, size, 0, nullptr, nullptr),
      "clEnqueueSVMMemFill");
  // Done before anything can fail and free the allocation under it.
  cl_check(clFinish(context.control_queue()), "clFinish");
  if (context.evicts_lines)
    context.line_flush.add({static_cast<const std::byte*>(pointer), record.size});
  if (record.device_address) {
    context.addresses.add(*record.device_address, record.size,
                          reinterpret_cast<std::uintptr_t>(pointer));
  }
}

void SvmMemory::upload(const trace::TraceReader& reader, const trace::BlobRef& blob) {
  std::uint64_t offset = 0;
  reader.stream_blob(blob, [&](std::span<const std::byte> chunk) {
    std::vector<std::byte> moved(chunk.begin(), chunk.end());
    translate_in(moved, offset);
    cl_check(clEnqueueSVMMemcpy(context_.control_queue(), CL_TRUE, pointer() + offset, moved.data(),
                                moved.size(), 0, nullptr, nullptr),
             "clEnqueueSVMMemcpy");
    offset += chunk.size();
  });
}

void SvmMemory::translate_in(std::span<std::byte> bytes, std::uint64_t offset) {
  pointers_moved_ += context_.addresses.to_replay(bytes, offset);
}

cl_event SvmMemory::enqueue_memcpy(const Submission& at, void* to, const void* from,
                                   std::uint64_t size) {
  cl_event event = nullptr;
  cl_check(clEnqueueSVMMemcpy(at.queue, CL_FALSE, to, from, size, at.count(), at.list(), &event),
           "clEnqueueSVMMemcpy");
  return event;
}

cl_event SvmMemory::enqueue_write(const Submission& at, const trace::BufferWrite& write,
                                  std::span<const std::byte> data) {
  return enqueue_memcpy(at, pointer() + write.offset, data.data(), write.size);
}

cl_event SvmMemory::enqueue_read(const Submission& at, const trace::BufferRead& read,
                                 std::span<std::byte> data) {
  return enqueue_memcpy(at, data.data(), pointer() + read.offset, read.size);
}

cl_event SvmMemory::enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                                        std::span<const std::byte> data) {
  return enqueue_memcpy(at, pointer() + unmap.offset, data.data(),
                        std::min<std::uint64_t>(unmap.size, data.size()));
}

cl_event SvmMemory::enqueue_fill(const Submission& at, const trace::BufferFill& fill) {
  cl_event event = nullptr;
  cl_check(clEnqueueSVMMemFill(at.queue, pointer() + fill.offset, fill.pattern.data(),
                               fill.pattern.size(), fill.size, at.count(), at.list(), &event),
           "clEnqueueSVMMemFill");
  return event;
}

cl_int SvmMemory::keep_copy() {
  const auto size = std::max<std::uint64_t>(record_.size, 1);
  ClSvm copy(context_.context(), clSVMAlloc(context_.context(), CL_MEM_READ_WRITE, size, 0));
  cl_int err = copy.get() != nullptr ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
  if (err == CL_SUCCESS) {
    err = clEnqueueSVMMemcpy(context_.control_queue(), CL_TRUE, copy.get(), pointer(), size, 0,
                             nullptr, nullptr);
  }
  if (err == CL_SUCCESS) copy_ = std::move(copy);
  return err;
}

void SvmMemory::restore_from_copy(cl_command_queue queue, unsigned workers) {
  const auto* from = static_cast<const std::byte*>(copy_.get());
  for (const auto& piece : copy_pieces(size(), workers)) {
    cl_check(clEnqueueSVMMemcpy(queue, CL_FALSE, pointer() + piece.offset, from + piece.offset,
                                piece.size, 0, nullptr, nullptr),
             "clEnqueueSVMMemcpy");
  }
}

void SvmMemory::restore_zeros(cl_command_queue queue, unsigned workers) {
  const cl_uchar zero = 0;
  for (const auto& piece : copy_pieces(size(), workers)) {
    cl_check(clEnqueueSVMMemFill(queue, pointer() + piece.offset, &zero, 1, piece.size, 0, nullptr,
                                 nullptr),
             "clEnqueueSVMMemFill");
  }
}

void SvmMemory::write_restored(cl_command_queue queue, std::uint64_t offset,
                               std::span<const std::byte> bytes) {
  std::vector<std::byte> moved(bytes.begin(), bytes.end());
  context_.addresses.to_replay(moved, offset);
  cl_check(clEnqueueSVMMemcpy(queue, CL_TRUE, pointer() + offset, moved.data(), moved.size(), 0,
                              nullptr, nullptr),
           "clEnqueueSVMMemcpy");
}

void SvmMemory::read(std::uint64_t offset, std::span<std::byte> out) {
  cl_check(clEnqueueSVMMemcpy(context_.control_queue(), CL_TRUE, out.data(), pointer() + offset,
                              out.size(), 0, nullptr, nullptr),
           "clEnqueueSVMMemcpy");
  // Compared with the recording, so in its addresses.
  context_.addresses.to_recorded(out, offset);
}

}  // namespace msprof::replay::opencl
