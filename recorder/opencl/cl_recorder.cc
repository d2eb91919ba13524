#include "recorder/opencl/cl_recorder.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <utility>

namespace msprof::record::opencl {
namespace {

// Deeper than any OpenCL nesting (an image over a sub-buffer of a buffer
// made over SVM is three): more means a table gone wrong, not memory.
constexpr int kMaxMemoryDepth = 8;

}  // namespace

ClRecorder& ClRecorder::instance() {
  static ClRecorder* recorder = new ClRecorder();  // lives until exit, past static destructors
  return *recorder;
}

CaptureId ClRecorder::memory_id(cl_mem mem) const {
  const ClMemory* memory = objects_.memory.find(key_of(mem));
  return memory == nullptr ? 0 : memory->id();
}

ClMemory& ClRecorder::known(MemoryKey key) const {
  ClMemory* memory = objects_.memory.find(key);
  if (memory != nullptr) return *memory;
  throw std::runtime_error(key.by_address() ? "an SVM allocation freed or never seen"
                                            : "a buffer created before the recorder was loaded");
}

bool ClRecorder::in_order(cl_command_queue queue) const {
  return (objects_.queues.at(queue).asked & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
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

void ClRecorder::use_memory(RangeCapture& capture, cl_command_queue queue, MemoryKey key,
                            cl_uint num_wait, const cl_event* wait) {
  ClMemory* memory = &known(key);
  if (const auto why = memory->unreplayable()) {
    CaptureSession::get()->not_replayable(*why);
    return;
  }
  // The object, then those under it, down to the one that holds the bytes:
  // replay makes each over the one under it.
  describe_memory(capture, *memory);
  for (int depth = 0; memory->parent(); ++depth) {
    if (depth == kMaxMemoryDepth) throw std::runtime_error("memory objects nested too deep");
    key = *memory->parent();
    memory = &known(key);
    describe_memory(capture, *memory);
  }
  if (capture.needs_initial_state(memory->id())) {
    const StateRead read{StateRead::When::Initial, queue, num_wait, wait, in_order(queue)};
    capture.initial.emplace_back(memory->id(), memory->read_state(read));
    capture.snapshotted.insert(memory->id());
  }
  if (touched_.touch(key, queue)) memory->hold();
}

void ClRecorder::memory_freed(MemoryKey key, cl_command_queue queue, cl_uint num_wait,
                              const cl_event* wait) {
  ClMemory* memory = objects_.memory.find(key);
  if (memory == nullptr) return;
  CaptureSession& session = *CaptureSession::get();
  RangeCapture* capture = session.capturing() ? session.current() : nullptr;
  const auto last_queue = capture != nullptr ? touched_.forget(key) : std::nullopt;
  if (last_queue) {
    if (session.config().final_state) {
      try {
        // Ahead of a queued free, after what it waits for; a free that
        // happens at once is read on the range's last queue that touched
        // the memory, blocking.
        const StateRead read =
            queue != nullptr
                ? StateRead{StateRead::When::QueuedFree, queue, num_wait, wait, in_order(queue)}
                : StateRead{StateRead::When::Free, *last_queue, 0, nullptr, in_order(*last_queue)};
        capture->final.emplace_back(memory->id(), memory->read_state(read));
      } catch (const std::exception& e) {
        session.warn(std::string(e.what()) + " at its free; the range has no final state for it");
      }
    }
    memory->release();
  }
  const bool queue_known = queue != nullptr && objects_.queues.contains(queue);
  memory->before_free(queue, queue_known && in_order(queue));
  objects_.memory.erase(key);
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
    if (const auto& key = info.arg_memory[i]) {
      if (key->by_address()) {
        // The allocation at that address now: freed and made again since
        // the argument was set, it is another one.
        const ClMemory* now = objects_.memory.find(*key);
        if (now == nullptr) {
          CaptureSession::get()->not_replayable("an SVM argument freed before the launch");
          continue;
        }
        info.args[i].object = now->id();
      }
      use_memory(capture, queue, *key, num_wait, wait);
    } else if (info.args[i].kind == trace::ArgKind::Sampler) {
      const CaptureId id = info.args[i].object;
      capture.objects.insert(id);
      for (const auto& [handle, sampler] : objects_.samplers) {
        if (sampler.id == id) {
          describe_once(capture, sampler.id, [&] { return describe_sampler(sampler); });
        }
      }
    }
  }
  for (std::size_t i = 0; i < info.indirect_memory.size(); ++i) {
    const ClMemory* now = objects_.memory.find(info.indirect_memory[i]);
    if (now == nullptr) {
      CaptureSession::get()->not_replayable("an indirect SVM pointer freed before the launch");
      continue;
    }
    info.indirect[i].object = now->id();
    use_memory(capture, queue, info.indirect_memory[i], num_wait, wait);
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
  for (cl_uint i = 0; wait != nullptr && i < num_wait; ++i) {
    if (range_events_.contains(wait[i]) ||
        std::find(gates_.begin(), gates_.end(), wait[i]) != gates_.end()) {
      continue;
    }
    next().clRetainEvent(wait[i]);
    gates_.push_back(wait[i]);
  }
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

std::vector<std::uint64_t> ClRecorder::buffer_sizes() {
  std::vector<std::uint64_t> sizes;
  for (const auto& [key, memory] : objects_.memory) {
    if (!memory->parent() && !memory->unreplayable()) sizes.push_back(memory->size());
  }
  return sizes;
}

void ClRecorder::release_range_objects() {
  for (const auto& [seq, event] : timed_) next().clReleaseEvent(event);
  for (cl_event gate : gates_) next().clReleaseEvent(gate);
  gates_.clear();
  for (const auto& touched : touched_) {
    if (ClMemory* memory = objects_.memory.find(touched.key)) memory->release();
  }
  for (cl_command_queue queue : range_queues_) next().clReleaseCommandQueue(queue);
  timed_.clear();
  range_events_.clear();
  range_queues_.clear();
  touched_.clear();
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
    for (const auto& [key, queue] : touched_) {
      ClMemory* memory = objects_.memory.find(key);
      if (memory == nullptr) continue;
      try {
        const StateRead read{StateRead::When::Final, queue, 0, nullptr, in_order(queue), ordered};
        capture.final.emplace_back(memory->id(), memory->read_state(read));
      } catch (const std::exception& e) {
        CaptureSession::get()->warn(std::string(e.what()) +
                                    "; the range has no final state to verify against");
        capture.final.clear();
        break;
      }
    }
    if (ordered) next().clFlush(range_queues_.front());
  }
  for (cl_event gate : gates_) {
    cl_int status = CL_COMPLETE;
    if (next().clGetEventInfo(gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                              nullptr) == CL_SUCCESS &&
        status > CL_COMPLETE) {
      capture.waits_on_program = true;
    }
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
  gates_.clear();
  range_events_.clear();
  range_queues_.clear();
  touched_.clear();
}

}  // namespace msprof::record::opencl
