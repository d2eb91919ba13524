// SVM commands name memory by pointer: each pointer becomes allocation +
// offset. A pointer into no SVM allocation is host memory.
#include <memory>
#include <optional>
#include <utility>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/enqueue_capture.h"

namespace msprof::record::opencl {
namespace {
using SvmFreeCallback = void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*);

// The program's callback, run with inside_svm_free_callback set.
struct SvmFreeCall {
  SvmFreeCallback callback;
  void* user_data;
};

void CL_CALLBACK run_svm_free_callback(cl_command_queue q, cl_uint n, void* ptrs[], void* data) {
  std::unique_ptr<SvmFreeCall> call(static_cast<SvmFreeCall*>(data));
  inside_svm_free_callback = true;
  call->callback(q, n, ptrs, call->user_data);
  inside_svm_free_callback = false;
}

cl_int CL_API_CALL layer_clEnqueueSVMFree(cl_command_queue q, cl_uint n, void* ptrs[],
                                          SvmFreeCallback fn, void* u, cl_uint nw,
                                          const cl_event* w, cl_event* e) {
  // The allocations outlive the range in replay: the free only orders. A
  // range's final state of them is read on the queue ahead of the free.
  if (CaptureSession* session = CaptureSession::get(); session != nullptr) {
    std::lock_guard lock(session->mutex());
    for (cl_uint i = 0; ptrs != nullptr && i < n; ++i) {
      try {
        ClRecorder::instance().memory_freed(
            MemoryKey::address(reinterpret_cast<std::uintptr_t>(ptrs[i])), q, nw, w);
      } catch (const std::exception& ex) {
        session->warn(std::string("recorder bookkeeping failed: ") + ex.what());
      }
    }
  }
  SvmFreeCall* call = fn != nullptr ? new SvmFreeCall{fn, u} : nullptr;
  const cl_int status = captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* ev) {
        return next().clEnqueueSVMFree(
            q, n, ptrs, call != nullptr ? run_svm_free_callback : nullptr, call, nw, w, ev);
      });
  if (status != CL_SUCCESS) delete call;  // never called
  return status;
}

cl_int CL_API_CALL layer_clEnqueueSVMMemcpy(cl_command_queue q, cl_bool b, void* d, const void* s,
                                            size_t n, cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        const auto src = r.memory_at(s), dst = r.memory_at(d);
        if (src) r.use_memory(c, q, src->key(), nw, w);
        if (dst) r.use_memory(c, q, dst->key(), nw, w);
        const bool blocking = b != CL_FALSE;
        if (src && dst) {
          return r.add_command(
              c, q, nw, w, blocking,
              trace::BufferCopy{
                  src->object->id(), dst->object->id(), src->offset, dst->offset, n, {}});
        }
        if (dst) {
          const std::size_t index = r.add_command(
              c, q, nw, w, blocking, trace::BufferWrite{dst->object->id(), dst->offset, n, {}, {}});
          c.command_data.emplace_back(
              index, CaptureSession::get()->snapshot_copy({static_cast<const std::byte*>(s), n}));
          return index;
        }
        if (src) {
          return r.add_command(c, q, nw, w, blocking,
                               trace::BufferRead{src->object->id(), src->offset, n, {}});
        }
        // Host to host through the queue: nothing of the device changes.
        return r.add_command(c, q, nw, w, blocking, trace::Marker{});
      },
      [&](cl_event* ev) { return next().clEnqueueSVMMemcpy(q, b, d, s, n, nw, w, ev); });
}

cl_int CL_API_CALL layer_clEnqueueSVMMemFill(cl_command_queue q, void* p, const void* pat,
                                             size_t ps, size_t n, cl_uint nw, const cl_event* w,
                                             cl_event* e) {
  return captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto at = r.memory_at(p);
        if (!at) {
          CaptureSession::get()->not_replayable(
              "clEnqueueSVMMemFill on a pointer into no SVM allocation (system SVM)");
          return std::nullopt;
        }
        r.use_memory(c, q, at->key(), nw, w);
        const auto* bytes = static_cast<const std::uint8_t*>(pat);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{
                at->object->id(), std::vector<std::uint8_t>(bytes, bytes + ps), at->offset, n, {}});
      },
      [&](cl_event* ev) { return next().clEnqueueSVMMemFill(q, p, pat, ps, n, nw, w, ev); });
}

cl_int CL_API_CALL layer_clEnqueueSVMMap(cl_command_queue q, cl_bool b, cl_map_flags f, void* p,
                                         size_t n, cl_uint nw, const cl_event* w, cl_event* e) {
  std::optional<std::uint64_t> seq;
  CaptureId range = 0;
  const cl_int status = captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto at = r.memory_at(p);
        if (!at) return r.add_command(c, q, nw, w, b != CL_FALSE, trace::Marker{});
        r.use_memory(c, q, at->key(), nw, w);
        const std::size_t index = r.add_command(
            c, q, nw, w, b != CL_FALSE, trace::BufferMap{at->object->id(), f, at->offset, n, {}});
        seq = index;
        range = c.range.id;
        return index;
      },
      [&](cl_event* ev) { return next().clEnqueueSVMMap(q, b, f, p, n, nw, w, ev); });
  if (status == CL_SUCCESS && CaptureSession::get() != nullptr) {
    record_objects([&](ClObjects& o) {
      if (const auto at = o.memory.find_address(reinterpret_cast<std::uintptr_t>(p))) {
        at->object->mappings()[p] =
            Mapping{f, at->offset, n, seq.value_or(0), range, std::nullopt, 0, 0};
      }
    });
  }
  return status;
}

cl_int CL_API_CALL layer_clEnqueueSVMUnmap(cl_command_queue q, void* p, cl_uint nw,
                                           const cl_event* w, cl_event* e) {
  const cl_int status = captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto at = r.memory_at(p);
        if (!at || !at->object->mappings().contains(p)) {
          return r.add_command(c, q, nw, w, false, trace::Marker{});
        }
        const Mapping mapping = at->object->mappings().at(p);
        at->object->mappings().erase(p);
        r.use_memory(c, q, at->key(), nw, w);
        return record_unmap(c, r, q, nw, w, at->object->id(), mapping, p);
      },
      [&](cl_event* ev) { return next().clEnqueueSVMUnmap(q, p, nw, w, ev); });
  // Outside a range the mapping is forgotten here (the lock is free again).
  if (status == CL_SUCCESS) {
    record_objects([&](ClObjects& o) {
      if (const auto at = o.memory.find_address(reinterpret_cast<std::uintptr_t>(p))) {
        at->object->mappings().erase(p);
      }
    });
  }
  return status;
}

cl_int CL_API_CALL layer_clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint n, const void** ptrs,
                                                const size_t* sizes, cl_mem_migration_flags flags,
                                                cl_uint nw, const cl_event* w, cl_event* e) {
  // Migration moves data but never changes it: a marker that keeps the
  // dependencies, as for clEnqueueMigrateMemObjects.
  return captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        for (cl_uint i = 0; ptrs != nullptr && i < n; ++i) {
          if (const auto at = r.memory_at(ptrs[i])) r.use_memory(c, q, at->key(), nw, w);
        }
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* ev) {
        return next().clEnqueueSVMMigrateMem(q, n, ptrs, sizes, flags, nw, w, ev);
      });
}

}  // namespace

void install_svm_enqueue_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueSVMFree = layer_clEnqueueSVMFree;
  t.clEnqueueSVMMemcpy = layer_clEnqueueSVMMemcpy;
  t.clEnqueueSVMMemFill = layer_clEnqueueSVMMemFill;
  t.clEnqueueSVMMap = layer_clEnqueueSVMMap;
  t.clEnqueueSVMUnmap = layer_clEnqueueSVMUnmap;
  t.clEnqueueSVMMigrateMem = layer_clEnqueueSVMMigrateMem;
}

}  // namespace msprof::record::opencl
