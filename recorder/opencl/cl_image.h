#pragma once

#include "recorder/opencl/cl_mem_object.h"

namespace msprof::record::opencl {

// An image of any type (clCreateImage, clCreateImageWithProperties,
// clCreateImage2D/3D), its shape and pixel format asked of the driver
// (cl_image_layout.h). Its state is the pixels packed (rows of width times
// pixel size, no padding), read with clEnqueueReadImage; an image made over
// a buffer has that buffer as its parent, and its state is the buffer's.
class ClImage final : public ClMemObject {
 public:
  ClImage(CaptureId id, cl_context context, cl_mem_flags flags, cl_mem handle,
          const trace::ImageDesc& desc)
      : ClMemObject(id, context, flags, desc.packed_size(), handle), desc_(desc) {}

  const trace::ImageDesc* image() const override { return &desc_; }
  trace::Buffer record() const override;

 protected:
  cl_int enqueue_read(cl_command_queue queue, bool blocking, std::vector<std::byte>& bytes,
                      cl_uint num_wait, const cl_event* wait, cl_event* read) override;

 private:
  trace::ImageDesc desc_;
};

}  // namespace msprof::record::opencl
