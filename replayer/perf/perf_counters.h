#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "replayer/core/counters/counter_backend.h"
#include "replayer/core/metric_groups.h"
#include "replayer/perf/perf_event_set.h"

namespace msprof::replay::perf {

// Counts kernel launches with this host's CPU counters through
// perf_event_open, on every thread of this process but the caller's: a CPU
// device's driver runs kernels on worker threads of its own. HostActivity
// comes from software events and works on any Linux host; L2Cache, Memory
// and Instructions from hardware events, where the host has a PMU.
class PerfCounters final : public CounterBackend {
 public:
  // The groups this host can count, in all_metric_groups() order (never
  // BasicInfo): HostActivity where perf_event_open is allowed, a hardware
  // group where there is a PMU too and it counts an event of the group.
  // For --list-metrics.
  static std::vector<MetricGroup> collectable_groups();
  // UsageError, one line naming the fix, when a group of `groups` cannot be
  // counted here: a hardware group without a PMU, or on a CPU that counts
  // none of its events, any group where perf_event_paranoid or a sandbox
  // refuses perf_event_open. Call it before the first pass.
  static void check_groups(const std::vector<MetricGroup>& groups);

  std::string name() const override { return "perf"; }
  // A group per pass: each fits the PMU's few counters alone.
  std::vector<std::vector<MetricGroup>> passes(
      const std::vector<MetricGroup>& groups) const override;
  // Checks `groups` (check_groups), lists the threads anew (the driver
  // starts its workers before the first pass, and may start more) and opens
  // the groups' counters on them. UsageError or DeviceError.
  void begin_pass(std::size_t range_index, unsigned pass_index,
                  const std::vector<MetricGroup>& groups) override;
  // Resets and enables the counters.
  void begin_kernel(std::uint64_t seq) override;
  // Disables and reads them: one GroupCounts per group of the pass, empty
  // where the counters never got onto the PMU.
  std::vector<GroupCounts> end_kernel(std::uint64_t seq) override;
  void end_pass() override;
  // The threads counted, the events this CPU refused and the columns left
  // out for it, and whether counts were multiplexed (scaled).
  std::vector<std::string> notes() const override;

  // The threads the current (or last) pass counts.
  std::size_t counted_threads() const { return counted_threads_; }

 private:
  struct GroupCounters {
    MetricGroup group;
    PerfEventSet events;
  };
  // What notes() says of a group, over every pass.
  struct GroupHistory {
    MetricGroup group = MetricGroup::HostActivity;
    std::vector<std::string> refusals;  // "L1-dcache-store-misses (ENOENT)"
    std::vector<std::string> caveats;
    std::size_t launches = 0;
    std::size_t multiplexed_launches = 0;
    std::size_t unscheduled_launches = 0;
  };
  GroupHistory& history_of(MetricGroup group);

  std::vector<GroupCounters> counters_;
  std::vector<GroupHistory> history_;
  std::size_t counted_threads_ = 0;
  std::size_t fewest_threads_ = 0;
  std::size_t most_threads_ = 0;
  std::size_t pass_count_ = 0;
  std::size_t ended_threads_ = 0;
};

}  // namespace msprof::replay::perf
