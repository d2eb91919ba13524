#include "replayer/opencl/memory_copy.h"

#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/image_memory.h"

namespace msprof::replay::opencl {

namespace {

cl_event copy_with_image(const Submission& at, const trace::BufferCopy& c, const DeviceMemory& src,
                         const DeviceMemory& dst) {
  const trace::ImageDesc* from = src.image();
  const trace::ImageDesc* to = dst.image();
  const trace::Rect& rect = image_rect(c.rect, at.seq);
  if (src.mem() == nullptr || dst.mem() == nullptr) {
    throw PlanError("command " + std::to_string(at.seq) +
                    " copies between an image and an SVM allocation; the trace is damaged");
  }
  cl_event event = nullptr;
  if (from != nullptr && to != nullptr) {
    const PixelRect p = pixels(*from, rect);
    cl_check(clEnqueueCopyImage(at.queue, src.mem(), dst.mem(), p.origin.data(), p.other.data(),
                                p.region.data(), at.count(), at.list(), &event),
             "clEnqueueCopyImage");
  } else if (from != nullptr) {
    const PixelRect p = pixels(*from, rect);
    cl_check(
        clEnqueueCopyImageToBuffer(at.queue, src.mem(), dst.mem(), p.origin.data(), p.region.data(),
                                   c.dst_offset, at.count(), at.list(), &event),
        "clEnqueueCopyImageToBuffer");
  } else {
    const PixelRect p = pixels(*to, rect);
    cl_check(
        clEnqueueCopyBufferToImage(at.queue, src.mem(), dst.mem(), c.src_offset, p.other.data(),
                                   p.region.data(), at.count(), at.list(), &event),
        "clEnqueueCopyBufferToImage");
  }
  return event;
}

}  // namespace

cl_event enqueue_copy(const Submission& at, const trace::BufferCopy& c, const DeviceMemory& src,
                      const DeviceMemory& dst) {
  if (src.image() != nullptr || dst.image() != nullptr) return copy_with_image(at, c, src, dst);
  std::byte* const from = src.pointer();
  std::byte* const to = dst.pointer();
  if ((from == nullptr) != (to == nullptr)) {
    throw PlanError("command " + std::to_string(at.seq) +
                    " copies between a buffer and an SVM allocation; the trace is damaged");
  }
  cl_event event = nullptr;
  if (from != nullptr) {
    cl_check(clEnqueueSVMMemcpy(at.queue, CL_FALSE, to + c.dst_offset, from + c.src_offset, c.size,
                                at.count(), at.list(), &event),
             "clEnqueueSVMMemcpy");
  } else if (c.rect) {
    const auto so = triple(c.rect->buffer_origin, 0), dor = triple(c.rect->host_origin, 0),
               rg = triple(c.rect->region, 1);
    cl_check(clEnqueueCopyBufferRect(at.queue, src.mem(), dst.mem(), so.data(), dor.data(),
                                     rg.data(), c.rect->buffer_row_pitch,
                                     c.rect->buffer_slice_pitch, c.rect->host_row_pitch,
                                     c.rect->host_slice_pitch, at.count(), at.list(), &event),
             "clEnqueueCopyBufferRect");
  } else {
    cl_check(clEnqueueCopyBuffer(at.queue, src.mem(), dst.mem(), c.src_offset, c.dst_offset, c.size,
                                 at.count(), at.list(), &event),
             "clEnqueueCopyBuffer");
  }
  return event;
}

}  // namespace msprof::replay::opencl
