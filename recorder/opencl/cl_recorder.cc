#include "recorder/opencl/cl_recorder.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <utility>

#include "format/hash128.h"
#include "recorder/opencl/cl_image.h"

namespace msprof::record::opencl {
namespace {

std::string cl_error(const char* what, cl_int status) {
  return std::string(what) + " failed with OpenCL error " + std::to_string(status);
}

}  // namespace

ClRecorder& ClRecorder::instance() {
  static ClRecorder* recorder = new ClRecorder();  // lives until exit, past static destructors
  return *recorder;
}

CaptureId ClRecorder::buffer_id(cl_mem mem) const {
  const auto it = objects_.buffers.find(mem);
  return it == objects_.buffers.end() ? 0 : it->second.id;
}

CaptureId ClRecorder::context_id(cl_context context) const {
  const auto it = objects_.contexts.find(context);
  return it == objects_.contexts.end() ? 0 : it->second.id;
}

void ClRecorder::describe_once(RangeCapture& capture, CaptureId id,
                               const std::function<DeferredRecord()>& make) {
  if (id == 0 || CaptureSession::get()->object_known(id)) return;
  for (const auto& [known, record] : capture.object_records) {
    if (known == id) return;
  }
  capture.object_records.emplace_back(id, make());
}

void ClRecorder::use_queue(RangeCapture& capture, cl_command_queue queue) {
  const auto it = objects_.queues.find(queue);
  if (it == objects_.queues.end()) {
    throw std::runtime_error("a command queue created before the recorder was loaded");
  }
  const QueueInfo& info = it->second;
  capture.objects.insert(info.id);
  describe_once(capture, info.id, [&] { return describe_queue(info); });
  if (const auto c = objects_.contexts.find(info.context); c != objects_.contexts.end()) {
    capture.objects.insert(c->second.id);
    describe_once(capture, c->second.id, [&] { return describe_context(c->second); });
  }
  if (std::find(range_queues_.begin(), range_queues_.end(), queue) == range_queues_.end()) {
    next().clRetainCommandQueue(queue);
    range_queues_.push_back(queue);
  }
}

void ClRecorder::snapshot_root(RangeCapture& capture, cl_command_queue queue, cl_mem root,
                               cl_uint num_wait, const cl_event* wait) {
  const BufferInfo& info = objects_.buffers.at(root);
  if (auto mapped = snapshot_mapped(queue, root, num_wait, wait)) {
    capture.snapshotted.insert(info.id);
    capture.initial.emplace_back(info.id, std::move(*mapped));
    return;
  }
  CaptureSession& session = *CaptureSession::get();
  std::vector<std::byte> bytes = session.snapshot_buffer(info.size);
  // On an in-order queue the read runs before the command that follows it,
  // so the program need not wait for it: the snapshot worker does. An
  // out-of-order queue gives no such order, so the program waits there.
  const bool ordered = in_order(queue);
  cl_event read = nullptr;
  const cl_int status =
      read_root(queue, root, info, !ordered, bytes, num_wait, wait, ordered ? &read : nullptr);
  if (status != CL_SUCCESS) throw std::runtime_error(cl_error("snapshot of a buffer", status));
  capture.snapshotted.insert(info.id);
  // The read must start without waiting for the program's next flush.
  if (ordered) next().clFlush(queue);
  capture.initial.emplace_back(info.id, snapshot_when_read(std::move(bytes), read));
}

cl_int ClRecorder::read_root(cl_command_queue queue, cl_mem root, const BufferInfo& info,
                             bool blocking, std::vector<std::byte>& bytes, cl_uint num_wait,
                             const cl_event* wait, cl_event* read) {
  const cl_bool block = blocking ? CL_TRUE : CL_FALSE;
  if (!info.image) {
    return next().clEnqueueReadBuffer(queue, root, block, 0, info.size, bytes.data(), num_wait,
                                      wait, read);
  }
  // Packed: rows of width * pixel size, whatever pitch the driver keeps.
  const trace::ImageDesc& d = *info.image;
  const std::size_t origin[3] = {0, 0, 0};
  const std::size_t region[3] = {d.width, d.rows(), d.slices()};
  return next().clEnqueueReadImage(queue, root, block, origin, region, d.row_bytes(),
                                   packed_slice_pitch(d.type, d.row_bytes(), d.rows()),
                                   bytes.data(), num_wait, wait, read);
}

// Read, a snapshot over half the bound costs a buffer of its size faulted
// in afresh (it cannot be kept for reuse beside another like it) and waits
// for every snapshot in flight. Mapped, chunks the trace already holds
// (zeros, repeated data) are only hashed, and the rest is copied a chunk at
// a time; the program waits for its queue to reach the map instead.
std::optional<SnapshotPipeline::BlobSlot> ClRecorder::snapshot_mapped(cl_command_queue queue,
                                                                      cl_mem root, cl_uint num_wait,
                                                                      const cl_event* wait) {
  const BufferInfo& info = objects_.buffers.at(root);
  CaptureSession& session = *CaptureSession::get();
  if (info.image || info.size <= session.config().memory_bound / 2 ||
      (info.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) != 0) {
    return std::nullopt;
  }
  cl_int status = CL_SUCCESS;
  void* mapped = next().clEnqueueMapBuffer(queue, root, CL_TRUE, CL_MAP_READ, 0, info.size,
                                           num_wait, wait, nullptr, &status);
  if (status != CL_SUCCESS || mapped == nullptr) return std::nullopt;
  std::optional<SnapshotPipeline::BlobSlot> slot;
  std::exception_ptr failed;
  try {
    slot = session.snapshot_in_place({static_cast<const std::byte*>(mapped), info.size});
  } catch (...) {
    failed = std::current_exception();
  }
  // Waited for, so no later command of the program, on any queue, finds
  // the buffer still mapped.
  cl_event unmapped = nullptr;
  status = next().clEnqueueUnmapMemObject(queue, root, mapped, 0, nullptr, &unmapped);
  if (status == CL_SUCCESS) {
    status = next().clWaitForEvents(1, &unmapped);
    next().clReleaseEvent(unmapped);
  }
  if (failed) std::rethrow_exception(failed);
  if (status != CL_SUCCESS) {
    throw std::runtime_error(cl_error("unmapping a buffer after its snapshot", status));
  }
  return slot;
}

std::vector<std::uint64_t> ClRecorder::buffer_sizes() {
  std::vector<std::uint64_t> sizes;
  for (const auto& [mem, info] : objects_.buffers) {
    if (info.parent == nullptr && info.svm_base == 0) sizes.push_back(info.size);
  }
  for (const auto& [base, info] : objects_.svm) sizes.push_back(info.size);
  return sizes;
}

bool ClRecorder::in_order(cl_command_queue queue) const {
  return (objects_.queues.at(queue).asked & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
}

SnapshotPipeline::BlobSlot ClRecorder::snapshot_when_read(std::vector<std::byte> bytes,
                                                          cl_event read) {
  if (read == nullptr) return CaptureSession::get()->snapshot(std::move(bytes));
  const auto arrived = [read] {
    const cl_int done = next().clWaitForEvents(1, &read);
    next().clReleaseEvent(read);
    if (done != CL_SUCCESS) throw std::runtime_error(cl_error("snapshot of a buffer", done));
  };
  try {
    return CaptureSession::get()->snapshot(std::move(bytes), arrived);
  } catch (...) {
    // The device is still writing into `bytes`: it must finish first.
    try {
      arrived();
    } catch (const std::exception&) {
    }
    throw;
  }
}

void ClRecorder::use_buffer(RangeCapture& capture, cl_command_queue queue, cl_mem buffer,
                            cl_uint num_wait, const cl_event* wait) {
  if (buffer == nullptr) return;
  if (objects_.images.contains(buffer)) {
    CaptureSession::get()->not_replayable(
        "a pipe, GL object, or image of an unknown format or made from another image");
    return;
  }
  const auto it = objects_.buffers.find(buffer);
  if (it == objects_.buffers.end()) {
    throw std::runtime_error("a buffer created before the recorder was loaded");
  }
  capture.objects.insert(it->second.id);
  describe_once(capture, it->second.id, [&] { return describe_buffer(it->second); });
  const cl_mem root = objects_.root_of(buffer);
  const BufferInfo& root_info = objects_.buffers.at(root);
  capture.objects.insert(root_info.id);
  describe_once(capture, root_info.id, [&] { return describe_buffer(root_info); });
  if (root_info.svm_base != 0) {
    // Its bytes are the SVM allocation's, snapshotted as that.
    use_svm(capture, queue, root_info.svm_base, num_wait, wait);
    return;
  }
  if (capture.needs_initial_state(root_info.id)) {
    snapshot_root(capture, queue, root, num_wait, wait);
  }
  auto last = std::find_if(touched_roots_.begin(), touched_roots_.end(),
                           [&](const auto& p) { return p.first == root; });
  if (last == touched_roots_.end()) {
    next().clRetainMemObject(root);
    touched_roots_.emplace_back(root, queue);
  } else {
    last->second = queue;
  }
}

void ClRecorder::use_svm(RangeCapture& capture, cl_command_queue queue, std::uint64_t base,
                         cl_uint num_wait, const cl_event* wait) {
  const SvmInfo* info = objects_.svm.at(base);
  if (info == nullptr) throw std::runtime_error("an SVM allocation freed or never seen");
  capture.objects.insert(info->id);
  describe_once(capture, info->id, [&] { return describe_svm(base, *info); });
  if (const auto c = objects_.contexts.find(info->context); c != objects_.contexts.end()) {
    capture.objects.insert(c->second.id);
    describe_once(capture, c->second.id, [&] { return describe_context(c->second); });
  }
  if (capture.needs_initial_state(info->id)) {
    capture.initial.emplace_back(info->id, read_svm(queue, base, info->size, num_wait, wait));
    capture.snapshotted.insert(info->id);
  }
  auto last = std::find_if(touched_svm_.begin(), touched_svm_.end(),
                           [&](const auto& p) { return p.first == base; });
  if (last == touched_svm_.end()) {
    touched_svm_.emplace_back(base, queue);
  } else {
    last->second = queue;
  }
}

SnapshotPipeline::BlobSlot ClRecorder::read_svm(cl_command_queue queue, std::uint64_t base,
                                                std::uint64_t size, cl_uint num_wait,
                                                const cl_event* wait, bool freed_next) {
  std::vector<std::byte> bytes = CaptureSession::get()->snapshot_buffer(size);
  const bool ordered = in_order(queue) && !freed_next;
  cl_event read = nullptr;
  // clEnqueueSVMMemcpy reads coarse- and fine-grained SVM alike, in queue
  // order, without a host mapping the program would see.
  const cl_int status =
      size == 0 ? CL_SUCCESS
                : next().clEnqueueSVMMemcpy(queue, ordered ? CL_FALSE : CL_TRUE, bytes.data(),
                                            reinterpret_cast<const void*>(base), size, num_wait,
                                            wait, ordered ? &read : nullptr);
  if (status != CL_SUCCESS) throw std::runtime_error(cl_error("snapshot of SVM", status));
  if (read != nullptr) {
    next().clFlush(queue);
    next().clRetainEvent(read);
    auto& pending = svm_reads_[base];
    // Reads long done need no wait: dropped as new ones come.
    std::erase_if(pending, [](cl_event e) {
      cl_int state = CL_QUEUED;
      next().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
      if (state != CL_COMPLETE && state >= 0) return false;
      next().clReleaseEvent(e);
      return true;
    });
    pending.push_back(read);
  }
  return snapshot_when_read(std::move(bytes), read);
}

void ClRecorder::svm_freed(std::uint64_t base, cl_command_queue queue, cl_uint num_wait,
                           const cl_event* wait) {
  const SvmInfo* info = objects_.svm.at(base);
  if (info == nullptr) return;
  CaptureSession& session = *CaptureSession::get();
  RangeCapture* capture = session.capturing() ? session.current() : nullptr;
  const auto touched = std::find_if(touched_svm_.begin(), touched_svm_.end(),
                                    [&](const auto& p) { return p.first == base; });
  if (capture != nullptr && touched != touched_svm_.end()) {
    if (session.config().final_state) {
      try {
        if (queue != nullptr) {
          // Ahead of the free, after what it waits for: on an out-of-order
          // queue the read blocks, since the free may run right after it.
          capture->final.emplace_back(
              info->id, read_svm(queue, base, info->size, num_wait, wait, !in_order(queue)));
        } else {
          // clSVMFree frees at once: the read must be done before it returns.
          capture->final.emplace_back(
              info->id, read_svm(touched->second, base, info->size, 0, nullptr, true));
        }
      } catch (const std::exception& e) {
        session.warn(std::string(e.what()) + " at its free; the range has no final state for it");
      }
    }
    touched_svm_.erase(touched);
  }
  // The recorder's own reads still running: clSVMFree frees at once, so
  // they must end first; a free enqueued on an in-order queue runs after
  // them, and one on another queue waits only for what the program says.
  if (const auto pending = svm_reads_.find(base); pending != svm_reads_.end()) {
    const bool ordered = queue != nullptr && in_order(queue);
    for (cl_event e : pending->second) {
      if (!ordered) next().clWaitForEvents(1, &e);
      next().clReleaseEvent(e);
    }
    svm_reads_.erase(pending);
  }
  objects_.svm.erase(base);
}

void ClRecorder::use_kernel(RangeCapture& capture, cl_command_queue queue, cl_kernel kernel,
                            cl_uint num_wait, const cl_event* wait) {
  const auto it = objects_.kernels.find(kernel);
  if (it == objects_.kernels.end()) {
    throw std::runtime_error("a kernel created before the recorder was loaded");
  }
  KernelInfo& info = it->second;
  if (const auto why = info.unreplayable()) CaptureSession::get()->not_replayable(*why);
  capture.objects.insert(info.id);
  describe_once(capture, info.id, [&] { return describe_kernel(kernel, info); });
  if (const auto p = objects_.programs.find(info.program); p != objects_.programs.end()) {
    capture.objects.insert(p->second.id);
    describe_once(capture, p->second.id, [&] { return describe_program(p->first, p->second); });
  }
  for (std::size_t i = 0; i < info.args.size(); ++i) {
    const auto& arg = info.args[i];
    if (arg.kind == trace::ArgKind::Buffer) {
      use_buffer(capture, queue, info.arg_buffers[i], num_wait, wait);
    } else if (arg.kind == trace::ArgKind::Pointer && info.arg_svm[i] != 0) {
      // The allocation at that address now: freed and made again since the
      // argument was set, it is another one.
      const SvmInfo* now = objects_.svm.at(info.arg_svm[i]);
      if (now == nullptr) {
        CaptureSession::get()->not_replayable("an SVM argument freed before the launch");
        continue;
      }
      info.args[i].object = now->id;
      use_svm(capture, queue, info.arg_svm[i], num_wait, wait);
    } else if (arg.kind == trace::ArgKind::Sampler) {
      capture.objects.insert(arg.object);
      for (const auto& [handle, sampler] : objects_.samplers) {
        if (sampler.id == arg.object) {
          describe_once(capture, sampler.id, [&] { return describe_sampler(sampler); });
        }
      }
    }
  }
  for (std::size_t i = 0; i < info.indirect_svm.size(); ++i) {
    const SvmInfo* now = objects_.svm.at(info.indirect_svm[i]);
    if (now == nullptr) {
      CaptureSession::get()->not_replayable("an indirect SVM pointer freed before the launch");
      continue;
    }
    info.indirect[i].object = now->id;
    use_svm(capture, queue, info.indirect_svm[i], num_wait, wait);
  }
  ++capture.kernels;
}

std::vector<CaptureId> ClRecorder::wait_ids(cl_uint num_wait, const cl_event* wait) const {
  std::vector<CaptureId> out;
  for (cl_uint i = 0; wait != nullptr && i < num_wait; ++i) {
    if (const auto it = range_events_.find(wait[i]); it != range_events_.end())
      out.push_back(it->second);
  }
  return out;
}

std::size_t ClRecorder::add_command(RangeCapture& capture, cl_command_queue queue, cl_uint num_wait,
                                    const cl_event* wait, bool blocking, trace::CommandBody body) {
  trace::Command command;
  command.seq = capture.range.commands.size();
  command.queue = queue != nullptr ? objects_.queues.at(queue).id : 0;
  command.wait_events = wait_ids(num_wait, wait);
  command.blocking = blocking;
  command.host_time_ns = 0;
  command.body = std::move(body);
  capture.range.commands.push_back(std::move(command));
  return capture.range.commands.size() - 1;
}

void ClRecorder::after_enqueue(RangeCapture& capture, std::optional<std::size_t> index,
                               cl_int status, cl_event* app_event, cl_event own_event) {
  const cl_event event = app_event != nullptr ? *app_event : own_event;
  if (status != CL_SUCCESS || !index) {
    // The program sees its own error; the failed command did nothing.
    if (index && *index + 1 == capture.range.commands.size()) {
      capture.range.commands.pop_back();
      capture.command_data.erase(
          std::remove_if(capture.command_data.begin(), capture.command_data.end(),
                         [&](const auto& d) { return d.first == *index; }),
          capture.command_data.end());
    }
    if (own_event != nullptr && status == CL_SUCCESS) next().clReleaseEvent(own_event);
    return;
  }
  if (event == nullptr) return;
  auto& command = capture.range.commands[*index];
  if (app_event != nullptr) {
    command.event = CaptureSession::get()->new_id();
    range_events_[event] = command.event;
    next().clRetainEvent(event);
  }
  timed_.emplace_back(command.seq, event);
}

void ClRecorder::release_range_objects() {
  for (const auto& [seq, event] : timed_) next().clReleaseEvent(event);
  for (const auto& [root, queue] : touched_roots_) next().clReleaseMemObject(root);
  for (cl_command_queue queue : range_queues_) next().clReleaseCommandQueue(queue);
  timed_.clear();
  range_events_.clear();
  range_queues_.clear();
  touched_roots_.clear();
  touched_svm_.clear();
}

void ClRecorder::finish_range(RangeCapture& capture, bool final_state) {
  // On one in-order queue the final reads run after the range's commands
  // and the snapshot worker waits for them, so the program goes on at once,
  // as it would without the recorder. Several queues, or an out-of-order
  // one, give the reads no such order: the program waits for the range.
  const bool ordered = range_queues_.size() == 1 && in_order(range_queues_.front());
  if (!ordered) {
    for (cl_command_queue queue : range_queues_) next().clFinish(queue);
  }
  if (final_state) {
    for (const auto& [root, queue] : touched_roots_) {
      const BufferInfo& info = objects_.buffers.at(root);
      if (auto mapped = snapshot_mapped(queue, root, 0, nullptr)) {
        capture.final.emplace_back(info.id, std::move(*mapped));
        continue;
      }
      std::vector<std::byte> bytes = CaptureSession::get()->snapshot_buffer(info.size);
      cl_event read = nullptr;
      const cl_int status =
          read_root(queue, root, info, !ordered, bytes, 0, nullptr, ordered ? &read : nullptr);
      if (status != CL_SUCCESS) {
        CaptureSession::get()->warn(cl_error("reading the final state of a buffer", status) +
                                    "; the range has no final state to verify against");
        capture.final.clear();
        break;
      }
      capture.final.emplace_back(info.id, snapshot_when_read(std::move(bytes), read));
    }
    for (const auto& [base, queue] : touched_svm_) {
      const SvmInfo* info = objects_.svm.at(base);
      if (info == nullptr) continue;
      try {
        capture.final.emplace_back(info->id, read_svm(queue, base, info->size, 0, nullptr));
      } catch (const std::exception& e) {
        CaptureSession::get()->warn(std::string(e.what()) +
                                    "; the range has no final state to verify against");
        capture.final.clear();
        break;
      }
    }
    if (ordered) next().clFlush(range_queues_.front());
  }
  // The worker runs this after the final reads, so the commands are done by
  // then; a command that failed has no timing.
  capture.finish_on_worker = [timed = std::exchange(timed_, {})](trace::Range& range) {
    for (const auto& [seq, event] : timed) {
      trace::CommandTiming t;
      t.command_seq = seq;
      const bool ok =
          next().clWaitForEvents(1, &event) == CL_SUCCESS &&
          next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_QUEUED, sizeof t.queued_ns,
                                         &t.queued_ns, nullptr) == CL_SUCCESS &&
          next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_SUBMIT, sizeof t.submit_ns,
                                         &t.submit_ns, nullptr) == CL_SUCCESS &&
          next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof t.start_ns,
                                         &t.start_ns, nullptr) == CL_SUCCESS &&
          next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof t.end_ns,
                                         &t.end_ns, nullptr) == CL_SUCCESS;
      if (ok) range.timings.push_back(t);
      next().clReleaseEvent(event);
    }
  };
  release_range_objects();
}

void ClRecorder::abandon_range(RangeCapture&) {
  // No device calls at exit: the driver may already be gone. Event handles
  // are left to the process's end.
  timed_.clear();
  range_events_.clear();
  range_queues_.clear();
  touched_roots_.clear();
  touched_svm_.clear();
}

CaptureBackend::DeferredRecord ClRecorder::describe_program(cl_program program,
                                                            const ProgramInfo& info) {
  CaptureSession& session = *CaptureSession::get();
  trace::Program record;
  record.id = info.id;
  record.context =
      objects_.contexts.contains(info.context) ? objects_.contexts.at(info.context).id : 0;
  record.kind = info.kind;
  record.sources = info.sources;
  record.build_options = info.build_options;
  record.kernel_names = info.kernel_names;
  SnapshotPipeline::BlobSlot il;
  if (!info.il.empty()) il = session.snapshot_copy(info.il);
  std::vector<std::pair<std::uint32_t, SnapshotPipeline::BlobSlot>> given, built;
  for (const auto& [device, bytes] : info.given_binaries) {
    given.emplace_back(objects_.device_index(device), session.snapshot_copy(bytes));
  }
  cl_uint count = 0;
  if (next().clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr) ==
          CL_SUCCESS &&
      count > 0) {
    std::vector<cl_device_id> devices(count);
    std::vector<std::size_t> sizes(count);
    next().clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof(cl_device_id) * count,
                            devices.data(), nullptr);
    // Asking for the binaries of a program built from source or IL makes
    // some drivers (PoCL) compile every kernel of it there and then, on the
    // program's thread, where the program compiles only the kernels it
    // runs: for a library's program of dozens of kernels that is most of
    // the recorded run. Its source or IL rebuilds it anywhere, so its
    // binaries are asked for only with --program-binaries. A program
    // loaded from binaries has them built already.
    const bool want_binaries =
        info.kind == trace::ProgramKind::Binary || session.config().program_binaries;
    if (!want_binaries) {
      for (cl_uint i = 0; i < count; ++i)
        record.devices.push_back(objects_.device_index(devices[i]));
    } else if (next().clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                       sizeof(std::size_t) * count, sizes.data(),
                                       nullptr) == CL_SUCCESS) {
      std::vector<std::vector<std::byte>> binaries(count);
      std::vector<unsigned char*> pointers(count);
      for (cl_uint i = 0; i < count; ++i) {
        binaries[i].resize(sizes[i]);
        pointers[i] = reinterpret_cast<unsigned char*>(binaries[i].data());
      }
      if (next().clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(unsigned char*) * count,
                                  pointers.data(), nullptr) == CL_SUCCESS) {
        std::vector<std::span<const std::byte>> spans(binaries.begin(), binaries.end());
        objects_.note_binaries(info, spans);
        for (cl_uint i = 0; i < count; ++i) {
          record.devices.push_back(objects_.device_index(devices[i]));
          if (sizes[i] > 0)
            built.emplace_back(record.devices.back(), session.snapshot(std::move(binaries[i])));
        }
      }
    }
  }
  return [record = std::move(record), il, given, built]() mutable -> trace::Record {
    if (il) record.il = *il;
    for (const auto& [device, slot] : given) record.given_binaries.push_back({device, *slot});
    for (const auto& [device, slot] : built) record.built_binaries.push_back({device, *slot});
    return record;
  };
}

CaptureBackend::DeferredRecord ClRecorder::describe_context(const ContextInfo& info) {
  trace::Context record{info.id, {}};
  for (cl_device_id d : info.devices) record.devices.push_back(objects_.device_index(d));
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_queue(const QueueInfo& info) {
  trace::Queue record{info.id,
                      context_id(info.context),
                      objects_.device_index(info.device),
                      info.asked,
                      (info.asked & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
                      (info.asked & CL_QUEUE_PROFILING_ENABLE) != 0};
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_buffer(const BufferInfo& info) {
  trace::Buffer record{info.id,
                       context_id(info.context),
                       info.flags,
                       info.size,
                       info.parent != nullptr ? buffer_id(info.parent) : 0,
                       info.origin,
                       std::nullopt,
                       info.image ? trace::MemoryKind::Image : trace::MemoryKind::Buffer,
                       0,
                       info.image};
  if (info.svm_base != 0) {
    // Made over an SVM allocation: that is its parent, at the offset.
    if (const SvmInfo* svm = objects_.svm.at(info.svm_base)) record.parent = svm->id;
    record.origin = info.svm_offset;
  }
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_svm(std::uint64_t base, const SvmInfo& info) {
  trace::Buffer record;
  record.id = info.id;
  record.context = context_id(info.context);
  record.flags = info.flags;
  record.size = info.size;
  record.device_address = base;
  record.kind = trace::MemoryKind::Pointer;
  record.alignment = info.alignment;
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_kernel(cl_kernel kernel,
                                                           const KernelInfo& info) {
  trace::Kernel record;
  record.id = info.id;
  record.program =
      objects_.programs.contains(info.program) ? objects_.programs.at(info.program).id : 0;
  record.name = info.name;
  record.num_args = info.num_args;
  for (cl_uint i = 0; i < info.num_args; ++i) {
    trace::KernelArgInfo a;
    cl_kernel_arg_address_qualifier address = 0;
    cl_kernel_arg_access_qualifier access = 0;
    cl_kernel_arg_type_qualifier type_qualifier = 0;
    char name[256] = {}, type[256] = {};
    if (next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                                  &address, nullptr) != CL_SUCCESS) {
      record.arg_info.clear();
      break;
    }
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                              nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type_qualifier,
                              &type_qualifier, nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_NAME, sizeof name - 1, name, nullptr);
    next().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, nullptr);
    a.name = name;
    a.type_name = type;
    a.address_qualifier = address;
    a.access_qualifier = access;
    a.type_qualifier = type_qualifier;
    record.arg_info.push_back(std::move(a));
  }
  return [record] { return trace::Record{record}; };
}

CaptureBackend::DeferredRecord ClRecorder::describe_sampler(const SamplerInfo& info) {
  trace::Sampler record{info.id, context_id(info.context), info.normalized, info.addressing,
                        info.filter};
  return [record] { return trace::Record{record}; };
}

}  // namespace msprof::record::opencl
