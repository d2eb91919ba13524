#pragma once

#include <cstdint>
#include <vector>

#include "recorder/opencl/cl_memory.h"

namespace msprof::record::opencl {

// A shared virtual memory allocation (clSVMAlloc), coarse- or fine-grained:
// named by its address, recorded as a `Pointer` allocation with its size,
// flags, alignment and address. Its state is read with clEnqueueSVMMemcpy
// on the queue, asynchronously on an in-order queue. SVM has no reference
// count to keep it alive while the recorder reads it, so a free waits for
// those reads, and one inside a range has its final state read first.
class ClSvmAllocation final : public ClMemory {
 public:
  ClSvmAllocation(CaptureId id, cl_context context, cl_svm_mem_flags flags, std::uint64_t size,
                  std::uint64_t base, cl_uint alignment)
      : ClMemory(id, context, flags, size), base_(base), alignment_(alignment) {}

  trace::Buffer record() const override;
  SnapshotPipeline::BlobSlot read_state(const StateRead& read) override;
  void before_free(cl_command_queue queue, bool queue_in_order) override;

 private:
  std::uint64_t base_;
  cl_uint alignment_;
  // The recorder's reads of it still running, retained.
  std::vector<cl_event> pending_reads_;
};

}  // namespace msprof::record::opencl
