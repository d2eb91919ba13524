#pragma once

#include <filesystem>

#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// Writes OPPROF_<YYYYMMDDhhmmss>_<id>/ under `parent`, shaped like the
// reference tool's output (docs/cli/msprof-replay-results.md), and returns its path.
// ReplayError when the folder cannot be written.
std::filesystem::path write_result_folder(const ReplayResult& result,
                                          const std::filesystem::path& parent);

}  // namespace msprof::replay
