#pragma once

#include <cstdint>
#include <optional>

namespace msprof::replay {

// The memory the host can give a new allocation without swapping (Linux's
// MemAvailable); nullopt where the system does not say.
std::optional<std::uint64_t> available_host_memory();

}  // namespace msprof::replay
