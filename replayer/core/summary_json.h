#pragma once

#include <string>

#include "replayer/core/replay_result.h"

namespace msprof::replay {

// The whole result as summary.json (layout in replayer/RESULTS.md).
std::string summary_json(const ReplayResult& result);

}  // namespace msprof::replay
