#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "replayer/core/metric_groups.h"
#include "replayer/core/results/replay_result.h"

namespace msprof::replay::cli {

// The counting passes of every replayed range of `result`, again, in a
// run of msprof-replay itself under callgrind (`self_args`: this run's
// arguments, without the program name), whose dumps give each kernel
// launch its `groups` counts. One simulated run for all ranges: the
// simulator's start-up (reading the driver's and LLVM's symbols) is paid
// once. When the simulated run fails, nothing of `result` is changed and
// the returned text says why (one line); empty otherwise.
std::string count_by_simulation(const std::filesystem::path& valgrind,
                                const std::vector<std::string>& self_args,
                                const std::vector<MetricGroup>& groups, const CacheModel& model,
                                ReplayResult& result);

}  // namespace msprof::replay::cli
