#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "replayer/core/metric_groups.h"
#include "replayer/perf/perf_event_fd.h"

namespace msprof::replay::perf {

// The perf events that count `group`, in the order they are opened (the
// first that opens leads the group). Empty for BasicInfo.
const std::vector<PerfEvent>& perf_events_of(MetricGroup group);

// Whether `group` counts hardware events, which need a PMU.
bool needs_pmu(MetricGroup group);

// What a group's events counted, by PerfEvent::name; an event not counted
// is absent.
using EventCounts = std::vector<std::pair<std::string_view, double>>;

// The columns of `group` that `counts` give, in metric_columns() order. A
// column is left out when an event it needs was not counted, and a ratio
// when its denominator is zero: absent, never a made-up zero.
std::vector<std::pair<std::string, double>> perf_group_columns(MetricGroup group,
                                                               const EventCounts& counts);

// The columns perf gives for `group` where the CPU has every event.
std::vector<std::string> perf_columns(MetricGroup group);

// Notes on the columns `counted` (the events that opened) gives: those it
// leaves out for want of an event, and a ratio over fewer events than
// usual.
std::vector<std::string> perf_column_caveats(MetricGroup group,
                                             const std::vector<PerfEvent>& counted);

}  // namespace msprof::replay::perf
