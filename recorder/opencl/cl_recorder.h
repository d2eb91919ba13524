#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recorder/core/capture_backend.h"
#include "recorder/core/capture_session.h"
#include "recorder/core/touched_memory.h"
#include "recorder/opencl/cl_objects.h"

namespace msprof::record::opencl {

// The OpenCL side of a recording: the program's objects, and what the range
// being captured enqueues. Memory of every kind is one table of ClMemory
// objects (cl_memory.h), used through one entry point, use_memory, and
// touched by a range in one list. All members are guarded by the session's
// lock.
class ClRecorder final : public CaptureBackend {
 public:
  using MemoryLocation = record::MemoryTable<ClMemory>::Location;

  static ClRecorder& instance();

  ClObjects& objects() { return objects_; }
  record::MemoryTable<ClMemory>& memory() { return objects_.memory; }

  // While capturing (lock held): the queue a command runs on.
  void use_queue(RangeCapture& capture, cl_command_queue queue);
  // While capturing: a memory object a command uses, of any kind. It and
  // the objects under it are described; the one that holds the bytes has
  // its state read before its first use in the range, on the command's
  // queue after the command's wait list, and is held to the range's end.
  void use_memory(RangeCapture& capture, cl_command_queue queue, MemoryKey key, cl_uint num_wait,
                  const cl_event* wait);
  // The same for a cl_mem; a null one is no memory.
  void use_memory(RangeCapture& capture, cl_command_queue queue, cl_mem mem, cl_uint num_wait,
                  const cl_event* wait) {
    if (mem != nullptr) use_memory(capture, queue, key_of(mem), num_wait, wait);
  }
  void use_kernel(RangeCapture& capture, cl_command_queue queue, cl_kernel kernel, cl_uint num_wait,
                  const cl_event* wait);
  // The memory named by address (SVM) that holds `p`, and the offset.
  std::optional<MemoryLocation> memory_at(const void* p) const {
    return objects_.memory.find_address(reinterpret_cast<std::uintptr_t>(p));
  }
  // A memory object's memory is being freed (on `queue` by an enqueued
  // free, or when the call returns when null): a range that touched it
  // gets its final state before the memory goes, the recorder's own reads
  // of it end first, and it is forgotten.
  void memory_freed(MemoryKey key, cl_command_queue queue, cl_uint num_wait = 0,
                    const cl_event* wait = nullptr);
  std::vector<CaptureId> wait_ids(cl_uint num_wait, const cl_event* wait) const;
  // The capture id of a memory object, or 0 when unknown.
  CaptureId memory_id(cl_mem mem) const;
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
  // The object under `key`; throws when the recorder never saw it.
  ClMemory& known(MemoryKey key) const;
  bool in_order(cl_command_queue queue) const;
  void release_range_objects();
  // Adds the object's record to the range unless the trace has it already
  // (cl_object_records.cc).
  void describe_once(RangeCapture& capture, CaptureId id,
                     const std::function<DeferredRecord()>& make);
  void describe_memory(RangeCapture& capture, const ClMemory& memory);
  DeferredRecord describe_context(const ContextInfo& info);
  DeferredRecord describe_queue(const QueueInfo& info);
  DeferredRecord memory_record(const ClMemory& memory);
  DeferredRecord describe_program(cl_program program, const ProgramInfo& info);
  DeferredRecord describe_kernel(cl_kernel kernel, const KernelInfo& info);
  DeferredRecord describe_sampler(const SamplerInfo& info);
  CaptureId context_id(cl_context context) const;

  ClObjects objects_;
  std::unordered_map<cl_event, CaptureId> range_events_;
  std::vector<std::pair<std::uint64_t, cl_event>> timed_;  // retained until the range ends
  // Events from outside the range that its commands wait on (user events
  // among them), retained until the range ends: one still open there may
  // be the program's to complete after the range, so the range's end must
  // not wait for the range's record.
  std::vector<cl_event> gates_;
  // Retained until the range ends, so the program's releases inside the
  // range cannot free what the recorder still reads.
  std::vector<cl_command_queue> range_queues_;
  // The memory holding its own state that the range touched, with the
  // last queue of each; held (ClMemory::hold) until the range ends.
  record::TouchedMemory<cl_command_queue> touched_;
};

}  // namespace msprof::record::opencl
