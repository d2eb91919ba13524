#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace msprof::analyze {

// A scalar kernel argument as its OpenCL C type says: "3.5", "(1, 2, 3, 4)"
// for vectors. nullopt when the type is unknown or the byte count does not
// fit it, so the caller shows the bytes instead of guessing.
std::optional<std::string> typed_scalar(const std::string& type_name,
                                        std::span<const std::uint8_t> bytes);

}  // namespace msprof::analyze
