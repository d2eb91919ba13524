#pragma once

#include "replayer/opencl/device_memory.h"

namespace msprof::replay::opencl {

// A Pointer allocation of the trace, replayed as an SVM allocation with the
// recorded coarse- or fine-grained flags and alignment. OpenCL cannot place
// it at its recorded address, so the pointers stored in it are moved to the
// replayed allocations on the way in and back on the way out
// (AddressTranslation).
class SvmMemory : public DeviceMemory {
 public:
  // DeviceError naming the missing capability where the device gives no
  // such allocation.
  SvmMemory(const MemoryContext& context, const trace::Buffer& record);

  std::byte* pointer() const override { return static_cast<std::byte*>(svm_.get()); }

  void upload(const trace::TraceReader& reader, const trace::BlobRef& blob) override;
  void translate_in(std::span<std::byte> bytes, std::uint64_t offset) override;
  std::uint64_t pointers_moved() const override { return pointers_moved_; }
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
  cl_event enqueue_memcpy(const Submission& at, void* to, const void* from, std::uint64_t size);

  ClSvm svm_;
  ClSvm copy_;  // the pristine copy, where restored from one
  std::uint64_t pointers_moved_ = 0;
};

}  // namespace msprof::replay::opencl
