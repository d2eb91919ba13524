#include "replayer/opencl/range_memory.h"

#include "replayer/core/replay_error.h"
#include "replayer/opencl/buffer_memory.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/image_memory.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/svm_memory.h"

namespace msprof::replay::opencl {

RangeMemory::RangeMemory(OpenClDevice& device, bool evicts_lines, HostLineFlush& line_flush,
                         const trace::TraceReader& reader, const RestorePlan& restores)
    : context_{device, evicts_lines, line_flush, addresses_},
      restores_(restores),
      trace_restorer_(reader, device.restore_workers()) {}

RangeMemory::~RangeMemory() {
  by_id_.clear();
  while (!objects_.empty()) objects_.pop_back();
}

void RangeMemory::create(const RangePlan& plan, std::vector<std::string>& notes) {
  const auto add = [&](std::unique_ptr<DeviceMemory> object) {
    by_id_.emplace(object->id(), object.get());
    objects_.push_back(std::move(object));
  };
  for (const auto* b : plan.buffers) {
    if (b->is_pointer()) add(std::make_unique<SvmMemory>(context_, *b));
  }
  bool root_image = false;
  for (const auto* b : plan.buffers) {
    if (b->is_pointer()) continue;
    const DeviceMemory* parent = b->parent != 0 ? &at(b->parent) : nullptr;
    if (b->is_image()) {
      add(std::make_unique<ImageMemory>(context_, *b, parent));
      if (context_.evicts_lines && parent == nullptr && !root_image) {
        notes.push_back(
            "images are the driver's memory: their lines are not evicted before a pass");
      }
      root_image = root_image || parent == nullptr;
    } else {
      add(std::make_unique<BufferMemory>(context_, *b, parent));
    }
  }
  cl_check(clFinish(context_.control_queue()), "clFinish");
}

void RangeMemory::upload(const trace::Range& range, const trace::TraceReader& reader) {
  for (const auto& state : range.initial_state) {
    DeviceMemory& object = at(state.buffer);
    if (state.blob.size != object.size()) {
      throw PlanError("the initial state of buffer " + std::to_string(state.buffer) + " has " +
                      std::to_string(state.blob.size) + " bytes, the buffer " +
                      std::to_string(object.size()) + "; the trace is damaged");
    }
    // The object was made zeros: a state of zeros is there already.
    if (is_zero_blob(reader, state.blob)) continue;
    object.upload(reader, state.blob);
  }
}

void RangeMemory::prepare_restores(std::vector<std::string>& notes) {
  bool copies_fit = true;
  for (auto& restore : restores_.buffers) {
    const auto& state = restore.state;
    DeviceMemory& object = at(state.buffer);
    restored_bytes_ += state.blob.size;
    if (restore.source == RestoreSource::Copy && (copies_fit || object.must_copy())) {
      const cl_int err = object.keep_copy();
      if (err == CL_SUCCESS) {
        object.restore_by(DeviceMemory::Restore::Copy);
        restored_.push_back(&object);
        continue;
      }
      // What the footprint allowed for, the driver did not give.
      copies_fit = false;
      restores_changed_ = true;
      notes.push_back("no device memory for a restore copy (" + cl_error_name(err) +
                      "): restoring from the trace instead");
    }
    if (restore.source == RestoreSource::Copy) restore.source = RestoreSource::Trace;
    if (restore.source == RestoreSource::Zeros) {
      object.restore_by(DeviceMemory::Restore::Zeros);
      restored_.push_back(&object);
    } else {
      trace_restorer_.add(state.buffer, state.blob);
    }
  }
}

void RangeMemory::restore(cl_command_queue queue, unsigned workers) {
  forget_reads();
  try {
    for (DeviceMemory* object : restored_) object->restore(queue, workers);
    if (!trace_restorer_.empty()) {
      trace_restorer_.restore(
          [&](trace::CaptureId id, std::uint64_t offset, std::span<const std::byte> bytes) {
            at(id).write_restored(queue, offset, bytes);
          });
    }
  } catch (...) {
    // The pieces already enqueued write the objects: they end before the
    // range (and its objects) can go.
    clFinish(queue);
    throw;
  }
  cl_check(clFinish(queue), "clFinish");
}

void RangeMemory::forget_reads() {
  for (const auto& object : objects_) object->forget_reads();
}

DeviceMemory& RangeMemory::at(trace::CaptureId id) const {
  const auto it = by_id_.find(id);
  if (it == by_id_.end()) throw PlanError("buffer " + std::to_string(id) + " is not loaded");
  return *it->second;
}

cl_mem RangeMemory::mem(trace::CaptureId id) const {
  const cl_mem m = at(id).mem();
  if (m == nullptr) throw PlanError("buffer " + std::to_string(id) + " is not loaded");
  return m;
}

std::byte* RangeMemory::pointer(trace::CaptureId id) const {
  const auto it = by_id_.find(id);
  std::byte* p = it == by_id_.end() ? nullptr : it->second->pointer();
  if (p == nullptr) throw PlanError("allocation " + std::to_string(id) + " is not loaded");
  return p;
}

void RangeMemory::read(trace::CaptureId id, std::uint64_t offset, std::span<std::byte> out) const {
  DeviceMemory& object = at(id);
  const auto size = object.size();
  if (offset > size || out.size() > size - offset) {
    throw PlanError("a read of buffer " + std::to_string(id) + " past its " + std::to_string(size) +
                    " bytes; the trace is damaged");
  }
  if (out.empty()) return;
  object.read(offset, out);
}

std::size_t RangeMemory::pointer_allocations() const {
  std::size_t n = 0;
  for (const auto& object : objects_) n += object->pointer() != nullptr ? 1 : 0;
  return n;
}

std::uint64_t RangeMemory::pointers_moved() const {
  std::uint64_t n = 0;
  for (const auto& object : objects_) n += object->pointers_moved();
  return n;
}

}  // namespace msprof::replay::opencl
