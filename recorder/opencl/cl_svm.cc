#include "recorder/opencl/cl_svm.h"

#include <stdexcept>
#include <utility>

#include "recorder/core/capture_session.h"

namespace msprof::record::opencl {

trace::Buffer ClSvmAllocation::record() const {
  trace::Buffer record = ClMemory::record();
  record.device_address = base_;
  record.kind = trace::MemoryKind::Pointer;
  record.alignment = alignment_;
  return record;
}

SnapshotPipeline::BlobSlot ClSvmAllocation::read_state(const StateRead& read) {
  std::vector<std::byte> bytes = CaptureSession::get()->snapshot_buffer(size());
  // A free that happens when the call returns needs the bytes read by then.
  const bool ordered = read.queue_in_order && read.when != StateRead::When::Free;
  cl_event event = nullptr;
  // clEnqueueSVMMemcpy reads coarse- and fine-grained SVM alike, in queue
  // order, without a host mapping the program would see.
  const cl_int status = size() == 0 ? CL_SUCCESS
                                    : next().clEnqueueSVMMemcpy(
                                          read.queue, ordered ? CL_FALSE : CL_TRUE, bytes.data(),
                                          reinterpret_cast<const void*>(base_), size(),
                                          read.num_wait, read.wait, ordered ? &event : nullptr);
  if (status != CL_SUCCESS) throw std::runtime_error(cl_error("snapshot of SVM", status));
  if (event != nullptr) {
    next().clFlush(read.queue);
    next().clRetainEvent(event);
    // Reads long done need no wait: dropped as new ones come.
    std::erase_if(pending_reads_, [](cl_event e) {
      cl_int state = CL_QUEUED;
      next().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
      if (state != CL_COMPLETE && state >= 0) return false;
      next().clReleaseEvent(e);
      return true;
    });
    pending_reads_.push_back(event);
  }
  return snapshot_when_read(std::move(bytes), event);
}

// clSVMFree frees at once, so the reads must end first; a free enqueued on
// an in-order queue runs after them, and one on another queue waits only
// for what the program says.
void ClSvmAllocation::before_free(cl_command_queue queue, bool queue_in_order) {
  const bool ordered = queue != nullptr && queue_in_order;
  for (cl_event e : pending_reads_) {
    if (!ordered) next().clWaitForEvents(1, &e);
    next().clReleaseEvent(e);
  }
  pending_reads_.clear();
}

}  // namespace msprof::record::opencl
