#include "recorder/opencl/cl_image_layout.h"

namespace msprof::record::opencl {
namespace {

template <typename T>
T image_value(cl_mem image, cl_image_info what) {
  T value{};
  if (next().clGetImageInfo(image, what, sizeof value, &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

std::uint32_t channel_count(cl_channel_order order) {
  switch (order) {
    case CL_RG:
    case CL_RA:
    case CL_Rx:
      return 2;
    case CL_RGB:
    case CL_RGx:
    case CL_sRGB:
      return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_RGBx:
    case CL_sRGBx:
      return 4;
    default:  // R, A, INTENSITY, LUMINANCE, DEPTH
      return 1;
  }
}

// One component as numpy names it; packed formats are one integer a pixel.
struct Component {
  const char* name;
  bool packed;
};
std::optional<Component> component(cl_channel_type type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
      return Component{"int8", false};
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
      return Component{"int16", false};
    case CL_SIGNED_INT32:
      return Component{"int32", false};
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8:
      return Component{"uint8", false};
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16:
      return Component{"uint16", false};
    case CL_UNSIGNED_INT32:
      return Component{"uint32", false};
    case CL_HALF_FLOAT:
      return Component{"float16", false};
    case CL_FLOAT:
      return Component{"float32", false};
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
      return Component{"uint16", true};
    case CL_UNORM_INT_101010:
#ifdef CL_UNORM_INT_101010_2
    case CL_UNORM_INT_101010_2:
#endif
    case CL_UNORM_INT24:
      return Component{"uint32", true};
    default:
      return std::nullopt;
  }
}

std::optional<trace::ImageType> image_type(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return trace::ImageType::Image1D;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return trace::ImageType::Image1DBuffer;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return trace::ImageType::Image1DArray;
    case CL_MEM_OBJECT_IMAGE2D:
      return trace::ImageType::Image2D;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return trace::ImageType::Image2DArray;
    case CL_MEM_OBJECT_IMAGE3D:
      return trace::ImageType::Image3D;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<trace::ImageDesc> describe_image(cl_mem image) {
  cl_mem_object_type mem_type = 0;
  if (next().clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof mem_type, &mem_type, nullptr) !=
      CL_SUCCESS)
    return std::nullopt;
  const auto type = image_type(mem_type);
  // An image made from another image (an sRGB or depth view) shares its
  // pixels: recorded apart, writes through one would not show through the
  // other, so it is left to the caller's not-replayable path.
  cl_mem associated = nullptr;
  next().clGetMemObjectInfo(image, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated,
                            nullptr);
  if (associated != nullptr && image_buffer(image) == nullptr) return std::nullopt;
  const auto format = image_value<cl_image_format>(image, CL_IMAGE_FORMAT);
  const auto part = component(format.image_channel_data_type);
  if (!type || !part) return std::nullopt;
  trace::ImageDesc d;
  d.type = *type;
  d.width = image_value<std::size_t>(image, CL_IMAGE_WIDTH);
  d.height = std::max<std::size_t>(image_value<std::size_t>(image, CL_IMAGE_HEIGHT), 1);
  d.depth = std::max<std::size_t>(image_value<std::size_t>(image, CL_IMAGE_DEPTH), 1);
  d.array_size = std::max<std::size_t>(image_value<std::size_t>(image, CL_IMAGE_ARRAY_SIZE), 1);
  d.channel_order = format.image_channel_order;
  d.channel_type = format.image_channel_data_type;
  d.pixel_size = static_cast<std::uint32_t>(image_value<std::size_t>(image, CL_IMAGE_ELEMENT_SIZE));
  d.channels = part->packed ? 1 : channel_count(format.image_channel_order);
  d.element_type = part->name;
  if (image_buffer(image) != nullptr) {
    d.row_pitch = image_value<std::size_t>(image, CL_IMAGE_ROW_PITCH);
    d.slice_pitch = image_value<std::size_t>(image, CL_IMAGE_SLICE_PITCH);
  }
  if (d.width == 0 || d.pixel_size == 0) return std::nullopt;
  return d;
}

cl_mem image_buffer(cl_mem image) {
  cl_mem buffer = image_value<cl_mem>(image, CL_IMAGE_BUFFER);
  if (buffer == nullptr) {
    next().clGetMemObjectInfo(image, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof buffer, &buffer, nullptr);
  }
  if (buffer == nullptr) return nullptr;
  cl_mem_object_type type = 0;
  next().clGetMemObjectInfo(buffer, CL_MEM_TYPE, sizeof type, &type, nullptr);
  return type == CL_MEM_OBJECT_BUFFER ? buffer : nullptr;
}

HostLayout host_layout(const trace::ImageDesc& image, const std::size_t* region,
                       std::size_t row_pitch, std::size_t slice_pitch) {
  const std::size_t row = region[0] * image.pixel_size;
  if (row_pitch == 0) row_pitch = row;
  if (image.type == trace::ImageType::Image1DArray) {
    // The layers are the rows, one slice pitch apart.
    return {slice_pitch != 0 ? slice_pitch : row_pitch, 0};
  }
  if (slice_pitch == 0) slice_pitch = row_pitch * region[1];
  return {row_pitch, slice_pitch};
}

trace::Rect image_rect(const trace::ImageDesc& image, const std::size_t* origin,
                       const std::size_t* region, const std::size_t* other_origin) {
  const std::uint64_t pixel = image.pixel_size;
  trace::Rect rect;
  if (origin != nullptr) rect.buffer_origin = {origin[0] * pixel, origin[1], origin[2]};
  if (other_origin != nullptr) {
    rect.host_origin = {other_origin[0] * pixel, other_origin[1], other_origin[2]};
  } else {
    rect.host_origin = {0, 0, 0};
  }
  rect.region = {region[0] * pixel, region[1], region[2]};
  rect.host_row_pitch = region[0] * pixel;
  rect.host_slice_pitch = rect.host_row_pitch * region[1];
  return rect;
}

std::uint64_t region_bytes(const trace::ImageDesc& image, const std::size_t* region) {
  return static_cast<std::uint64_t>(region[0]) * image.pixel_size * region[1] * region[2];
}

std::size_t packed_slice_pitch(trace::ImageType type, std::size_t row_bytes, std::size_t rows) {
  switch (type) {
    case trace::ImageType::Image1D:
    case trace::ImageType::Image1DBuffer:
    case trace::ImageType::Image2D:
      return 0;
    case trace::ImageType::Image1DArray:
      return row_bytes;
    case trace::ImageType::Image2DArray:
    case trace::ImageType::Image3D:
      return row_bytes * rows;
  }
  return 0;
}

}  // namespace msprof::record::opencl
