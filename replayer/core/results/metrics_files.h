#pragma once

#include <string>

#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// <Group>.csv of one kernel launch folder: its name, who counted, and the
// group's columns (an uncounted column empty). Empty text when the launch
// has no counts of the group.
std::string group_csv(const KernelResult& kernel, MetricGroup group);

// The value of a column as the CSV files and the table write it: counts
// whole, rates with two decimals.
std::string metric_value_text(double value);

}  // namespace msprof::replay
