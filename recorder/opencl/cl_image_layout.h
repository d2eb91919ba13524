#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "format/trace_commands.h"
#include "format/trace_objects.h"
#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

// An image as the trace describes it, asked of the driver after creation
// (so every way of making one, clCreateImage, clCreateImage2D/3D,
// clCreateImageWithProperties, gives the same record); nothing for a
// memory object that is no image or whose format has no known layout.
std::optional<trace::ImageDesc> describe_image(cl_mem image);

// The buffer an image was made over (1D buffer images, 2D images from a
// buffer), or null.
cl_mem image_buffer(cl_mem image);

// The host side of an image transfer: OpenCL's pitch rules made explicit.
// A 1D array's layers step by the slice pitch, as its rows.
struct HostLayout {
  std::size_t row_step = 0, slice_step = 0;
};
HostLayout host_layout(const trace::ImageDesc& image, const std::size_t* region,
                       std::size_t row_pitch, std::size_t slice_pitch);

// The rect of an image command: origins and region in pixels, as the
// program gave them, turned into bytes in x; the host side packed.
trace::Rect image_rect(const trace::ImageDesc& image, const std::size_t* origin,
                       const std::size_t* region, const std::size_t* other_origin = nullptr);
std::uint64_t region_bytes(const trace::ImageDesc& image, const std::size_t* region);

// What to pass clEnqueueRead/WriteImage as slice pitch for rows of
// `row_bytes` packed `rows` to a slice: 0 where the image type wants 0.
std::size_t packed_slice_pitch(trace::ImageType type, std::size_t row_bytes, std::size_t rows);

}  // namespace msprof::record::opencl
