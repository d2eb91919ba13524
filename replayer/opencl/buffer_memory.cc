#include "replayer/opencl/buffer_memory.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/core/restore/copy_pieces.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/memory_flags.h"

namespace msprof::replay::opencl {

BufferMemory::BufferMemory(const MemoryContext& context, const trace::Buffer& record,
                           const DeviceMemory* parent)
    : DeviceMemory(context, record) {
  cl_int err = CL_SUCCESS;
  const auto size = std::max<std::uint64_t>(record.size, 1);
  if (parent == nullptr) {
    mem_ = context.create_buffer(record.flags & ~kStrippedFlags, record.size, err, &host_bytes_);
    cl_check(err, "clCreateBuffer");
    // Contents the trace does not give start as zeros, not as garbage.
    const cl_uchar zero = 0;
    cl_check(clEnqueueFillBuffer(context.control_queue(), mem_.get(), &zero, 1, 0, size, 0, nullptr,
                                 nullptr),
             "clEnqueueFillBuffer");
  } else if (std::byte* base = parent->pointer()) {
    // A buffer over SVM memory (CL_MEM_USE_HOST_PTR), as recorded: the
    // kernels that use it see the allocation's bytes.
    mem_ =
        ClMem(clCreateBuffer(context.context(), (record.flags & kAccessFlags) | CL_MEM_USE_HOST_PTR,
                             size, base + record.origin, &err));
    cl_check(err, "clCreateBuffer over SVM");
  } else {
    const cl_buffer_region region{record.origin, record.size};
    mem_ = ClMem(clCreateSubBuffer(parent->mem(), record.flags & kAccessFlags,
                                   CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    cl_check(err, "clCreateSubBuffer");
  }
}

void BufferMemory::upload(const trace::TraceReader& reader, const trace::BlobRef& blob) {
  std::uint64_t offset = 0;
  reader.stream_blob(blob, [&](std::span<const std::byte> chunk) {
    cl_check(clEnqueueWriteBuffer(context_.control_queue(), mem_.get(), CL_TRUE, offset,
                                  chunk.size(), chunk.data(), 0, nullptr, nullptr),
             "clEnqueueWriteBuffer");
    offset += chunk.size();
  });
}

cl_event BufferMemory::enqueue_write(const Submission& at, const trace::BufferWrite& write,
                                     std::span<const std::byte> data) {
  cl_event event = nullptr;
  if (write.rect) {
    const auto& r = *write.rect;
    const auto bo = triple(r.buffer_origin, 0), ho = triple(r.host_origin, 0),
               rg = triple(r.region, 1);
    cl_check(
        clEnqueueWriteBufferRect(at.queue, mem_.get(), CL_FALSE, bo.data(), ho.data(), rg.data(),
                                 r.buffer_row_pitch, r.buffer_slice_pitch, r.host_row_pitch,
                                 r.host_slice_pitch, data.data(), at.count(), at.list(), &event),
        "clEnqueueWriteBufferRect");
    return event;
  }
  cl_check(clEnqueueWriteBuffer(at.queue, mem_.get(), CL_FALSE, write.offset, write.size,
                                data.data(), at.count(), at.list(), &event),
           "clEnqueueWriteBuffer");
  return event;
}

cl_event BufferMemory::enqueue_read(const Submission& at, const trace::BufferRead& read,
                                    std::span<std::byte> data) {
  cl_event event = nullptr;
  if (read.rect) {
    const auto& r = *read.rect;
    const auto bo = triple(r.buffer_origin, 0), ho = triple(r.host_origin, 0),
               rg = triple(r.region, 1);
    cl_check(
        clEnqueueReadBufferRect(at.queue, mem_.get(), CL_FALSE, bo.data(), ho.data(), rg.data(),
                                r.buffer_row_pitch, r.buffer_slice_pitch, r.host_row_pitch,
                                r.host_slice_pitch, data.data(), at.count(), at.list(), &event),
        "clEnqueueReadBufferRect");
    return event;
  }
  cl_check(clEnqueueReadBuffer(at.queue, mem_.get(), CL_FALSE, read.offset, read.size, data.data(),
                               at.count(), at.list(), &event),
           "clEnqueueReadBuffer");
  return event;
}

cl_event BufferMemory::enqueue_fill(const Submission& at, const trace::BufferFill& fill) {
  cl_event event = nullptr;
  cl_check(clEnqueueFillBuffer(at.queue, mem_.get(), fill.pattern.data(), fill.pattern.size(),
                               fill.offset, fill.size, at.count(), at.list(), &event),
           "clEnqueueFillBuffer");
  return event;
}

cl_event BufferMemory::enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                                           std::span<const std::byte> data) {
  cl_event event = nullptr;
  cl_check(clEnqueueWriteBuffer(at.queue, mem_.get(), CL_FALSE, unmap.offset,
                                std::min<std::uint64_t>(unmap.size, data.size()), data.data(),
                                at.count(), at.list(), &event),
           "clEnqueueWriteBuffer");
  return event;
}

cl_int BufferMemory::keep_copy() {
  cl_int err = CL_SUCCESS;
  ClMem copy = context_.create_buffer(CL_MEM_READ_WRITE, size(), err);
  if (err == CL_SUCCESS && size() != 0) {
    err = clEnqueueCopyBuffer(context_.control_queue(), mem_.get(), copy.get(), 0, 0, size(), 0,
                              nullptr, nullptr);
    if (err == CL_SUCCESS) err = clFinish(context_.control_queue());
  }
  if (err == CL_SUCCESS) copy_ = std::move(copy);
  return err;
}

void BufferMemory::restore_from_copy(cl_command_queue queue, unsigned workers) {
  for (const auto& piece : copy_pieces(size(), workers)) {
    cl_check(clEnqueueCopyBuffer(queue, copy_.get(), mem_.get(), piece.offset, piece.offset,
                                 piece.size, 0, nullptr, nullptr),
             "clEnqueueCopyBuffer");
  }
}

void BufferMemory::restore_zeros(cl_command_queue queue, unsigned workers) {
  const cl_uchar zero = 0;
  for (const auto& piece : copy_pieces(size(), workers)) {
    cl_check(clEnqueueFillBuffer(queue, mem_.get(), &zero, 1, piece.offset, piece.size, 0, nullptr,
                                 nullptr),
             "clEnqueueFillBuffer");
  }
}

void BufferMemory::write_restored(cl_command_queue queue, std::uint64_t offset,
                                  std::span<const std::byte> bytes) {
  // Where the buffer is host memory the device works on in place, the
  // piece goes straight there; elsewhere through the driver.
  if (!host_bytes_.empty()) {
    std::memcpy(const_cast<std::byte*>(host_bytes_.data()) + offset, bytes.data(), bytes.size());
    return;
  }
  cl_check(clEnqueueWriteBuffer(queue, mem_.get(), CL_TRUE, offset, bytes.size(), bytes.data(), 0,
                                nullptr, nullptr),
           "clEnqueueWriteBuffer");
}

void BufferMemory::read(std::uint64_t offset, std::span<std::byte> out) {
  cl_check(clEnqueueReadBuffer(context_.control_queue(), mem_.get(), CL_TRUE, offset, out.size(),
                               out.data(), 0, nullptr, nullptr),
           "clEnqueueReadBuffer");
}

}  // namespace msprof::replay::opencl
