#include "recorder/opencl/cl_mem_object.h"

#include <stdexcept>
#include <utility>

#include "recorder/core/capture_session.h"

namespace msprof::record::opencl {

SnapshotPipeline::BlobSlot ClMemObject::read_state(const StateRead& read) {
  if (auto in_place = read_in_place(read)) return std::move(*in_place);
  std::vector<std::byte> bytes = CaptureSession::get()->snapshot_buffer(size());
  const bool initial = read.when == StateRead::When::Initial;
  // On an in-order queue the read runs before the command that follows it,
  // so the program need not wait for it: the snapshot worker does. An
  // out-of-order queue gives no such order, so the program waits there.
  const bool ordered = initial                               ? read.queue_in_order
                       : read.when == StateRead::When::Final ? read.range_in_order
                                                             : false;
  cl_event event = nullptr;
  const cl_int status = enqueue_read(read.queue, !ordered, bytes, read.num_wait, read.wait,
                                     ordered ? &event : nullptr);
  if (status != CL_SUCCESS) {
    throw std::runtime_error(
        cl_error(initial ? "snapshot of a buffer" : "reading the final state of a buffer", status));
  }
  // The initial read must start without waiting for the program's next
  // flush; the final ones are flushed together at the range's end.
  if (initial && ordered) next().clFlush(read.queue);
  return snapshot_when_read(std::move(bytes), event);
}

}  // namespace msprof::record::opencl
