#pragma once

#include <string>
#include <vector>

#include "format/trace_range.h"
#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// The human-readable table: one line per kernel launch (range, kernel,
// median and min/max time, bandwidth, ratio to the original run,
// verification), a line per range with its wall time, and the skipped
// ranges with their reasons.
std::string terminal_table(const ReplayResult& result);

}  // namespace msprof::replay

namespace msprof::replay {

// What --list prints: every range of the trace in program order with its
// status, why it is not replayable, and its size.
std::string range_listing(const std::vector<trace::Range>& ranges);

}  // namespace msprof::replay
