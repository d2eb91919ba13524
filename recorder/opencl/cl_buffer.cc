#include "recorder/opencl/cl_buffer.h"

#include <exception>
#include <stdexcept>

#include "recorder/core/capture_session.h"

namespace msprof::record::opencl {

cl_int ClBuffer::enqueue_read(cl_command_queue queue, bool blocking, std::vector<std::byte>& bytes,
                              cl_uint num_wait, const cl_event* wait, cl_event* read) {
  return next().clEnqueueReadBuffer(queue, handle(), blocking ? CL_TRUE : CL_FALSE, 0, size(),
                                    bytes.data(), num_wait, wait, read);
}

// Read, a snapshot over half the bound costs a buffer of its size faulted
// in afresh (it cannot be kept for reuse beside another like it) and waits
// for every snapshot in flight. Mapped, chunks the trace already holds
// (zeros, repeated data) are only hashed, and the rest is copied a chunk at
// a time; the program waits for its queue to reach the map instead. A
// buffer the host may not read, or one the driver refuses to map, is read.
std::optional<SnapshotPipeline::BlobSlot> ClBuffer::read_in_place(const StateRead& read) {
  CaptureSession& session = *CaptureSession::get();
  if (size() <= session.config().memory_bound / 2 ||
      (flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) != 0) {
    return std::nullopt;
  }
  cl_int status = CL_SUCCESS;
  void* mapped = next().clEnqueueMapBuffer(read.queue, handle(), CL_TRUE, CL_MAP_READ, 0, size(),
                                           read.num_wait, read.wait, nullptr, &status);
  if (status != CL_SUCCESS || mapped == nullptr) return std::nullopt;
  std::optional<SnapshotPipeline::BlobSlot> slot;
  std::exception_ptr failed;
  try {
    slot = session.snapshot_in_place({static_cast<const std::byte*>(mapped), size()});
  } catch (...) {
    failed = std::current_exception();
  }
  // Waited for, so no later command of the program, on any queue, finds
  // the buffer still mapped.
  cl_event unmapped = nullptr;
  status = next().clEnqueueUnmapMemObject(read.queue, handle(), mapped, 0, nullptr, &unmapped);
  if (status == CL_SUCCESS) {
    status = next().clWaitForEvents(1, &unmapped);
    next().clReleaseEvent(unmapped);
  }
  if (failed) std::rethrow_exception(failed);
  if (status != CL_SUCCESS) {
    throw std::runtime_error(cl_error("unmapping a buffer after its snapshot", status));
  }
  return slot;
}

}  // namespace msprof::record::opencl
