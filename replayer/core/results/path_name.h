#pragma once

#include <string>
#include <string_view>

namespace msprof::replay {

// Turns a name from the trace (a kernel or range name: any bytes the program
// chose) into one safe path component: letters, digits, '_', '-', '.' kept,
// everything else '_', never empty, never "." or "..", at most 100 bytes.
std::string sanitize_path_component(std::string_view name);

}  // namespace msprof::replay
