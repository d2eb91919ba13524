#include "replayer/perf/perf_counters.h"

#include <algorithm>

#include "replayer/core/replay_error.h"
#include "replayer/perf/perf_access.h"
#include "replayer/perf/perf_group_events.h"
#include "replayer/perf/process_threads.h"

namespace msprof::replay::perf {

namespace {

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// The one line for a group none of whose events this CPU counts.
std::string nothing_counted(MetricGroup group, const PerfEventSet& events) {
  std::string refused;
  for (const RefusedEvent& event : events.refused()) {
    refused += (refused.empty() ? "" : ", ") + std::string(event.event.name) + " (" +
               errno_name(event.error) + ")";
  }
  return "this CPU counts none of " + std::string(metric_group_name(group)) +
         "'s events (perf_event_open refuses " + refused + "); use --metrics-backend sim";
}

std::string launches_text(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " kernel launch" : " kernel launches");
}

}  // namespace

std::vector<MetricGroup> PerfCounters::collectable_groups() {
  const bool software = probe_software_counters().access == PerfAccess::Allowed;
  const bool hardware = software && probe_hardware_counters().access == PerfAccess::Allowed;
  std::vector<MetricGroup> groups;
  for (const MetricGroup group : all_metric_groups()) {
    if (perf_events_of(group).empty() || !(needs_pmu(group) ? hardware : software)) continue;
    // A PMU need not have every group's events (the last level's are
    // another PMU's on some CPUs).
    if (!PerfEventSet(perf_events_of(group), {}).counted().empty()) groups.push_back(group);
  }
  return groups;
}

void PerfCounters::check_groups(const std::vector<MetricGroup>& groups) {
  const bool any = std::any_of(groups.begin(), groups.end(),
                               [](MetricGroup group) { return !perf_events_of(group).empty(); });
  if (!any) return;
  if (PerfProbe software = probe_software_counters(); software.access != PerfAccess::Allowed) {
    throw UsageError(software.refusal);
  }
  if (std::any_of(groups.begin(), groups.end(), needs_pmu)) {
    if (PerfProbe hardware = probe_hardware_counters(); hardware.access != PerfAccess::Allowed) {
      throw UsageError(hardware.refusal);
    }
  }
  for (const MetricGroup group : groups) {
    if (perf_events_of(group).empty()) continue;
    // Opened on the calling thread alone: which events this CPU has.
    const PerfEventSet events(perf_events_of(group), {});
    if (events.counted().empty()) throw UsageError(nothing_counted(group, events));
  }
}

std::vector<std::vector<MetricGroup>> PerfCounters::passes(
    const std::vector<MetricGroup>& groups) const {
  std::vector<std::vector<MetricGroup>> passes;
  for (const MetricGroup group : groups) {
    if (!perf_events_of(group).empty()) passes.push_back({group});
  }
  return passes;
}

PerfCounters::GroupHistory& PerfCounters::history_of(MetricGroup group) {
  for (GroupHistory& history : history_) {
    if (history.group == group) return history;
  }
  GroupHistory history;
  history.group = group;
  history_.push_back(std::move(history));
  return history_.back();
}

void PerfCounters::begin_pass(std::size_t /*range_index*/, unsigned /*pass_index*/,
                              const std::vector<MetricGroup>& groups) {
  counters_.clear();
  check_groups(groups);
  const std::vector<pid_t> threads = other_threads_of_this_process();
  for (const MetricGroup group : groups) {
    if (perf_events_of(group).empty()) continue;
    PerfEventSet events(perf_events_of(group), threads);
    if (events.counted().empty()) throw UsageError(nothing_counted(group, events));
    GroupHistory& history = history_of(group);
    for (const RefusedEvent& refused : events.refused()) {
      add_once(history.refusals,
               std::string(refused.event.name) + " (" + errno_name(refused.error) + ")");
    }
    for (const std::string& caveat : perf_column_caveats(group, events.counted())) {
      add_once(history.caveats, caveat);
    }
    counters_.push_back({group, std::move(events)});
  }
  counted_threads_ = threads.size();
  for (const GroupCounters& counters : counters_) {
    // Fewer where threads ended before their counters opened.
    counted_threads_ = std::min(counted_threads_, counters.events.thread_count());
  }
  fewest_threads_ =
      pass_count_ == 0 ? counted_threads_ : std::min(fewest_threads_, counted_threads_);
  most_threads_ = std::max(most_threads_, counted_threads_);
  ++pass_count_;
}

void PerfCounters::begin_kernel(std::uint64_t /*seq*/) {
  for (GroupCounters& counters : counters_) counters.events.start();
}

std::vector<GroupCounts> PerfCounters::end_kernel(std::uint64_t /*seq*/) {
  // All stopped before any is read, so none counts the reading of another.
  for (GroupCounters& counters : counters_) counters.events.stop();
  std::vector<GroupCounts> counts;
  for (const GroupCounters& counters : counters_) {
    const PerfEventTotals totals = counters.events.read();
    GroupHistory& history = history_of(counters.group);
    ++history.launches;
    if (totals.multiplexed) ++history.multiplexed_launches;
    ended_threads_ += totals.ended_threads;
    GroupCounts group_counts{.group = counters.group, .backend = name(), .values = {}};
    if (totals.unscheduled_threads > 0) {
      ++history.unscheduled_launches;
    } else {
      EventCounts events;
      for (std::size_t i = 0; i < totals.counts.size(); ++i) {
        events.emplace_back(counters.events.counted()[i].name, totals.counts[i]);
      }
      group_counts.values = perf_group_columns(counters.group, events);
    }
    counts.push_back(std::move(group_counts));
  }
  return counts;
}

void PerfCounters::end_pass() {
  counters_.clear();
}

std::vector<std::string> PerfCounters::notes() const {
  std::vector<std::string> notes;
  if (pass_count_ > 0) {
    const std::string threads =
        fewest_threads_ == most_threads_
            ? std::to_string(most_threads_) + (most_threads_ == 1 ? " thread" : " threads")
            : std::to_string(fewest_threads_) + " to " + std::to_string(most_threads_) + " threads";
    notes.push_back("perf counted " + threads +
                    " of this process, every one but the replayer's own (listed anew at each "
                    "counting pass), in user space only");
  }
  for (const GroupHistory& history : history_) {
    const std::string group(metric_group_name(history.group));
    if (!history.refusals.empty()) {
      std::string refused;
      for (const std::string& event : history.refusals) {
        refused += (refused.empty() ? "" : ", ") + event;
      }
      notes.push_back("perf_event_open refused " + refused + " for " + group + " on this CPU");
    }
    notes.insert(notes.end(), history.caveats.begin(), history.caveats.end());
    if (history.multiplexed_launches > 0) {
      notes.push_back(group + "'s counters shared the PMU with other users in " +
                      launches_text(history.multiplexed_launches) + " of " +
                      std::to_string(history.launches) +
                      " (multiplexed): those counts are scaled by time enabled over time "
                      "running, estimates");
    }
    if (history.unscheduled_launches > 0) {
      notes.push_back(group + "'s counters never got onto the PMU in " +
                      launches_text(history.unscheduled_launches) +
                      " (another perf user or the NMI watchdog holds the counters they need): "
                      "those launches have no " +
                      group + " figures");
    }
  }
  if (ended_threads_ > 0) {
    notes.push_back("counted threads ended during counting passes (" +
                    std::to_string(ended_threads_) +
                    " reads found one gone): what they counted is not in the figures");
  }
  return notes;
}

}  // namespace msprof::replay::perf
