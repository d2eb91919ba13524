#include "replayer/perf/perf_event_set.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/perf/perf_access.h"

namespace msprof::replay::perf {

namespace {

bool is_hardware(const PerfEvent& event) {
  return event.type == PERF_TYPE_HARDWARE || event.type == PERF_TYPE_HW_CACHE ||
         event.type == PERF_TYPE_RAW;
}

// ENOENT: no such event; EOPNOTSUPP: the PMU cannot count it so; EINVAL:
// a cache event the CPU's table marks invalid, or no room in the group.
bool means_no_such_event(int error) {
  return error == ENOENT || error == EOPNOTSUPP || error == EINVAL;
}

[[noreturn]] void throw_refusal(int error, const PerfEvent& event, pid_t tid,
                                std::size_t counters) {
  if (error == EACCES || error == EPERM) {
    throw UsageError(
        perf_refusal(error, event.name, is_hardware(event), perf_event_paranoid()).refusal);
  }
  if (error == EMFILE || error == ENFILE) {
    throw DeviceError("perf_event_open: too many open files (" + errno_name(error) + ") opening " +
                      std::to_string(counters) +
                      " counters per thread; raise the limit (ulimit -n)");
  }
  throw DeviceError("perf_event_open refused " + std::string(event.name) + " on thread " +
                    std::to_string(tid) + " (" + errno_name(error) + ": " + std::strerror(error) +
                    ")");
}

// A thread that is exiting may be refused with another errno than ESRCH
// while /proc still lists it for a moment.
bool thread_exists(pid_t tid) {
  return ::access(("/proc/self/task/" + std::to_string(tid)).c_str(), F_OK) == 0;
}

void group_ioctl(const PerfEventFd& leader, unsigned long request, const char* what) {
  if (::ioctl(leader.get(), request, PERF_IOC_FLAG_GROUP) != 0) {
    const int error = errno;
    throw DeviceError(std::string("perf_event_open: cannot ") + what + " a counter group (" +
                      errno_name(error) + ": " + std::strerror(error) + ")");
  }
}

}  // namespace

PerfEventSet::PerfEventSet(const std::vector<PerfEvent>& events,
                           const std::vector<pid_t>& threads) {
  // Which events this CPU has, and which fit together, is the same on every
  // thread: found once, on the calling thread, as one group.
  {
    std::vector<PerfEventFd> probe;
    for (const PerfEvent& event : events) {
      OpenedEvent opened = open_perf_event(event, 0, probe.empty() ? -1 : probe.front().get());
      if (opened.fd.valid()) {
        counted_.push_back(event);
        probe.push_back(std::move(opened.fd));
      } else if (means_no_such_event(opened.error)) {
        refused_.push_back({event, opened.error});
      } else {
        throw_refusal(opened.error, event, ::gettid(), events.size());
      }
    }
  }
  if (counted_.empty()) return;
  for (const pid_t tid : threads) {
    ThreadGroup group;
    group.tid = tid;
    bool ended = false;
    for (const PerfEvent& event : counted_) {
      OpenedEvent opened =
          open_perf_event(event, tid, group.fds.empty() ? -1 : group.fds.front().get());
      if (opened.error == ESRCH || (!opened.fd.valid() && !thread_exists(tid))) {
        ended = true;
        break;
      }
      if (!opened.fd.valid()) throw_refusal(opened.error, event, tid, counted_.size());
      group.ids.push_back(perf_event_id(opened.fd, event));
      group.fds.push_back(std::move(opened.fd));
    }
    if (!ended) groups_.push_back(std::move(group));
  }
}

bool PerfEventSet::read_group(const ThreadGroup& group, GroupRead& read) const {
  std::vector<std::byte> bytes(group_read_size(counted_.size()));
  const ssize_t got = ::read(group.fds.front().get(), bytes.data(), bytes.size());
  if (got < 0) {
    const int error = errno;
    throw DeviceError("perf_event_open: cannot read the counters of thread " +
                      std::to_string(group.tid) + " (" + errno_name(error) + ": " +
                      std::strerror(error) + ")");
  }
  if (got == 0) return false;  // the thread has ended and its counters with it
  read = decode_group_read(std::span(bytes.data(), static_cast<std::size_t>(got)));
  return true;
}

void PerfEventSet::start() {
  for (ThreadGroup& group : groups_) {
    if (group.ended) continue;
    group_ioctl(group.fds.front(), PERF_EVENT_IOC_RESET, "reset");
    if (!read_group(group, group.at_start)) {
      group.ended = true;
      continue;
    }
    group_ioctl(group.fds.front(), PERF_EVENT_IOC_ENABLE, "enable");
  }
}

void PerfEventSet::stop() {
  for (ThreadGroup& group : groups_) {
    if (!group.ended) group_ioctl(group.fds.front(), PERF_EVENT_IOC_DISABLE, "disable");
  }
}

PerfEventTotals PerfEventSet::read() const {
  PerfEventTotals totals;
  totals.counts.assign(counted_.size(), 0.0);
  for (const ThreadGroup& group : groups_) {
    GroupRead at_end;
    if (group.ended || !read_group(group, at_end)) {
      ++totals.ended_threads;
      continue;
    }
    const GroupInterval interval = group_interval(group.at_start, at_end, group.ids);
    if (interval.unscheduled) {
      ++totals.unscheduled_threads;
      continue;
    }
    totals.multiplexed = totals.multiplexed || interval.multiplexed;
    for (std::size_t i = 0; i < counted_.size(); ++i) totals.counts[i] += interval.counts[i];
  }
  return totals;
}

}  // namespace msprof::replay::perf
