#include "replayer/perf/perf_access.h"

#include <linux/perf_event.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "replayer/perf/perf_event_fd.h"

namespace msprof::replay::perf {

namespace {

constexpr std::string_view kParanoidPath = "/proc/sys/kernel/perf_event_paranoid";
constexpr std::string_view kUseSim = "use --metrics-backend sim";

PerfProbe probe(const PerfEvent& event, bool hardware) {
  const OpenedEvent opened = open_perf_event(event, 0, -1);
  if (opened.fd.valid()) return {};
  return perf_refusal(opened.error, event.name, hardware, perf_event_paranoid());
}

}  // namespace

PerfProbe probe_hardware_counters() {
  return probe({"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS}, true);
}

PerfProbe probe_software_counters() {
  return probe({"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}, false);
}

std::optional<int> perf_event_paranoid() {
  std::ifstream file{std::string(kParanoidPath)};
  int value = 0;
  if (!(file >> value)) return std::nullopt;
  return value;
}

PerfProbe perf_refusal(int error, std::string_view event, bool hardware,
                       std::optional<int> paranoid) {
  const std::string name = errno_name(error);
  const std::string gives = "perf_event_open gives " + name + " for " + std::string(event);
  if (hardware && (error == ENOENT || error == EOPNOTSUPP)) {
    return {PerfAccess::NoPmu, "this machine has no hardware performance counters (" + gives +
                                   ": a VM without a virtual PMU); " + std::string(kUseSim)};
  }
  if (error == EACCES || error == EPERM) {
    const std::string path(kParanoidPath);
    if (paranoid && *paranoid > 2) {
      return {PerfAccess::NotAllowed,
              "perf_event_open is not allowed: " + path + " is " + std::to_string(*paranoid) +
                  "; set it to 2 or lower (sysctl kernel.perf_event_paranoid=2) or " +
                  std::string(kUseSim)};
    }
    // Counting one's own threads in user space is allowed at 2: something
    // other than the sysctl refuses.
    const std::string setting =
        paranoid ? path + " is " + std::to_string(*paranoid) : path + " cannot be read";
    return {PerfAccess::NotAllowed,
            "perf_event_open is not allowed (" + name + ", and " + setting +
                "): a seccomp profile or security module refuses it (in a container, run it "
                "with --cap-add PERFMON); allow it or " +
                std::string(kUseSim)};
  }
  if (error == ENOSYS) {
    return {PerfAccess::Unavailable,
            "this kernel has no perf_event_open (ENOSYS: built without CONFIG_PERF_EVENTS, or "
            "hidden by a seccomp profile); " +
                std::string(kUseSim)};
  }
  return {PerfAccess::Unavailable,
          gives + " (" + std::strerror(error) + "); " + std::string(kUseSim)};
}

}  // namespace msprof::replay::perf
