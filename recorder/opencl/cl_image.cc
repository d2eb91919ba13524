#include "recorder/opencl/cl_image.h"

#include "recorder/opencl/cl_image_layout.h"

namespace msprof::record::opencl {

trace::Buffer ClImage::record() const {
  trace::Buffer record = ClMemObject::record();
  record.kind = trace::MemoryKind::Image;
  record.image = desc_;
  return record;
}

cl_int ClImage::enqueue_read(cl_command_queue queue, bool blocking, std::vector<std::byte>& bytes,
                             cl_uint num_wait, const cl_event* wait, cl_event* read) {
  // Packed: rows of width * pixel size, whatever pitch the driver keeps.
  const std::size_t origin[3] = {0, 0, 0};
  const std::size_t region[3] = {desc_.width, desc_.rows(), desc_.slices()};
  return next().clEnqueueReadImage(queue, handle(), blocking ? CL_TRUE : CL_FALSE, origin, region,
                                   desc_.row_bytes(),
                                   packed_slice_pitch(desc_.type, desc_.row_bytes(), desc_.rows()),
                                   bytes.data(), num_wait, wait, read);
}

}  // namespace msprof::record::opencl
