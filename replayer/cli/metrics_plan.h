#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "replayer/core/device_description.h"
#include "replayer/core/metric_groups.h"
#include "replayer/core/replay_options.h"

namespace msprof::replay::cli {

// What the host offers for counting, found once.
struct CounterAvailability {
  std::string hardware_refusal;    // why perf cannot count hardware events; empty when it can
  std::string software_refusal;    // the same for software events
  std::string simulator_refusal;   // why callgrind cannot run; empty when it can
  std::filesystem::path valgrind;  // the valgrind found, where it can
};
CounterAvailability probe_counter_availability();

// Which backend counts which of the asked groups on `device`.
struct MetricsPlan {
  std::vector<MetricGroup> perf, sim;
  // The groups left out, with why (only where `skip_uncountable`).
  std::vector<std::string> skipped;
  bool empty() const { return perf.empty() && sim.empty(); }
};

// UsageError, one line naming the fix, for a group no backend can count
// here: HostActivity asked of sim, perf without a PMU or allowed no
// counters, sim without valgrind, a device neither backend can watch (the
// message names those of `devices` that fit). With `skip_uncountable`
// (--metrics Default) such a group is left out instead, and said in
// `skipped`; UsageError only when none is left.
MetricsPlan plan_metrics(const ReplayOptions& options, const DeviceDescription& device,
                         const CounterAvailability& available,
                         const std::vector<DeviceDescription>& devices,
                         bool skip_uncountable = false);

// --list-metrics: each group, its columns and who can count it on `device`.
std::string metrics_listing(const DeviceDescription& device, const CounterAvailability& available);

}  // namespace msprof::replay::cli
