#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace msprof::replay::perf {

// Whether this process may count with perf_event_open, and why not.
enum class PerfAccess {
  Allowed,
  NoPmu,       // hardware events do not exist: a VM without a virtual PMU
  NotAllowed,  // perf_event_paranoid, a seccomp profile or a security module refuses
  Unavailable  // the kernel has no perf_event_open, or refused for another reason
};

struct PerfProbe {
  PerfAccess access = PerfAccess::Allowed;
  std::string refusal;  // the one-line error, empty when allowed
};

// Opens PERF_COUNT_HW_INSTRUCTIONS on the calling thread: what every
// hardware group (L2Cache, Memory, Instructions) needs.
PerfProbe probe_hardware_counters();
// Opens PERF_COUNT_SW_TASK_CLOCK on the calling thread: what HostActivity
// needs, there with or without a PMU.
PerfProbe probe_software_counters();

// /proc/sys/kernel/perf_event_paranoid, when it can be read.
std::optional<int> perf_event_paranoid();

// The probe's verdict when opening `event` failed with errno `error`,
// paranoid being perf_event_paranoid's value.
PerfProbe perf_refusal(int error, std::string_view event, bool hardware,
                       std::optional<int> paranoid);

}  // namespace msprof::replay::perf
