#pragma once

#include <string>
#include <string_view>

#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// summary.csv: one "range" row per range, then one "kernel" row per kernel
// launch of it (columns in docs/cli/msprof-replay-results.md).
std::string summary_csv(const ReplayResult& result);
std::string csv_field(std::string_view text);
std::string format_number(double value);

}  // namespace msprof::replay
