#include "replayer/opencl/opencl_loaded_range.h"

#include <algorithm>
#include <set>

#include "replayer/core/plan/range_footprint.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/kernel_arg_info.h"
#include "replayer/opencl/memory_copy.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/program_builder.h"

namespace msprof::replay::opencl {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

OpenClLoadedRange::OpenClLoadedRange(OpenClDevice& device, const RangePlan& plan,
                                     const trace::TraceInfo& info, const trace::TraceReader& reader,
                                     const CacheClearRequest& cache, const RestorePlan& restores)
    : device_(device),
      range_(*plan.range),
      cache_(cache),
      evicts_lines_(device.evicts_lines(cache)),
      reader_(reader),
      memory_(device, evicts_lines_, line_flush_, reader, restores) {
  for (const auto* p : plan.programs) trace_programs_.emplace(p->id, p);
  for (const auto* k : plan.kernels) trace_kernels_.emplace(k->id, k);
  create_queues(plan);
  create_programs(plan, info, reader);
  memory_.create(plan, notes_);
  memory_.upload(range_, reader);
  memory_.prepare_restores(notes_);
  load_host_data(range_, reader);
  if (memory_.pointer_allocations() != 0 && !memory_.at_recorded_addresses()) {
    // OpenCL cannot place an SVM allocation at a chosen address.
    notes_.push_back(std::to_string(memory_.pointer_allocations()) +
                     " SVM allocation(s) replayed at new addresses; " +
                     std::to_string(memory_.pointers_moved()) +
                     " pointer(s) stored in them moved along, and moved back for verification");
  }
  for (const auto& c : range_.commands) {
    if (std::holds_alternative<trace::KernelLaunch>(c.body)) kernel_seqs_.insert(c.seq);
  }
  if (evicts_lines_) {
    // The program's host data of the range is evicted too, as a sweep would.
    for (const auto& [seq, bytes] : host_data_) line_flush_.add(bytes);
    device_.note_lines_evicted();
  } else if (cache_.enabled()) {
    device_.cache_clearer(cache_.scratch_bytes);
  }
}

OpenClLoadedRange::~OpenClLoadedRange() {
  // Nothing may still run on buffers about to be released.
  for (auto& [id, q] : queues_) clFinish(q.get());
  clFinish(device_.control_queue());
  pass_events_.clear();
}

void OpenClLoadedRange::create_queues(const RangePlan& plan) {
  for (const auto* q : plan.queues) {
    // Profiling is what replay measures with, whatever the program asked.
    const cl_queue_properties wanted =
        (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) | CL_QUEUE_PROFILING_ENABLE;
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, wanted, 0};
    cl_int err = CL_SUCCESS;
    ClQueue queue(
        clCreateCommandQueueWithProperties(device_.context(), device_.device(), properties, &err));
    if (err == CL_INVALID_QUEUE_PROPERTIES && (wanted & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
      // In order is a stricter schedule than out of order, so still faithful.
      const cl_queue_properties in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
      queue = ClQueue(
          clCreateCommandQueueWithProperties(device_.context(), device_.device(), in_order, &err));
      notes_.push_back("queue " + std::to_string(q->id) +
                       ": out-of-order execution not supported, replayed in order");
    }
    cl_check(err, "clCreateCommandQueueWithProperties");
    queues_.emplace(q->id, std::move(queue));
  }
}

void OpenClLoadedRange::create_programs(const RangePlan& plan, const trace::TraceInfo& info,
                                        const trace::TraceReader& reader) {
  for (const auto* p : plan.programs) {
    BuiltProgram built = build_program(device_.context(), device_.device(), device_.description(),
                                       *p, info, reader, plan.rebuild_programs);
    if (!built.note.empty()) notes_.push_back(built.note);
    origins_.emplace(p->id, built.origin);
    programs_.emplace(p->id, std::move(built.program));
  }
  for (const auto* k : plan.kernels) {
    cl_int err = CL_SUCCESS;
    ClKernel kernel(clCreateKernel(programs_.at(k->program).get(), k->name.c_str(), &err));
    if (err != CL_SUCCESS) {
      throw DeviceError("kernel '" + k->name + "' is not in its rebuilt program (" +
                        cl_error_name(err) + "); the trace's program does not match it");
    }
    kernels_.emplace(k->id, std::move(kernel));
  }
  for (const auto* s : plan.samplers) {
    const cl_sampler_properties properties[] = {
        CL_SAMPLER_NORMALIZED_COORDS,
        static_cast<cl_sampler_properties>(s->normalized_coords ? CL_TRUE : CL_FALSE),
        CL_SAMPLER_ADDRESSING_MODE,
        s->addressing_mode,
        CL_SAMPLER_FILTER_MODE,
        s->filter_mode,
        0};
    cl_int err = CL_SUCCESS;
    ClSampler sampler(clCreateSamplerWithProperties(device_.context(), properties, &err));
    cl_check(err, "clCreateSamplerWithProperties");
    samplers_.emplace(s->id, std::move(sampler));
  }
}

void OpenClLoadedRange::load_host_data(const trace::Range& range,
                                       const trace::TraceReader& reader) {
  for (const auto& command : range.commands) {
    std::visit(Overloaded{
                   [&](const trace::BufferWrite& w) {
                     auto data = reader.read_blob(w.data);
                     const auto need = w.rect ? host_extent(*w.rect) : w.size;
                     if (data.size() < need) {
                       throw PlanError("the data of write " + std::to_string(command.seq) +
                                       " is shorter than the write; the trace is damaged");
                     }
                     memory_.at(w.buffer).translate_in(data, w.offset);
                     host_data_.emplace(command.seq, std::move(data));
                   },
                   [&](const trace::BufferUnmap& u) {
                     if (!u.data.present()) return;
                     auto data = reader.read_blob(u.data);
                     memory_.at(u.buffer).translate_in(data, u.offset);
                     host_data_.emplace(command.seq, std::move(data));
                   },
                   [&](const trace::BufferRead& r) {
                     host_data_.emplace(command.seq, std::vector<std::byte>(
                                                         r.rect ? host_extent(*r.rect) : r.size));
                   },
                   [](const auto&) {},
               },
               command.body);
  }
}

std::string OpenClLoadedRange::program_origin() const {
  std::set<std::string> kinds;
  for (const auto& [id, origin] : origins_) kinds.insert(origin);
  std::string out;
  for (const auto& k : kinds) out += (out.empty() ? "" : ",") + k;
  return out;
}

cl_command_queue OpenClLoadedRange::queue(trace::CaptureId id) const {
  const auto it = queues_.find(id);
  if (it == queues_.end()) throw PlanError("queue " + std::to_string(id) + " is not loaded");
  return it->second.get();
}

void OpenClLoadedRange::restore() {
  memory_.restore(device_.restore_queue(), device_.restore_workers());
}

void OpenClLoadedRange::clear_cache() {
  if (evicts_lines_) {
    line_flush_.clear();
  } else if (cache_.enabled()) {
    device_.cache_clearer(cache_.scratch_bytes).clear();
  }
}

void OpenClLoadedRange::begin_pass() {
  recorded_events_.clear();
  pass_events_.clear();
}

std::vector<cl_event> OpenClLoadedRange::wait_list(const trace::Command& command) const {
  std::vector<cl_event> out;
  for (auto id : command.wait_events) {
    // Events from before the range completed before the range began.
    const auto it = recorded_events_.find(id);
    if (it != recorded_events_.end()) out.push_back(it->second);
  }
  return out;
}

void OpenClLoadedRange::execute(std::span<const trace::Command> commands) {
  memory_.forget_reads();
  try {
    for (const auto& command : commands) {
      if (std::holds_alternative<trace::HostWait>(command.body)) {
        host_wait(command);
        continue;
      }
      cl_event event = enqueue(command);
      pass_events_.emplace_back(command.seq, ClEvent(event));
      if (command.event != 0) recorded_events_[command.event] = event;
      if (command.blocking) cl_check(clWaitForEvents(1, &event), "clWaitForEvents");
    }
  } catch (...) {
    // What was enqueued ends before anything restores the buffers under it.
    for (auto& [id, q] : queues_) clFinish(q.get());
    throw;
  }
  finish_all();
}

void OpenClLoadedRange::host_wait(const trace::Command& command) {
  const auto& wait = std::get<trace::HostWait>(command.body);
  std::vector<cl_event> events;
  for (auto id : wait.events) {
    const auto it = recorded_events_.find(id);
    if (it != recorded_events_.end()) events.push_back(it->second);
  }
  if (!events.empty()) {
    cl_check(clWaitForEvents(static_cast<cl_uint>(events.size()), events.data()),
             "clWaitForEvents");
  } else if (command.queue != 0) {
    cl_check(clFinish(queue(command.queue)), "clFinish");
  } else if (wait.events.empty()) {
    finish_all();
  }
}

void OpenClLoadedRange::finish_all() {
  for (auto& [id, q] : queues_) cl_check(clFinish(q.get()), "clFinish");
}

cl_event OpenClLoadedRange::enqueue(const trace::Command& command) {
  const auto waits = wait_list(command);
  const Submission at{queue(command.queue), waits, command.seq};
  const auto host = [&]() -> std::vector<std::byte>& { return host_data_.at(command.seq); };
  cl_event event = nullptr;
  std::visit(
      Overloaded{
          [&](const trace::KernelLaunch& k) { event = enqueue_kernel(at.queue, k, waits); },
          [&](const trace::BufferWrite& w) {
            event = memory_.at(w.buffer).enqueue_write(at, w, host());
          },
          [&](const trace::BufferRead& r) {
            event = memory_.at(r.buffer).enqueue_read(at, r, host());
          },
          [&](const trace::BufferCopy& c) {
            event = enqueue_copy(at, c, memory_.at(c.src), memory_.at(c.dst));
          },
          [&](const trace::BufferFill& f) { event = memory_.at(f.buffer).enqueue_fill(at, f); },
          [&](const trace::BufferUnmap& u) {
            const auto it = host_data_.find(command.seq);
            event = memory_.at(u.buffer).enqueue_unmap(at, u,
                                                       it != host_data_.end()
                                                           ? std::span<const std::byte>(it->second)
                                                           : std::span<const std::byte>());
          },
          [&](const trace::BufferMap&) { event = at.marker(); },
          [&](const trace::Marker&) { event = at.marker(); },
          [&](const trace::Barrier&) {
            cl_check(clEnqueueBarrierWithWaitList(at.queue, at.count(), at.list(), &event),
                     "clEnqueueBarrierWithWaitList");
          },
          [&](const trace::HostWait&) {},
      },
      command.body);
  return event;
}

void OpenClLoadedRange::prepare_variant(std::size_t index, const Variant& variant) {
  variants_.erase(index);
  variants_.emplace(index,
                    build_variant(device_.context(), device_.device(), variant,
                                  RangeCode{range_, trace_programs_, trace_kernels_}, reader_));
}

void OpenClLoadedRange::select_variant(std::optional<std::size_t> index) {
  active_ = nullptr;
  if (!index) return;
  const auto it = variants_.find(*index);
  if (it == variants_.end())
    throw PlanError("variant " + std::to_string(*index) + " was not prepared");
  active_ = &it->second;
}

cl_event OpenClLoadedRange::enqueue_kernel(cl_command_queue q, const trace::KernelLaunch& launch,
                                           const std::vector<cl_event>& waits) {
  cl_kernel kernel = nullptr;
  const VariantCode::Sizes* sizes = nullptr;
  if (active_ != nullptr) {
    const auto k = active_->kernels.find(launch.kernel);
    if (k != active_->kernels.end()) kernel = k->second.get();
    const auto s = active_->sizes.find(launch.kernel);
    if (s != active_->sizes.end()) sizes = &s->second;
  }
  if (kernel == nullptr) {
    const auto it = kernels_.find(launch.kernel);
    if (it == kernels_.end())
      throw PlanError("kernel " + std::to_string(launch.kernel) + " is not loaded");
    kernel = it->second.get();
  }
  for (const auto& arg : launch.args) {
    cl_int err = CL_SUCCESS;
    switch (arg.kind) {
      case trace::ArgKind::Buffer: {
        if (arg.offset != 0) {
          throw PlanError(
              "a buffer argument with an offset is not an OpenCL argument; the trace "
              "was recorded for another API");
        }
        const cl_mem m = memory_.mem(arg.object);
        err = clSetKernelArg(kernel, arg.index, sizeof m, &m);
        break;
      }
      case trace::ArgKind::Bytes:
        err = clSetKernelArg(kernel, arg.index, arg.bytes.size(), arg.bytes.data());
        break;
      case trace::ArgKind::Local:
        err = clSetKernelArg(kernel, arg.index, arg.local_size, nullptr);
        break;
      case trace::ArgKind::Sampler: {
        const cl_sampler s = samplers_.at(arg.object).get();
        err = clSetKernelArg(kernel, arg.index, sizeof s, &s);
        break;
      }
      case trace::ArgKind::Pointer: {
        std::byte* base = arg.object != 0 ? memory_.pointer(arg.object) : nullptr;
        err = clSetKernelArgSVMPointer(kernel, arg.index,
                                       base != nullptr ? base + arg.offset : nullptr);
        break;
      }
      case trace::ArgKind::Null: {
        // A pointer to a NULL handle, not a null pointer: that is a NULL
        // buffer argument and also a zero 8-byte scalar, which a recorder
        // cannot tell apart without argument information.
        const cl_mem none = nullptr;
        err = clSetKernelArg(kernel, arg.index, sizeof none, &none);
        break;
      }
      case trace::ArgKind::Unset:
        break;
    }
    cl_check(err, "clSetKernelArg");
  }
  if (!launch.indirect.empty()) {
    std::vector<void*> pointers;
    for (const auto& arg : launch.indirect) {
      std::byte* base = memory_.pointer(arg.object);
      pointers.push_back(base + arg.offset);
    }
    cl_check(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                 pointers.size() * sizeof(void*), pointers.data()),
             "clSetKernelExecInfo");
  }
  std::vector<std::size_t> offset(launch.global_offset.begin(), launch.global_offset.end());
  const auto& global_size = sizes && sizes->global ? *sizes->global : launch.global_size;
  const auto& local_size = sizes && sizes->local ? *sizes->local : launch.local_size;
  std::vector<std::size_t> global(global_size.begin(), global_size.end());
  std::vector<std::size_t> local(local_size.begin(), local_size.end());
  cl_event event = nullptr;
  cl_check(clEnqueueNDRangeKernel(
               q, kernel, launch.work_dim, offset.empty() ? nullptr : offset.data(), global.data(),
               local.empty() ? nullptr : local.data(), static_cast<cl_uint>(waits.size()),
               waits.empty() ? nullptr : waits.data(), &event),
           "clEnqueueNDRangeKernel");
  return event;
}

std::vector<trace::CommandTiming> OpenClLoadedRange::timings() {
  std::vector<trace::CommandTiming> out;
  for (const auto& [seq, event] : pass_events_) {
    if (kernel_seqs_.count(seq) == 0) continue;
    trace::CommandTiming t;
    t.command_seq = seq;
    const std::pair<cl_profiling_info, std::uint64_t*> fields[] = {
        {CL_PROFILING_COMMAND_QUEUED, &t.queued_ns},
        {CL_PROFILING_COMMAND_SUBMIT, &t.submit_ns},
        {CL_PROFILING_COMMAND_START, &t.start_ns},
        {CL_PROFILING_COMMAND_END, &t.end_ns}};
    for (const auto& [what, target] : fields) {
      cl_ulong value = 0;
      cl_check(clGetEventProfilingInfo(event.get(), what, sizeof value, &value, nullptr),
               "clGetEventProfilingInfo");
      *target = value;
    }
    out.push_back(t);
  }
  return out;
}

std::vector<trace::KernelArgInfo> OpenClLoadedRange::learned_arg_info(trace::CaptureId kernel) {
  const auto k = trace_kernels_.find(kernel);
  if (k == trace_kernels_.end()) return {};
  const auto p = trace_programs_.find(k->second->program);
  if (p == trace_programs_.end()) return {};
  auto twin = arg_info_twins_.find(p->first);
  if (twin == arg_info_twins_.end()) {
    twin = arg_info_twins_
               .emplace(p->first, build_arg_info_twin(device_.context(), device_.device(),
                                                      *p->second, reader_))
               .first;
  }
  return kernel_arg_info(twin->second.get(), k->second->name);
}

void OpenClLoadedRange::read_buffer(trace::CaptureId buffer, std::uint64_t offset,
                                    std::span<std::byte> out) {
  memory_.read(buffer, offset, out);
}

}  // namespace msprof::replay::opencl
