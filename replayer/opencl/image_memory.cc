#include "replayer/opencl/image_memory.h"

#include <cstring>
#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/memory_flags.h"

namespace msprof::replay::opencl {

namespace {

cl_mem_object_type cl_image_type(trace::ImageType type) {
  switch (type) {
    case trace::ImageType::Image1D:
      return CL_MEM_OBJECT_IMAGE1D;
    case trace::ImageType::Image1DBuffer:
      return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    case trace::ImageType::Image1DArray:
      return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case trace::ImageType::Image2D:
      return CL_MEM_OBJECT_IMAGE2D;
    case trace::ImageType::Image2DArray:
      return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case trace::ImageType::Image3D:
      return CL_MEM_OBJECT_IMAGE3D;
  }
  return CL_MEM_OBJECT_IMAGE2D;
}

// The slice pitch clEnqueueRead/WriteImage takes for packed rows: 0 where
// the image type asks for 0, a 1D array's layer size, else a slice's size.
std::size_t packed_slice_pitch(const trace::ImageDesc& d, std::size_t row_bytes, std::size_t rows) {
  switch (d.type) {
    case trace::ImageType::Image1DArray:
      return row_bytes;
    case trace::ImageType::Image2DArray:
    case trace::ImageType::Image3D:
      return row_bytes * rows;
    default:
      return 0;
  }
}

const trace::ImageDesc& valid_desc(const trace::Buffer& b) {
  if (!b.image || b.image->pixel_size == 0 || b.image->packed_size() != b.size) {
    throw PlanError("image " + std::to_string(b.id) +
                    " has no valid description; the trace is damaged");
  }
  return *b.image;
}

}  // namespace

const trace::Rect& image_rect(const std::optional<trace::Rect>& rect, std::uint64_t seq) {
  if (!rect) {
    throw PlanError("command " + std::to_string(seq) +
                    " on an image has no region; the trace is damaged");
  }
  return *rect;
}

PixelRect pixels(const trace::ImageDesc& d, const trace::Rect& rect) {
  PixelRect out;
  const auto in_pixels = [&](const std::vector<std::uint64_t>& v, std::size_t fill) {
    auto t = triple(v, fill);
    t[0] /= d.pixel_size;
    return t;
  };
  out.origin = in_pixels(rect.buffer_origin, 0);
  out.other = in_pixels(rect.host_origin, 0);
  out.region = in_pixels(rect.region, 1);
  return out;
}

ImageMemory::ImageMemory(const MemoryContext& context, const trace::Buffer& record,
                         const DeviceMemory* parent)
    : DeviceMemory(context, record),
      desc_(valid_desc(record)),
      parent_(parent != nullptr ? parent->mem() : nullptr) {
  cl_int err = CL_SUCCESS;
  mem_ = create(err);
  if (err != CL_SUCCESS) {
    throw DeviceError("the device cannot make image " + std::to_string(record.id) + " (" +
                      std::to_string(desc_.width) + "x" + std::to_string(desc_.height) + ", " +
                      desc_.element_type + " x" + std::to_string(desc_.channels) + "): " +
                      cl_error_name(err) + "; replay on a device that supports the image format");
  }
  // Contents the trace does not give start as zeros.
  if (parent_ == nullptr) restore_zeros(context.control_queue(), 1);
}

PixelRect ImageMemory::whole_image() const {
  PixelRect whole;
  whole.region = {desc_.width, desc_.rows(), desc_.slices()};
  return whole;
}

ClMem ImageMemory::create(cl_int& err) const {
  const cl_image_format format{desc_.channel_order, desc_.channel_type};
  cl_image_desc desc{};
  desc.image_type = cl_image_type(desc_.type);
  desc.image_width = desc_.width;
  desc.image_height = desc_.height;
  desc.image_depth = desc_.depth;
  desc.image_array_size = desc_.array_size;
  if (parent_ != nullptr) {
    desc.buffer = parent_;
    // Only a 2D image over a buffer takes the buffer's row pitch.
    if (desc_.type == trace::ImageType::Image2D) desc.image_row_pitch = desc_.row_pitch;
  }
  return ClMem(clCreateImage(context_.context(), record_.flags & kAccessFlags, &format, &desc,
                             nullptr, &err));
}

void ImageMemory::upload(const trace::TraceReader& reader, const trace::BlobRef& blob) {
  const auto bytes = reader.read_blob(blob);
  const PixelRect whole = whole_image();
  cl_check(clEnqueueWriteImage(context_.control_queue(), mem_.get(), CL_TRUE, whole.origin.data(),
                               whole.region.data(), desc_.row_bytes(),
                               packed_slice_pitch(desc_, desc_.row_bytes(), desc_.rows()),
                               bytes.data(), 0, nullptr, nullptr),
           "clEnqueueWriteImage");
}

cl_event ImageMemory::transfer(const Submission& at, bool write,
                               const std::optional<trace::Rect>& r, std::byte* data) {
  const trace::Rect& rect = image_rect(r, at.seq);
  const PixelRect p = pixels(desc_, rect);
  const std::size_t slice = packed_slice_pitch(desc_, rect.host_row_pitch, p.region[1]);
  cl_event event = nullptr;
  if (write) {
    cl_check(clEnqueueWriteImage(at.queue, mem_.get(), CL_FALSE, p.origin.data(), p.region.data(),
                                 rect.host_row_pitch, slice, data, at.count(), at.list(), &event),
             "clEnqueueWriteImage");
  } else {
    cl_check(clEnqueueReadImage(at.queue, mem_.get(), CL_FALSE, p.origin.data(), p.region.data(),
                                rect.host_row_pitch, slice, data, at.count(), at.list(), &event),
             "clEnqueueReadImage");
  }
  return event;
}

cl_event ImageMemory::enqueue_write(const Submission& at, const trace::BufferWrite& write,
                                    std::span<const std::byte> data) {
  if (data.empty()) return at.marker();
  return transfer(at, true, write.rect, const_cast<std::byte*>(data.data()));
}

cl_event ImageMemory::enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                                          std::span<const std::byte> data) {
  return transfer(at, true, unmap.rect, const_cast<std::byte*>(data.data()));
}

cl_event ImageMemory::enqueue_read(const Submission& at, const trace::BufferRead& read,
                                   std::span<std::byte> data) {
  if (data.empty()) return at.marker();
  return transfer(at, false, read.rect, data.data());
}

cl_event ImageMemory::enqueue_fill(const Submission& at, const trace::BufferFill& fill) {
  const PixelRect p = pixels(desc_, image_rect(fill.rect, at.seq));
  if (fill.pattern.size() < 16) {
    throw PlanError("the fill color of command " + std::to_string(at.seq) +
                    " is not 16 bytes; the trace is damaged");
  }
  cl_event event = nullptr;
  cl_check(clEnqueueFillImage(at.queue, mem_.get(), fill.pattern.data(), p.origin.data(),
                              p.region.data(), at.count(), at.list(), &event),
           "clEnqueueFillImage");
  return event;
}

cl_int ImageMemory::keep_copy() {
  cl_int err = CL_SUCCESS;
  ClMem copy = create(err);
  if (err == CL_SUCCESS) {
    const PixelRect whole = whole_image();
    err = clEnqueueCopyImage(context_.control_queue(), mem_.get(), copy.get(), whole.origin.data(),
                             whole.origin.data(), whole.region.data(), 0, nullptr, nullptr);
    if (err == CL_SUCCESS) err = clFinish(context_.control_queue());
  }
  if (err != CL_SUCCESS) {
    throw DeviceError("no device memory for the restore copy of image " + std::to_string(id()) +
                      " (" + cl_error_name(err) + ")");
  }
  copy_ = std::move(copy);
  return CL_SUCCESS;
}

void ImageMemory::restore_from_copy(cl_command_queue queue, unsigned) {
  const PixelRect whole = whole_image();
  cl_check(clEnqueueCopyImage(queue, copy_.get(), mem_.get(), whole.origin.data(),
                              whole.origin.data(), whole.region.data(), 0, nullptr, nullptr),
           "clEnqueueCopyImage");
}

void ImageMemory::restore_zeros(cl_command_queue queue, unsigned) {
  const cl_uint4 zero{};
  const PixelRect whole = whole_image();
  cl_check(clEnqueueFillImage(queue, mem_.get(), &zero, whole.origin.data(), whole.region.data(), 0,
                              nullptr, nullptr),
           "clEnqueueFillImage");
}

void ImageMemory::write_restored(cl_command_queue, std::uint64_t, std::span<const std::byte>) {
  // plan_restores gives every image a copy; rows do not fall on chunks.
  throw PlanError("image " + std::to_string(id()) +
                  " is restored from a device copy only, not from the trace");
}

void ImageMemory::read(std::uint64_t offset, std::span<std::byte> out) {
  if (!packed_) {
    std::vector<std::byte> bytes(desc_.packed_size());
    const PixelRect whole = whole_image();
    cl_check(clEnqueueReadImage(context_.control_queue(), mem_.get(), CL_TRUE, whole.origin.data(),
                                whole.region.data(), desc_.row_bytes(),
                                packed_slice_pitch(desc_, desc_.row_bytes(), desc_.rows()),
                                bytes.data(), 0, nullptr, nullptr),
             "clEnqueueReadImage");
    packed_ = std::move(bytes);
  }
  std::memcpy(out.data(), packed_->data() + offset, out.size());
}

}  // namespace msprof::replay::opencl
