#pragma once

#include "replayer/opencl/device_memory.h"

namespace msprof::replay::opencl {

// A buffer of the trace: a root buffer (made zeros, in host memory of ours
// where the range evicts its lines), a sub-buffer of one, or a buffer the
// program made over SVM memory, made over the replayed allocation.
class BufferMemory : public DeviceMemory {
 public:
  // `parent`: the object a sub-buffer or a buffer over SVM is made in; null
  // for a root buffer.
  BufferMemory(const MemoryContext& context, const trace::Buffer& record,
               const DeviceMemory* parent);

  cl_mem mem() const override { return mem_.get(); }

  void upload(const trace::TraceReader& reader, const trace::BlobRef& blob) override;
  cl_event enqueue_write(const Submission& at, const trace::BufferWrite& write,
                         std::span<const std::byte> data) override;
  cl_event enqueue_read(const Submission& at, const trace::BufferRead& read,
                        std::span<std::byte> data) override;
  cl_event enqueue_fill(const Submission& at, const trace::BufferFill& fill) override;
  cl_int keep_copy() override;
  void write_restored(cl_command_queue queue, std::uint64_t offset,
                      std::span<const std::byte> bytes) override;
  void read(std::uint64_t offset, std::span<std::byte> out) override;

 protected:
  void restore_from_copy(cl_command_queue queue, unsigned workers) override;
  void restore_zeros(cl_command_queue queue, unsigned workers) override;
  cl_event enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                               std::span<const std::byte> data) override;

 private:
  ClMem mem_;
  // Where a root buffer's bytes are, when the device works on host memory
  // of ours in place: a restore from the trace goes straight there.
  std::span<const std::byte> host_bytes_;
  ClMem copy_;  // the pristine copy, where restored from one
};

}  // namespace msprof::replay::opencl
