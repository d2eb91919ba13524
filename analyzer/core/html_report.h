#pragma once

#include <string>

#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// One self-contained HTML page (inline CSS and SVG, no scripts, nothing
// fetched): per range the kernel medians with min-max whiskers, the
// pass-to-pass durations, replay against the original run, the counted
// metrics (metric_report.h), and the tables.
// With `other`, also this result against the other one (range mode against
// kernel mode, before against after).
std::string html_report(const ReplayResult& result, const ReplayResult* other);

}  // namespace msprof::analyze
