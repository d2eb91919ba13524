// Image commands are buffer commands with a rect whose x is in bytes
// (pixels times the pixel size); their host data is packed.
#include <optional>
#include <stdexcept>
#include <utility>

#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_image_layout.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/enqueue_capture.h"

namespace msprof::record::opencl {
namespace {

// Image commands are buffer commands with a rect whose x is in bytes
// (pixels times the pixel size); their host data is packed.
const trace::ImageDesc& image_of(ClRecorder& r, cl_mem image) {
  const ClMemory* memory = r.memory().find(key_of(image));
  if (memory == nullptr || memory->image() == nullptr) {
    throw std::runtime_error("an image created before the recorder was loaded");
  }
  return *memory->image();
}

cl_int CL_API_CALL layer_clEnqueueReadImage(cl_command_queue q, cl_mem i, cl_bool b,
                                            const size_t* o, const size_t* rg, size_t rp, size_t sp,
                                            void* p, cl_uint nw, const cl_event* w, cl_event* e) {
  return captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        return r.add_command(c, q, nw, w, b != CL_FALSE,
                             trace::BufferRead{r.memory_id(i), 0, region_bytes(image, rg),
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
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        const std::size_t index = r.add_command(
            c, q, nw, w, b != CL_FALSE,
            trace::BufferWrite{
                r.memory_id(i), 0, region_bytes(image, rg), {}, image_rect(image, o, rg)});
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
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, s, nw, w);
        r.use_memory(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, s);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferCopy{r.memory_id(s), r.memory_id(d), 0, 0, region_bytes(image, rg),
                              image_rect(image, so, rg, d_o)});
      },
      [&](cl_event* ev) { return next().clEnqueueCopyImage(q, s, d, so, d_o, rg, nw, w, ev); });
}

cl_int CL_API_CALL layer_clEnqueueFillImage(cl_command_queue q, cl_mem i, const void* color,
                                            const size_t* o, const size_t* rg, cl_uint nw,
                                            const cl_event* w, cl_event* e) {
  return captured(
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        // float4, int4 or uint4, by the image's channel type: 16 bytes.
        const auto* bytes = static_cast<const std::uint8_t*>(color);
        return r.add_command(
            c, q, nw, w, false,
            trace::BufferFill{r.memory_id(i), std::vector<std::uint8_t>(bytes, bytes + 16), 0,
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
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, s, nw, w);
        r.use_memory(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, s);
        return r.add_command(c, q, nw, w, false,
                             trace::BufferCopy{r.memory_id(s), r.memory_id(d), 0, off,
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
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, s, nw, w);
        r.use_memory(c, q, d, nw, w);
        const trace::ImageDesc& image = image_of(r, d);
        const size_t zero[3] = {0, 0, 0};
        trace::Rect rect = image_rect(image, zero, rg, o);
        return r.add_command(c, q, nw, w, false,
                             trace::BufferCopy{r.memory_id(s), r.memory_id(d), off, 0,
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
      q, e,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_memory(c, q, i, nw, w);
        const trace::ImageDesc& image = image_of(r, i);
        const std::size_t index =
            r.add_command(c, q, nw, w, b != CL_FALSE,
                          trace::BufferMap{r.memory_id(i), f, 0, region_bytes(image, rg),
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
      ClMemory* memory = objects.memory.find(key_of(i));
      if (memory == nullptr || memory->image() == nullptr) return;
      const trace::ImageDesc& image = *memory->image();
      const HostLayout layout = host_layout(image, rg, row_pitch, slice_pitch);
      Mapping mapping{f, 0, region_bytes(image, rg), seq.value_or(0), range, std::nullopt, 0, 0};
      mapping.rect = image_rect(image, o, rg);
      mapping.row_step = layout.row_step;
      mapping.slice_step = layout.slice_step;
      memory->mappings()[mapped] = std::move(mapping);
    });
  }
  return mapped;
}

}  // namespace

void install_image_enqueue_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueReadImage = layer_clEnqueueReadImage;
  t.clEnqueueWriteImage = layer_clEnqueueWriteImage;
  t.clEnqueueCopyImage = layer_clEnqueueCopyImage;
  t.clEnqueueFillImage = layer_clEnqueueFillImage;
  t.clEnqueueCopyImageToBuffer = layer_clEnqueueCopyImageToBuffer;
  t.clEnqueueCopyBufferToImage = layer_clEnqueueCopyBufferToImage;
  t.clEnqueueMapImage = layer_clEnqueueMapImage;
}

}  // namespace msprof::record::opencl
