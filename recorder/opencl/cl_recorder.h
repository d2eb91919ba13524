#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recorder/core/capture_backend.h"
#include "recorder/core/capture_session.h"
#include "recorder/opencl/cl_objects.h"

namespace msprof::record::opencl {

// A host mapping of a buffer, kept from map to unmap.
struct Mapping {
  cl_mem buffer = nullptr;  // null for SVM
  cl_map_flags flags = 0;
  std::uint64_t offset = 0, size = 0;
  std::uint64_t seq = 0;       // the map command, in the range that mapped it
  CaptureId range = 0;         // that range; 0 when mapped outside a captured range
  std::uint64_t svm_base = 0;  // the SVM allocation mapped (clEnqueueSVMMap)
  // An image mapping: the region (x in bytes) and the driver's pitches.
  std::optional<trace::Rect> rect;
  std::size_t row_step = 0, slice_step = 0;
};

// The OpenCL side of a recording: the program's objects, and what the range
// being captured enqueues. All members are guarded by the session's lock.
class ClRecorder final : public CaptureBackend {
 public:
  static ClRecorder& instance();

  ClObjects& objects() { return objects_; }
  std::unordered_map<void*, Mapping>& mappings() { return mappings_; }
  std::unordered_map<void*, Mapping>& svm_mappings() { return svm_mappings_; }

  // While capturing (lock held): the queue and buffers a command uses. A
  // buffer's root is snapshotted before its first use in the range, on the
  // command's queue, after the command's wait list.
  void use_queue(RangeCapture& capture, cl_command_queue queue);
  void use_buffer(RangeCapture& capture, cl_command_queue queue, cl_mem buffer, cl_uint num_wait,
                  const cl_event* wait);
  void use_kernel(RangeCapture& capture, cl_command_queue queue, cl_kernel kernel, cl_uint num_wait,
                  const cl_event* wait);
  // While capturing: an SVM allocation a command uses, by its base. Its
  // initial state is read on the command's queue before its first use.
  void use_svm(RangeCapture& capture, cl_command_queue queue, std::uint64_t base, cl_uint num_wait,
               const cl_event* wait);
  // The SVM allocation holding `p`, as the trace names it.
  std::optional<record::AllocationMap<SvmInfo>::Location> svm_at(const void* p) {
    return objects_.svm.find(reinterpret_cast<std::uintptr_t>(p));
  }
  // An SVM allocation is being freed (on `queue` by clEnqueueSVMFree, or
  // now by clSVMFree when null): a range that touched it gets its final
  // state before the memory goes, and the allocation is forgotten.
  void svm_freed(std::uint64_t base, cl_command_queue queue, cl_uint num_wait = 0,
                 const cl_event* wait = nullptr);
  std::vector<CaptureId> wait_ids(cl_uint num_wait, const cl_event* wait) const;
  CaptureId buffer_id(cl_mem mem) const;
  // Adds a command; returns its index in the range.
  std::size_t add_command(RangeCapture& capture, cl_command_queue queue, cl_uint num_wait,
                          const cl_event* wait, bool blocking, trace::CommandBody body);
  // After the real call: keep the event for dependencies and timing, or
  // drop the command when the call failed.
  void after_enqueue(RangeCapture& capture, std::optional<std::size_t> index, cl_int status,
                     cl_event* app_event, cl_event own_event);

  void finish_range(RangeCapture& capture, bool final_state) override;
  void abandon_range(RangeCapture& capture) override;
  std::vector<trace::DeviceInfo> devices() override { return objects_.device_infos; }
  std::vector<std::uint64_t> buffer_sizes() override;

 private:
  void snapshot_root(RangeCapture& capture, cl_command_queue queue, cl_mem root, cl_uint num_wait,
                     const cl_event* wait);
  // Reads a root buffer or image whole (an image packed) into `bytes`.
  cl_int read_root(cl_command_queue queue, cl_mem root, const BufferInfo& info, bool blocking,
                   std::vector<std::byte>& bytes, cl_uint num_wait, const cl_event* wait,
                   cl_event* read);
  // Hands `bytes`, which the asynchronous read `read` is filling, to the
  // snapshot worker, which waits for the read and releases it; with no
  // event (a blocking read) the bytes are there already.
  SnapshotPipeline::BlobSlot snapshot_when_read(std::vector<std::byte> bytes, cl_event read);
  // The snapshot of a buffer larger than half the memory bound, read in
  // place through a blocking map; nothing when the buffer is smaller, may
  // not be mapped by the host, or the map fails (a read says why then).
  std::optional<SnapshotPipeline::BlobSlot> snapshot_mapped(cl_command_queue queue, cl_mem root,
                                                            cl_uint num_wait, const cl_event* wait);
  // Reads an SVM allocation for a snapshot: on an in-order queue without
  // blocking the program (the snapshot worker waits), else, or when the
  // memory is about to be freed, blocking.
  SnapshotPipeline::BlobSlot read_svm(cl_command_queue queue, std::uint64_t base,
                                      std::uint64_t size, cl_uint num_wait, const cl_event* wait,
                                      bool freed_next = false);
  bool in_order(cl_command_queue queue) const;
  void release_range_objects();
  // Adds the object's record to the range unless the trace has it already.
  void describe_once(RangeCapture& capture, CaptureId id,
                     const std::function<DeferredRecord()>& make);
  DeferredRecord describe_context(const ContextInfo& info);
  DeferredRecord describe_queue(const QueueInfo& info);
  DeferredRecord describe_buffer(const BufferInfo& info);
  DeferredRecord describe_program(cl_program program, const ProgramInfo& info);
  DeferredRecord describe_kernel(cl_kernel kernel, const KernelInfo& info);
  DeferredRecord describe_sampler(const SamplerInfo& info);
  DeferredRecord describe_svm(std::uint64_t base, const SvmInfo& info);
  CaptureId context_id(cl_context context) const;

  ClObjects objects_;
  std::unordered_map<void*, Mapping> mappings_;
  std::unordered_map<void*, Mapping> svm_mappings_;  // by the pointer mapped
  std::unordered_map<cl_event, CaptureId> range_events_;
  std::vector<std::pair<std::uint64_t, cl_event>> timed_;  // retained until the range ends
  // Retained until the range ends, so the program's releases inside the
  // range cannot free what the recorder still reads.
  std::vector<cl_command_queue> range_queues_;
  std::vector<std::pair<cl_mem, cl_command_queue>> touched_roots_;       // last queue of each root
  std::vector<std::pair<std::uint64_t, cl_command_queue>> touched_svm_;  // likewise, by base
  // Snapshot reads of SVM still running, by base: SVM has no reference
  // count to keep it alive, so a free waits for them.
  std::unordered_map<std::uint64_t, std::vector<cl_event>> svm_reads_;
};

}  // namespace msprof::record::opencl
