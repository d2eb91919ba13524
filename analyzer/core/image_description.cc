#include "analyzer/core/image_description.h"

namespace msprof::analyze {

using trace::ImageType;

const char* image_type_name(ImageType type) {
  switch (type) {
    case ImageType::Image1D:
      return "1D";
    case ImageType::Image1DBuffer:
      return "1D buffer";
    case ImageType::Image1DArray:
      return "1D array";
    case ImageType::Image2D:
      return "2D";
    case ImageType::Image2DArray:
      return "2D array";
    case ImageType::Image3D:
      return "3D";
  }
  return "unknown";
}

std::string image_text(const trace::ImageDesc& d) {
  std::string out = std::string(image_type_name(d.type)) + " " + std::to_string(d.width);
  if (d.type != ImageType::Image1D && d.type != ImageType::Image1DBuffer &&
      d.type != ImageType::Image1DArray)
    out += "x" + std::to_string(d.height);
  if (d.type == ImageType::Image3D) out += "x" + std::to_string(d.depth);
  if (d.type == ImageType::Image1DArray || d.type == ImageType::Image2DArray)
    out += ", " + std::to_string(d.array_size) + " layers";
  out += ", " + d.element_type;
  if (d.channels > 1) out += " x" + std::to_string(d.channels);
  return out;
}

nlohmann::ordered_json image_json(const trace::ImageDesc& d) {
  return {{"type", image_type_name(d.type)},
          {"width", d.width},
          {"height", d.height},
          {"depth", d.depth},
          {"array_size", d.array_size},
          {"channel_order", d.channel_order},
          {"channel_type", d.channel_type},
          {"pixel_size", d.pixel_size},
          {"channels", d.channels},
          {"element_type", d.element_type},
          {"row_pitch", d.row_pitch},
          {"slice_pitch", d.slice_pitch}};
}

}  // namespace msprof::analyze
