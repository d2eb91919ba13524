// Buffer commands: writes, reads, copies, fills (rectangular ones too),
// maps and unmaps, migrations.
#include <optional>
#include <utility>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/enqueue_capture.h"

namespace msprof::record::opencl {
namespace {

cl_int CL_API_CALL layer_clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking,
                                              size_t off, size_t size, const void* ptr, cl_uint nw,
                                              const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        const auto* bytes = static_cast<const std::byte*>(ptr);
        const std::size_t index =
            r.add_command(c, q, nw, w, blocking != CL_FALSE,
                          trace::BufferWrite{r.memory_id(b), off, size, {}, {}});
        c.command_data.emplace_back(index, CaptureSession::get()->snapshot_copy({bytes, size}));
        return index;
      },
      [&](cl_event* e) {
        return next().clEnqueueWriteBuffer(q, b, blocking, off, size, ptr, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                  const size_t* bo, const size_t* ho,
                                                  const size_t* region, size_t brp, size_t bsp,
                                                  size_t hrp, size_t hsp, const void* ptr,
                                                  cl_uint nw, const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        // The data is stored packed, so the host origin becomes 0 and the
        // host pitches those of the packed region.
        const size_t zero[3] = {0, 0, 0};
        trace::BufferWrite write{
            r.memory_id(b),
            0,
            region[0] * region[1] * region[2],
            {},
            make_rect(bo, zero, region, brp, bsp, region[0], region[0] * region[1])};
        const std::size_t index =
            r.add_command(c, q, nw, w, blocking != CL_FALSE, std::move(write));
        c.command_data.emplace_back(
            index, CaptureSession::get()->snapshot(pack_rect(ptr, ho, region, hrp, hsp)));
        return index;
      },
      [&](cl_event* e) {
        return next().clEnqueueWriteBufferRect(q, b, blocking, bo, ho, region, brp, bsp, hrp, hsp,
                                               ptr, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking,
                                             size_t off, size_t size, void* ptr, cl_uint nw,
                                             const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        return r.add_command(c, q, nw, w, blocking != CL_FALSE,
                             trace::BufferRead{r.memory_id(b), off, size, {}});
      },
      [&](cl_event* e) {
        return next().clEnqueueReadBuffer(q, b, blocking, off, size, ptr, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueReadBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                 const size_t* bo, const size_t* ho,
                                                 const size_t* region, size_t brp, size_t bsp,
                                                 size_t hrp, size_t hsp, void* ptr, cl_uint nw,
                                                 const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        trace::BufferRead read{r.memory_id(b), 0, region[0] * region[1] * region[2],
                               make_rect(bo, ho, region, brp, bsp, hrp, hsp)};
        return r.add_command(c, q, nw, w, blocking != CL_FALSE, std::move(read));
      },
      [&](cl_event* e) {
        return next().clEnqueueReadBufferRect(q, b, blocking, bo, ho, region, brp, bsp, hrp, hsp,
                                              ptr, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t so,
                                             size_t d_o, size_t size, cl_uint nw, const cl_event* w,
                                             cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, src, nw, w);
        r.use_memory(c, q, dst, nw, w);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferCopy{r.memory_id(src), r.memory_id(dst), so, d_o, size, {}});
      },
      [&](cl_event* e) {
        return next().clEnqueueCopyBuffer(q, src, dst, so, d_o, size, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                                 const size_t* so, const size_t* d_o,
                                                 const size_t* region, size_t srp, size_t ssp,
                                                 size_t drp, size_t dsp, cl_uint nw,
                                                 const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, src, nw, w);
        r.use_memory(c, q, dst, nw, w);
        trace::BufferCopy copy{r.memory_id(src),
                               r.memory_id(dst),
                               0,
                               0,
                               region[0] * region[1] * region[2],
                               make_rect(so, d_o, region, srp, ssp, drp, dsp)};
        return r.add_command(c, q, nw, w, false, std::move(copy));
      },
      [&](cl_event* e) {
        return next().clEnqueueCopyBufferRect(q, src, dst, so, d_o, region, srp, ssp, drp, dsp, nw,
                                              w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void* pattern,
                                             size_t psize, size_t off, size_t size, cl_uint nw,
                                             const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        const auto* p = static_cast<const std::uint8_t*>(pattern);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{
                r.memory_id(b), std::vector<std::uint8_t>(p, p + psize), off, size, {}});
      },
      [&](cl_event* e) {
        return next().clEnqueueFillBuffer(q, b, pattern, psize, off, size, nw, w, e);
      });
}

void* CL_API_CALL layer_clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool blocking,
                                           cl_map_flags flags, size_t off, size_t size, cl_uint nw,
                                           const cl_event* w, cl_event* ev, cl_int* err) {
  void* mapped = nullptr;
  std::optional<std::uint64_t> seq;
  CaptureId range = 0;
  const cl_int status = captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, b, nw, w);
        const std::size_t index =
            r.add_command(c, q, nw, w, blocking != CL_FALSE,
                          trace::BufferMap{r.memory_id(b), flags, off, size, {}});
        seq = index;
        range = c.range.id;
        return index;
      },
      [&](cl_event* e) {
        cl_int s = CL_SUCCESS;
        mapped = next().clEnqueueMapBuffer(q, b, blocking, flags, off, size, nw, w, e, &s);
        return s;
      });
  if (err != nullptr) *err = status;
  if (mapped != nullptr && CaptureSession::get() != nullptr) {
    record_objects([&](ClObjects& o) {
      if (ClMemory* memory = o.memory.find(key_of(b))) {
        memory->mappings()[mapped] =
            Mapping{flags, off, size, seq.value_or(0), range, std::nullopt, 0, 0};
      }
    });
  }
  return mapped;
}

cl_int CL_API_CALL layer_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* ptr,
                                                 cl_uint nw, const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        // The mapping is the object's. Memory the recorder never saw has
        // none, and the range cannot replay without it.
        ClMemory* memory = r.memory().find(key_of(m));
        if (memory == nullptr) {
          r.use_memory(c, q, m, nw, w);
          return std::nullopt;
        }
        const auto it = memory->mappings().find(ptr);
        if (it == memory->mappings().end()) return std::nullopt;
        const Mapping mapping = it->second;
        memory->mappings().erase(it);
        r.use_memory(c, q, m, nw, w);
        return record_unmap(c, r, q, nw, w, r.memory_id(m), mapping, ptr);
      },
      [&](cl_event* e) { return next().clEnqueueUnmapMemObject(q, m, ptr, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n,
                                                    const cl_mem* mems,
                                                    cl_mem_migration_flags flags, cl_uint nw,
                                                    const cl_event* w, cl_event* ev) {
  // Migration moves data but never changes it: replayed as a marker that
  // keeps the dependencies.
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        for (cl_uint i = 0; i < n; ++i) r.use_memory(c, q, mems[i], nw, w);
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMigrateMemObjects(q, n, mems, flags, nw, w, e); });
}

}  // namespace

void install_buffer_enqueue_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueWriteBuffer = layer_clEnqueueWriteBuffer;
  t.clEnqueueWriteBufferRect = layer_clEnqueueWriteBufferRect;
  t.clEnqueueReadBuffer = layer_clEnqueueReadBuffer;
  t.clEnqueueReadBufferRect = layer_clEnqueueReadBufferRect;
  t.clEnqueueCopyBuffer = layer_clEnqueueCopyBuffer;
  t.clEnqueueCopyBufferRect = layer_clEnqueueCopyBufferRect;
  t.clEnqueueFillBuffer = layer_clEnqueueFillBuffer;
  t.clEnqueueMapBuffer = layer_clEnqueueMapBuffer;
  t.clEnqueueUnmapMemObject = layer_clEnqueueUnmapMemObject;
  t.clEnqueueMigrateMemObjects = layer_clEnqueueMigrateMemObjects;
}

}  // namespace msprof::record::opencl
