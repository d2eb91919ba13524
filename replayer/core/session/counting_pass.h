#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "format/trace_range.h"
#include "replayer/core/counters/counter_backend.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

// Where a counting pass stands, for progress lines.
struct CountingStep {
  std::size_t range_index = 0;
  std::optional<std::size_t> variant;  // the workbench variant counted, if one
  unsigned pass = 0, passes = 0;
  unsigned kernel = 0, kernels = 0;  // kernel counts from 1; 0 before the first
};

// One counting pass of `range`, as a timed pass of the same mode and cache
// control runs it, with every kernel launched alone between the backend's
// begin_kernel() and end_kernel(); what end_kernel() returns goes to the
// kernel of that seq in `kernels`. Never timed.
void run_counting_pass(LoadedRange& loaded, const trace::Range& range, const ReplayOptions& options,
                       CounterBackend& counters, const std::vector<MetricGroup>& groups,
                       CountingStep step, std::vector<KernelResult>& kernels,
                       const std::function<void(const CountingStep&)>& on_kernel);

}  // namespace msprof::replay
