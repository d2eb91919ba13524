#pragma once

#include "recorder/opencl/cl_mem_object.h"

namespace msprof::record::opencl {

// A buffer (clCreateBuffer, clCreateBufferWithProperties), or a view of
// another object's memory with a parent: a sub-buffer, or a buffer made
// over SVM memory (CL_MEM_USE_HOST_PTR on an SVM pointer, pyopencl's
// SVM.as_buffer), which replay must make over the replayed allocation.
// A buffer larger than half the memory bound that the host may read is
// snapshotted in place, through a blocking map.
class ClBuffer final : public ClMemObject {
 public:
  using ClMemObject::ClMemObject;

 protected:
  cl_int enqueue_read(cl_command_queue queue, bool blocking, std::vector<std::byte>& bytes,
                      cl_uint num_wait, const cl_event* wait, cl_event* read) override;
  std::optional<SnapshotPipeline::BlobSlot> read_in_place(const StateRead& read) override;
};

}  // namespace msprof::record::opencl
