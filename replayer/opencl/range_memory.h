#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "replayer/core/plan/restore_plan.h"
#include "replayer/core/restore/trace_restorer.h"
#include "replayer/opencl/device_memory.h"

namespace msprof::replay::opencl {

// The memory objects of one range on the device, one table by capture id
// whatever their kind, and what puts the ones the range writes back before
// each pass: the objects' own copies and fills, and the trace (TraceRestorer).
class RangeMemory {
 public:
  RangeMemory(OpenClDevice& device, bool evicts_lines, HostLineFlush& line_flush,
              const trace::TraceReader& reader, const RestorePlan& restores);
  // Releases the objects newest first: a buffer made over an SVM allocation
  // goes before the allocation (SVM has no reference count).
  ~RangeMemory();
  RangeMemory(const RangeMemory&) = delete;
  RangeMemory& operator=(const RangeMemory&) = delete;

  // Makes every memory object of the plan, zeros: pointer allocations
  // first (buffers may be made over them), parents before what is made in
  // them. Notes go to `notes`.
  void create(const RangePlan& plan, std::vector<std::string>& notes);
  // Writes the range's initial state (a state of zeros is there already).
  void upload(const trace::Range& range, const trace::TraceReader& reader);
  // Makes what the restore plan asks for: copies where they fit (else the
  // trace, with a note), fills for zeros.
  void prepare_restores(std::vector<std::string>& notes);
  // Puts back what the range writes, on `queue` in `workers` pieces each;
  // waits for it.
  void restore(cl_command_queue queue, unsigned workers);
  // The device changed the objects: reads kept for verification are stale.
  void forget_reads();

  // PlanError where the trace's command names an object the range lacks.
  DeviceMemory& at(trace::CaptureId id) const;
  cl_mem mem(trace::CaptureId id) const;
  std::byte* pointer(trace::CaptureId id) const;
  // For verification: bounds checked against the object, blocking.
  void read(trace::CaptureId id, std::uint64_t offset, std::span<std::byte> out) const;

  std::uint64_t restored_bytes() const { return restored_bytes_; }
  // The restore plan as made: a copy that did not fit went to the trace.
  const RestorePlan& restores() const { return restores_; }
  bool restores_changed() const { return restores_changed_; }
  // Pointer allocations, and whether they sit where they were recorded.
  std::size_t pointer_allocations() const;
  bool at_recorded_addresses() const { return addresses_.identity(); }
  std::uint64_t pointers_moved() const;

 private:
  AddressTranslation addresses_;
  const MemoryContext context_;
  std::vector<std::unique_ptr<DeviceMemory>> objects_;  // in creation order
  std::map<trace::CaptureId, DeviceMemory*> by_id_;
  RestorePlan restores_;
  bool restores_changed_ = false;
  std::vector<DeviceMemory*> restored_;  // from a copy or by zeros, in plan order
  TraceRestorer trace_restorer_;         // the others, from the trace
  std::uint64_t restored_bytes_ = 0;
};

}  // namespace msprof::replay::opencl
