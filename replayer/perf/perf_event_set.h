#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "replayer/perf/group_read.h"
#include "replayer/perf/perf_event_fd.h"

namespace msprof::replay::perf {

// An event the kernel would not count on this host.
struct RefusedEvent {
  PerfEvent event;
  int error = 0;  // the errno perf_event_open gave
};

// What the groups counted between start() and stop(), summed over the
// threads.
struct PerfEventTotals {
  std::vector<double> counts;  // one per PerfEventSet::counted() event
  // Some thread's group shared the PMU: its counts are scaled by time
  // enabled over time running.
  bool multiplexed = false;
  // Threads that ran while their group never got onto the PMU: their
  // counts are unknown and not in `counts`.
  std::size_t unscheduled_threads = 0;
  // Threads that ended before the read: what they counted is lost.
  std::size_t ended_threads = 0;
};

// The same events counted as one perf event group on each of a list of
// threads, so that every thread's counters run together and ratios of
// them hold.
class PerfEventSet {
 public:
  // Opens `events` (the first that opens leads) on each of `threads`. An
  // event the kernel refuses on the calling thread with ENOENT, EOPNOTSUPP
  // or EINVAL (this CPU has no such event, or no room for it beside the
  // others) is left out everywhere and listed in refused(). A thread that
  // has ended is left out. UsageError (one line, naming the setting) when
  // perf_event_open is not allowed; DeviceError for any other refusal.
  PerfEventSet(const std::vector<PerfEvent>& events, const std::vector<pid_t>& threads);

  const std::vector<PerfEvent>& counted() const { return counted_; }
  const std::vector<RefusedEvent>& refused() const { return refused_; }
  std::size_t thread_count() const { return groups_.size(); }

  // Resets and enables every group, and notes where each starts from
  // (PERF_EVENT_IOC_RESET clears the counts, not the times).
  void start();
  // Disables every group.
  void stop();
  // What each group counted since start(). DeviceError when a read fails.
  PerfEventTotals read() const;

 private:
  struct ThreadGroup {
    pid_t tid = 0;
    std::vector<PerfEventFd> fds;  // leader first, in counted_ order
    std::vector<std::uint64_t> ids;
    GroupRead at_start;
    bool ended = false;
  };
  // Reads the group through its leader into `read`; false when the thread
  // has ended and its counters with it.
  bool read_group(const ThreadGroup& group, GroupRead& read) const;

  std::vector<PerfEvent> counted_;
  std::vector<RefusedEvent> refused_;
  std::vector<ThreadGroup> groups_;
};

}  // namespace msprof::replay::perf
