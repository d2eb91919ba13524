#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "recorder/opencl/cl_memory.h"

namespace msprof::record::opencl {

// Memory the program names by a cl_mem (buffers, images): held by a
// reference while a range touches it, and read whole on the command's
// queue after its wait list. On an in-order queue the initial read is
// asynchronous (the queue orders it before the command; the snapshot worker
// waits for it), on an out-of-order queue it blocks; the final read is
// asynchronous when the range used one in-order queue alone.
class ClMemObject : public ClMemory {
 public:
  ClMemObject(CaptureId id, cl_context context, cl_mem_flags flags, std::uint64_t size,
              cl_mem handle)
      : ClMemory(id, context, flags, size), handle_(handle) {}

  cl_mem handle() const { return handle_; }
  SnapshotPipeline::BlobSlot read_state(const StateRead& read) override;
  void hold() override { next().clRetainMemObject(handle_); }
  void release() override { next().clReleaseMemObject(handle_); }

 protected:
  // Reads the object whole into `bytes` (an image packed).
  virtual cl_int enqueue_read(cl_command_queue queue, bool blocking, std::vector<std::byte>& bytes,
                              cl_uint num_wait, const cl_event* wait, cl_event* read) = 0;
  // The snapshot taken in place, without a read into a buffer of the
  // object's size; nothing when the kind or this object does not allow it.
  virtual std::optional<SnapshotPipeline::BlobSlot> read_in_place(const StateRead&) {
    return std::nullopt;
  }

 private:
  cl_mem handle_;
};

}  // namespace msprof::record::opencl
