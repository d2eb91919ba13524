#pragma once

#include <string>

#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// The whole result as summary.json (layout in docs/cli/msprof-replay-results.md).
std::string summary_json(const ReplayResult& result);

}  // namespace msprof::replay
