#pragma once

#include <vector>

#include "replayer/callgrind/callgrind_dump.h"
#include "replayer/core/metric_groups.h"

namespace msprof::replay {

// The groups callgrind's simulation counts, all at once: L2Cache, Memory,
// Instructions (without cycles and ipc, which it does not simulate).
const std::vector<MetricGroup>& simulated_metric_groups();
bool is_simulated(MetricGroup group);

// One kernel launch's figures (backend "sim") from its dump: for L2Cache
// and Memory, data accesses only (instruction fetches are not counted);
// the last level is msprof op's L2. A column whose events the run did not
// count (branches without --branch-sim=yes) or a rate over zero is left
// out. Line sizes come from `model`, or from the dump's own description of
// its caches where `model` lacks a level. CallgrindDumpError naming the
// file when the dump lacks an event the group needs (a run without
// --cache-sim=yes); ReplayError when `group` is not simulated.
GroupCounts simulated_group_counts(MetricGroup group, const CallgrindDump& dump,
                                   const CacheModel& model);
// The same for each of `groups` the simulation counts, in that order;
// groups it does not count (BasicInfo, HostActivity) are skipped.
std::vector<GroupCounts> simulated_counts(const CallgrindDump& dump, const CacheModel& model,
                                          const std::vector<MetricGroup>& groups);

}  // namespace msprof::replay
