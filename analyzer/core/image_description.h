#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "format/trace_objects.h"

namespace msprof::analyze {

// "2D", "1D array", ... as users name image types.
const char* image_type_name(trace::ImageType type);
// "2D 64x48, float32 x4" (array layers and depth where the type has them).
std::string image_text(const trace::ImageDesc& image);
nlohmann::ordered_json image_json(const trace::ImageDesc& image);

}  // namespace msprof::analyze
