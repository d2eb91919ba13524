// Enqueues and host waits: passed straight through outside a captured range;
// inside one, recorded as commands after snapshotting the buffers they touch.
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_image.h"
#include "recorder/opencl/cl_intercepts.h"

namespace msprof::record::opencl {
namespace {

using trace::CommandBody;

std::vector<std::uint64_t> dims(cl_uint n, const size_t* v) {
  return v == nullptr ? std::vector<std::uint64_t>() : std::vector<std::uint64_t>(v, v + n);
}

// The common shape of an intercepted enqueue. `prepare` runs under the lock
// before the real call (snapshots, the command); `call` is the real call,
// given the event pointer to pass down.
template <typename Prepare, typename Call>
cl_int captured(cl_command_queue queue, cl_uint num_wait, const cl_event* wait, cl_event* event,
                Prepare&& prepare, Call&& call) {
  CaptureSession* session = CaptureSession::get();
  if (session == nullptr || !session->capturing()) return call(event);
  std::unique_lock lock(session->mutex());
  RangeCapture* capture = session->current();
  if (capture == nullptr) {
    lock.unlock();
    return call(event);
  }
  ClRecorder& recorder = ClRecorder::instance();
  std::optional<std::size_t> index;
  {
    CaptureTimer timer(*session);
    try {
      recorder.use_queue(*capture, queue);
      index = prepare(*capture, recorder);
    } catch (const std::exception& e) {
      session->not_replayable(std::string("recorder: ") + e.what());
    }
  }
  cl_event own = nullptr;
  const cl_int status = call(event != nullptr ? event : &own);
  CaptureTimer timer(*session);
  recorder.after_enqueue(*capture, index, status, event, own);
  (void)num_wait;
  (void)wait;
  return status;
}

// A call that cannot be replayed yet: the range is marked, the program goes on.
template <typename Call>
auto unreplayable(const char* name, Call&& call) {
  CaptureSession* session = CaptureSession::get();
  if (session != nullptr && session->capturing()) {
    std::lock_guard lock(session->mutex());
    session->not_replayable(name);
  }
  return call();
}

cl_int CL_API_CALL layer_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                const size_t* off, const size_t* gws,
                                                const size_t* lws, cl_uint nw, const cl_event* w,
                                                cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_kernel(c, q, k, nw, w);
        const KernelInfo& info = r.objects().kernels.at(k);
        trace::KernelLaunch launch{info.id,        dim,       dims(dim, off), dims(dim, gws),
                                   dims(dim, lws), info.args, info.indirect};
        return r.add_command(c, q, nw, w, false, std::move(launch));
      },
      [&](cl_event* e) {
        return next().clEnqueueNDRangeKernel(q, k, dim, off, gws, lws, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw,
                                       const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_kernel(c, q, k, nw, w);
        const KernelInfo& info = r.objects().kernels.at(k);
        trace::KernelLaunch launch{info.id, 1, {0}, {1}, {1}, info.args, info.indirect};
        return r.add_command(c, q, nw, w, false, std::move(launch));
      },
      [&](cl_event* e) { return next().clEnqueueTask(q, k, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking,
                                              size_t off, size_t size, const void* ptr, cl_uint nw,
                                              const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        const auto* bytes = static_cast<const std::byte*>(ptr);
        const std::size_t index =
            r.add_command(c, q, nw, w, blocking != CL_FALSE,
                          trace::BufferWrite{r.buffer_id(b), off, size, {}, {}});
        c.command_data.emplace_back(index, CaptureSession::get()->snapshot_copy({bytes, size}));
        return index;
      },
      [&](cl_event* e) {
        return next().clEnqueueWriteBuffer(q, b, blocking, off, size, ptr, nw, w, e);
      });
}

// Host bytes of a rectangular transfer, packed into a snapshot buffer (a
// recycled one, as snapshot_copy takes): the region's rows, in order.
std::vector<std::byte> pack_rect(const void* ptr, const size_t* host_origin, const size_t* region,
                                 size_t row_pitch, size_t slice_pitch) {
  if (row_pitch == 0) row_pitch = region[0];
  if (slice_pitch == 0) slice_pitch = row_pitch * region[1];
  std::vector<std::byte> out =
      CaptureSession::get()->snapshot_buffer(region[0] * region[1] * region[2]);
  const auto* base = static_cast<const std::byte*>(ptr);
  std::byte* at = out.data();
  for (size_t z = 0; z < region[2] && region[0] > 0; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      const std::byte* row = base + (host_origin[2] + z) * slice_pitch +
                             (host_origin[1] + y) * row_pitch + host_origin[0];
      std::memcpy(at, row, region[0]);
      at += region[0];
    }
  }
  return out;
}

trace::Rect make_rect(const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                      size_t brp, size_t bsp, size_t hrp, size_t hsp) {
  trace::Rect rect{
      dims(3, buffer_origin), dims(3, host_origin), dims(3, region), brp, bsp, hrp, hsp};
  return rect;
}

cl_int CL_API_CALL layer_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                  const size_t* bo, const size_t* ho,
                                                  const size_t* region, size_t brp, size_t bsp,
                                                  size_t hrp, size_t hsp, const void* ptr,
                                                  cl_uint nw, const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        // The data is stored packed, so the host origin becomes 0 and the
        // host pitches those of the packed region.
        const size_t zero[3] = {0, 0, 0};
        trace::BufferWrite write{
            r.buffer_id(b),
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        return r.add_command(c, q, nw, w, blocking != CL_FALSE,
                             trace::BufferRead{r.buffer_id(b), off, size, {}});
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        trace::BufferRead read{r.buffer_id(b), 0, region[0] * region[1] * region[2],
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, src, nw, w);
        r.use_buffer(c, q, dst, nw, w);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferCopy{r.buffer_id(src), r.buffer_id(dst), so, d_o, size, {}});
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, src, nw, w);
        r.use_buffer(c, q, dst, nw, w);
        trace::BufferCopy copy{r.buffer_id(src),
                               r.buffer_id(dst),
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        const auto* p = static_cast<const std::uint8_t*>(pattern);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{
                r.buffer_id(b), std::vector<std::uint8_t>(p, p + psize), off, size, {}});
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
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, b, nw, w);
        const std::size_t index =
            r.add_command(c, q, nw, w, blocking != CL_FALSE,
                          trace::BufferMap{r.buffer_id(b), flags, off, size, {}});
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
    record_objects([&](ClObjects&) {
      ClRecorder::instance().mappings()[mapped] =
          Mapping{b, flags, off, size, seq.value_or(0), range, 0, std::nullopt, 0, 0};
    });
  }
  return mapped;
}

cl_int CL_API_CALL layer_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* ptr,
                                                 cl_uint nw, const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto it = r.mappings().find(ptr);
        if (it == r.mappings().end()) return std::nullopt;
        const Mapping mapping = it->second;
        r.mappings().erase(it);
        r.use_buffer(c, q, m, nw, w);
        const bool mapped_here = mapping.range != 0 && mapping.range == c.range.id;
        trace::BufferUnmap unmap{r.buffer_id(m),
                                 mapped_here ? mapping.seq : trace::kMappedBeforeRange,
                                 mapping.offset,
                                 0,
                                 {},
                                 mapping.rect};
        const bool wrote = (mapping.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
        if (wrote) unmap.size = mapping.size;
        const std::size_t index = r.add_command(c, q, nw, w, false, std::move(unmap));
        if (wrote && mapping.rect) {
          // The host wrote the image's region at the driver's pitches.
          const size_t zero[3] = {0, 0, 0};
          const size_t region[3] = {mapping.rect->region[0], mapping.rect->region[1],
                                    mapping.rect->region[2]};
          c.command_data.emplace_back(
              index, CaptureSession::get()->snapshot(
                         pack_rect(ptr, zero, region, mapping.row_step, mapping.slice_step)));
        } else if (wrote) {
          const auto* bytes = static_cast<const std::byte*>(ptr);
          c.command_data.emplace_back(index,
                                      CaptureSession::get()->snapshot_copy({bytes, mapping.size}));
        }
        return index;
      },
      [&](cl_event* e) { return next().clEnqueueUnmapMemObject(q, m, ptr, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw,
                                                     const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMarkerWithWaitList(q, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nw,
                                                      const cl_event* w, cl_event* ev) {
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, nw, w, false, trace::Barrier{});
      },
      [&](cl_event* e) { return next().clEnqueueBarrierWithWaitList(q, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueMarker(cl_command_queue q, cl_event* ev) {
  return captured(
      q, 0, nullptr, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, 0, nullptr, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMarker(q, e); });
}

cl_int CL_API_CALL layer_clEnqueueBarrier(cl_command_queue q) {
  cl_event* none = nullptr;
  return captured(
      q, 0, nullptr, none,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, 0, nullptr, false, trace::Barrier{});
      },
      [&](cl_event*) { return next().clEnqueueBarrier(q); });
}

cl_int CL_API_CALL layer_clEnqueueWaitForEvents(cl_command_queue q, cl_uint n,
                                                const cl_event* events) {
  cl_event* none = nullptr;
  return captured(
      q, n, events, none,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, n, events, false, trace::Barrier{});
      },
      [&](cl_event*) { return next().clEnqueueWaitForEvents(q, n, events); });
}

cl_int CL_API_CALL layer_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n,
                                                    const cl_mem* mems,
                                                    cl_mem_migration_flags flags, cl_uint nw,
                                                    const cl_event* w, cl_event* ev) {
  // Migration moves data but never changes it: replayed as a marker that
  // keeps the dependencies.
  return captured(
      q, nw, w, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        for (cl_uint i = 0; i < n; ++i) r.use_buffer(c, q, mems[i], nw, w);
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMigrateMemObjects(q, n, mems, flags, nw, w, e); });
}

// Host waits inside a range are recorded, so replay knows where the program
// synchronised; outside a range they pass straight through.
void record_host_wait(std::vector<trace::CaptureId> (*ids)(cl_uint, const cl_event*), cl_uint n,
                      const cl_event* events) {
  CaptureSession* session = CaptureSession::get();
  if (session == nullptr || !session->capturing()) return;
  std::lock_guard lock(session->mutex());
  RangeCapture* capture = session->current();
  if (capture == nullptr) return;
  try {
    ClRecorder::instance().add_command(*capture, nullptr, 0, nullptr, true,
                                       trace::HostWait{ids(n, events)});
  } catch (const std::exception& e) {
    session->not_replayable(std::string("recorder: ") + e.what());
  }
}

std::vector<trace::CaptureId> event_ids(cl_uint n, const cl_event* events) {
  return ClRecorder::instance().wait_ids(n, events);
}

cl_int CL_API_CALL layer_clFinish(cl_command_queue q) {
  record_host_wait([](cl_uint, const cl_event*) { return std::vector<trace::CaptureId>(); }, 0,
                   nullptr);
  return next().clFinish(q);
}

cl_int CL_API_CALL layer_clWaitForEvents(cl_uint n, const cl_event* events) {
  record_host_wait(event_ids, n, events);
  return next().clWaitForEvents(n, events);
}

// Image commands are buffer commands with a rect whose x is in bytes
// (pixels times the pixel size); their host data is packed.
const trace::ImageDesc& image_of(ClRecorder& r, cl_mem image) {
  const auto it = r.objects().buffers.find(image);
  if (it == r.objects().buffers.end() || !it->second.image) {
    throw std::runtime_error("an image created before the recorder was loaded");
  }
  return *it->second.image;
}

cl_int CL_API_CALL layer_clEnqueueReadImage(cl_command_queue q, cl_mem i, cl_bool b,
                                            const size_t* o, const size_t* rg, size_t rp, size_t sp,
                                            void* p, cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        return r.add_command(c, q, nw, w, b != CL_FALSE,
                             trace::BufferRead{r.buffer_id(i), 0, region_bytes(image, rg),
                                               image_rect(image, o, rg)});
      },
      [&](cl_event* ev) {
        return next().clEnqueueReadImage(q, i, b, o, rg, rp, sp, p, nw, w, ev);
      });
}

cl_int CL_API_CALL layer_clEnqueueWriteImage(cl_command_queue q, cl_mem i, cl_bool b,
                                             const size_t* o, const size_t* rg, size_t rp,
                                             size_t sp, const void* p, cl_uint nw,
                                             const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        const std::size_t index = r.add_command(
            c, q, nw, w, b != CL_FALSE,
            trace::BufferWrite{
                r.buffer_id(i), 0, region_bytes(image, rg), {}, image_rect(image, o, rg)});
        const HostLayout layout = host_layout(image, rg, rp, sp);
        const size_t zero[3] = {0, 0, 0};
        const size_t bytes[3] = {rg[0] * image.pixel_size, rg[1], rg[2]};
        c.command_data.emplace_back(
            index, CaptureSession::get()->snapshot(
                       pack_rect(p, zero, bytes, layout.row_step, layout.slice_step)));
        return index;
      },
      [&](cl_event* ev) {
        return next().clEnqueueWriteImage(q, i, b, o, rg, rp, sp, p, nw, w, ev);
      });
}

cl_int CL_API_CALL layer_clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d,
                                            const size_t* so, const size_t* d_o, const size_t* rg,
                                            cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, s, nw, w);
        r.use_buffer(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, s);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferCopy{r.buffer_id(s), r.buffer_id(d), 0, 0, region_bytes(image, rg),
                              image_rect(image, so, rg, d_o)});
      },
      [&](cl_event* ev) { return next().clEnqueueCopyImage(q, s, d, so, d_o, rg, nw, w, ev); });
}

cl_int CL_API_CALL layer_clEnqueueFillImage(cl_command_queue q, cl_mem i, const void* color,
                                            const size_t* o, const size_t* rg, cl_uint nw,
                                            const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        // float4, int4 or uint4, by the image's channel type: 16 bytes.
        const auto* bytes = static_cast<const std::uint8_t*>(color);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{r.buffer_id(i), std::vector<std::uint8_t>(bytes, bytes + 16), 0,
                              region_bytes(image, rg), image_rect(image, o, rg)});
      },
      [&](cl_event* ev) { return next().clEnqueueFillImage(q, i, color, o, rg, nw, w, ev); });
}

// The buffer side of an image-buffer copy is linear at its offset: the
// rect's other origin is 0 and its pitches the packed region's.
cl_int CL_API_CALL layer_clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s, cl_mem d,
                                                    const size_t* o, const size_t* rg, size_t off,
                                                    cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, s, nw, w);
        r.use_buffer(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, s);
        return r.add_command(c, q, nw, w, false,
                             trace::BufferCopy{r.buffer_id(s), r.buffer_id(d), 0, off,
                                               region_bytes(image, rg), image_rect(image, o, rg)});
      },
      [&](cl_event* ev) {
        return next().clEnqueueCopyImageToBuffer(q, s, d, o, rg, off, nw, w, ev);
      });
}

cl_int CL_API_CALL layer_clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s, cl_mem d,
                                                    size_t off, const size_t* o, const size_t* rg,
                                                    cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, s, nw, w);
        r.use_buffer(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, d);
        const size_t zero[3] = {0, 0, 0};
        trace::Rect rect = image_rect(image, zero, rg, o);
        return r.add_command(c, q, nw, w, false,
                             trace::BufferCopy{r.buffer_id(s), r.buffer_id(d), off, 0,
                                               region_bytes(image, rg), std::move(rect)});
      },
      [&](cl_event* ev) {
        return next().clEnqueueCopyBufferToImage(q, s, d, off, o, rg, nw, w, ev);
      });
}

void* CL_API_CALL layer_clEnqueueMapImage(cl_command_queue q, cl_mem i, cl_bool b, cl_map_flags f,
                                          const size_t* o, const size_t* rg, size_t* rp, size_t* sp,
                                          cl_uint nw, const cl_event* w, cl_event* e, cl_int* err) {
  void* mapped = nullptr;
  std::optional<std::uint64_t> seq;
  CaptureId range = 0;
  size_t row_pitch = 0, slice_pitch = 0;
  const cl_int status = captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_buffer(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        const std::size_t index =
            r.add_command(c, q, nw, w, b != CL_FALSE,
                          trace::BufferMap{r.buffer_id(i), f, 0, region_bytes(image, rg),
                                           image_rect(image, o, rg)});
        seq = index;
        range = c.range.id;
        return index;
      },
      [&](cl_event* ev) {
        cl_int s = CL_SUCCESS;
        mapped =
            next().clEnqueueMapImage(q, i, b, f, o, rg, &row_pitch, &slice_pitch, nw, w, ev, &s);
        return s;
      });
  if (rp != nullptr) *rp = row_pitch;
  if (sp != nullptr) *sp = slice_pitch;
  if (err != nullptr) *err = status;
  if (mapped != nullptr && CaptureSession::get() != nullptr) {
    record_objects([&](ClObjects& objects) {
      const auto it = objects.buffers.find(i);
      if (it == objects.buffers.end() || !it->second.image) return;
      const trace::ImageDesc& image = *it->second.image;
      const HostLayout layout = host_layout(image, rg, row_pitch, slice_pitch);
      Mapping mapping{i, f, 0, region_bytes(image, rg), seq.value_or(0), range, 0, std::nullopt,
                      0, 0};
      mapping.rect = image_rect(image, o, rg);
      mapping.row_step = layout.row_step;
      mapping.slice_step = layout.slice_step;
      ClRecorder::instance().mappings()[mapped] = std::move(mapping);
    });
  }
  return mapped;
}

cl_int CL_API_CALL layer_clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK* fn)(void*),
                                               void* args, size_t n, cl_uint nm, const cl_mem* mems,
                                               const void** locs, cl_uint nw, const cl_event* w,
                                               cl_event* e) {
  return unreplayable("clEnqueueNativeKernel", [&] {
    return next().clEnqueueNativeKernel(q, fn, args, n, nm, mems, locs, nw, w, e);
  });
}
// SVM commands name memory by pointer: each pointer becomes allocation +
// offset. A pointer into no SVM allocation is host memory.
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
        ClRecorder::instance().svm_freed(reinterpret_cast<std::uintptr_t>(ptrs[i]), q, nw, w);
      } catch (const std::exception& ex) {
        session->warn(std::string("recorder bookkeeping failed: ") + ex.what());
      }
    }
  }
  SvmFreeCall* call = fn != nullptr ? new SvmFreeCall{fn, u} : nullptr;
  const cl_int status = captured(
      q, nw, w, e,
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
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        const auto src = r.svm_at(s), dst = r.svm_at(d);
        if (src) r.use_svm(c, q, src->base, nw, w);
        if (dst) r.use_svm(c, q, dst->base, nw, w);
        const bool blocking = b != CL_FALSE;
        if (src && dst) {
          return r.add_command(
              c, q, nw, w, blocking,
              trace::BufferCopy{src->info->id, dst->info->id, src->offset, dst->offset, n, {}});
        }
        if (dst) {
          const std::size_t index = r.add_command(
              c, q, nw, w, blocking, trace::BufferWrite{dst->info->id, dst->offset, n, {}, {}});
          c.command_data.emplace_back(
              index, CaptureSession::get()->snapshot_copy({static_cast<const std::byte*>(s), n}));
          return index;
        }
        if (src) {
          return r.add_command(c, q, nw, w, blocking,
                               trace::BufferRead{src->info->id, src->offset, n, {}});
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
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto at = r.svm_at(p);
        if (!at) {
          CaptureSession::get()->not_replayable(
              "clEnqueueSVMMemFill on a pointer into no SVM allocation (system SVM)");
          return std::nullopt;
        }
        r.use_svm(c, q, at->base, nw, w);
        const auto* bytes = static_cast<const std::uint8_t*>(pat);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{
                at->info->id, std::vector<std::uint8_t>(bytes, bytes + ps), at->offset, n, {}});
      },
      [&](cl_event* ev) { return next().clEnqueueSVMMemFill(q, p, pat, ps, n, nw, w, ev); });
}

cl_int CL_API_CALL layer_clEnqueueSVMMap(cl_command_queue q, cl_bool b, cl_map_flags f, void* p,
                                         size_t n, cl_uint nw, const cl_event* w, cl_event* e) {
  std::optional<std::uint64_t> seq;
  CaptureId range = 0;
  const cl_int status = captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto at = r.svm_at(p);
        if (!at) return r.add_command(c, q, nw, w, b != CL_FALSE, trace::Marker{});
        r.use_svm(c, q, at->base, nw, w);
        const std::size_t index = r.add_command(
            c, q, nw, w, b != CL_FALSE, trace::BufferMap{at->info->id, f, at->offset, n, {}});
        seq = index;
        range = c.range.id;
        return index;
      },
      [&](cl_event* ev) { return next().clEnqueueSVMMap(q, b, f, p, n, nw, w, ev); });
  if (status == CL_SUCCESS && CaptureSession::get() != nullptr) {
    record_objects([&](ClObjects& o) {
      if (const auto at = o.svm.find(reinterpret_cast<std::uintptr_t>(p))) {
        ClRecorder::instance().svm_mappings()[p] = Mapping{
            nullptr, f, at->offset, n, seq.value_or(0), range, at->base, std::nullopt, 0, 0};
      }
    });
  }
  return status;
}

cl_int CL_API_CALL layer_clEnqueueSVMUnmap(cl_command_queue q, void* p, cl_uint nw,
                                           const cl_event* w, cl_event* e) {
  const cl_int status = captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) -> std::optional<std::size_t> {
        const auto it = r.svm_mappings().find(p);
        const auto at = r.svm_at(p);
        if (it == r.svm_mappings().end() || !at) {
          return r.add_command(c, q, nw, w, false, trace::Marker{});
        }
        const Mapping mapping = it->second;
        r.svm_mappings().erase(it);
        r.use_svm(c, q, mapping.svm_base, nw, w);
        const bool mapped_here = mapping.range != 0 && mapping.range == c.range.id;
        trace::BufferUnmap unmap{at->info->id,
                                 mapped_here ? mapping.seq : trace::kMappedBeforeRange,
                                 mapping.offset,
                                 0,
                                 {},
                                 {}};
        const bool wrote = (mapping.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
        if (wrote) unmap.size = mapping.size;
        const std::size_t index = r.add_command(c, q, nw, w, false, std::move(unmap));
        if (wrote) {
          c.command_data.emplace_back(index, CaptureSession::get()->snapshot_copy(
                                                 {static_cast<const std::byte*>(p), mapping.size}));
        }
        return index;
      },
      [&](cl_event* ev) { return next().clEnqueueSVMUnmap(q, p, nw, w, ev); });
  // Outside a range the mapping is forgotten here (the lock is free again).
  if (status == CL_SUCCESS) {
    record_objects([&](ClObjects&) { ClRecorder::instance().svm_mappings().erase(p); });
  }
  return status;
}

cl_int CL_API_CALL layer_clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint n, const void** ptrs,
                                                const size_t* sizes, cl_mem_migration_flags flags,
                                                cl_uint nw, const cl_event* w, cl_event* e) {
  // Migration moves data but never changes it: a marker that keeps the
  // dependencies, as for clEnqueueMigrateMemObjects.
  return captured(
      q, nw, w, e,
      [&](RangeCapture& c, ClRecorder& r) {
        for (cl_uint i = 0; ptrs != nullptr && i < n; ++i) {
          if (const auto at = r.svm_at(ptrs[i])) r.use_svm(c, q, at->base, nw, w);
        }
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* ev) {
        return next().clEnqueueSVMMigrateMem(q, n, ptrs, sizes, flags, nw, w, ev);
      });
}

}  // namespace

void install_enqueue_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueNDRangeKernel = layer_clEnqueueNDRangeKernel;
  t.clEnqueueTask = layer_clEnqueueTask;
  t.clEnqueueWriteBuffer = layer_clEnqueueWriteBuffer;
  t.clEnqueueWriteBufferRect = layer_clEnqueueWriteBufferRect;
  t.clEnqueueReadBuffer = layer_clEnqueueReadBuffer;
  t.clEnqueueReadBufferRect = layer_clEnqueueReadBufferRect;
  t.clEnqueueCopyBuffer = layer_clEnqueueCopyBuffer;
  t.clEnqueueCopyBufferRect = layer_clEnqueueCopyBufferRect;
  t.clEnqueueFillBuffer = layer_clEnqueueFillBuffer;
  t.clEnqueueMapBuffer = layer_clEnqueueMapBuffer;
  t.clEnqueueUnmapMemObject = layer_clEnqueueUnmapMemObject;
  t.clEnqueueMarkerWithWaitList = layer_clEnqueueMarkerWithWaitList;
  t.clEnqueueBarrierWithWaitList = layer_clEnqueueBarrierWithWaitList;
  t.clEnqueueMarker = layer_clEnqueueMarker;
  t.clEnqueueBarrier = layer_clEnqueueBarrier;
  t.clEnqueueWaitForEvents = layer_clEnqueueWaitForEvents;
  t.clEnqueueMigrateMemObjects = layer_clEnqueueMigrateMemObjects;
  t.clFinish = layer_clFinish;
  t.clWaitForEvents = layer_clWaitForEvents;
  t.clEnqueueReadImage = layer_clEnqueueReadImage;
  t.clEnqueueWriteImage = layer_clEnqueueWriteImage;
  t.clEnqueueCopyImage = layer_clEnqueueCopyImage;
  t.clEnqueueFillImage = layer_clEnqueueFillImage;
  t.clEnqueueCopyImageToBuffer = layer_clEnqueueCopyImageToBuffer;
  t.clEnqueueCopyBufferToImage = layer_clEnqueueCopyBufferToImage;
  t.clEnqueueMapImage = layer_clEnqueueMapImage;
  t.clEnqueueNativeKernel = layer_clEnqueueNativeKernel;
  t.clEnqueueSVMFree = layer_clEnqueueSVMFree;
  t.clEnqueueSVMMemcpy = layer_clEnqueueSVMMemcpy;
  t.clEnqueueSVMMemFill = layer_clEnqueueSVMMemFill;
  t.clEnqueueSVMMap = layer_clEnqueueSVMMap;
  t.clEnqueueSVMUnmap = layer_clEnqueueSVMUnmap;
  t.clEnqueueSVMMigrateMem = layer_clEnqueueSVMMigrateMem;
}

}  // namespace msprof::record::opencl
