#include "replayer/perf/perf_access.h"

#include <doctest/doctest.h>

#include <cerrno>

namespace msprof::replay::perf {
namespace {

TEST_CASE("perf_refusal: one line naming the cause and the fix") {
  SUBCASE("no PMU: hardware events do not exist") {
    const PerfProbe probe = perf_refusal(ENOENT, "instructions", true, 2);
    CHECK(probe.access == PerfAccess::NoPmu);
    CHECK(probe.refusal ==
          "this machine has no hardware performance counters (perf_event_open gives ENOENT for "
          "instructions: a VM without a virtual PMU); use --metrics-backend sim");
    CHECK(perf_refusal(EOPNOTSUPP, "cycles", true, 2).access == PerfAccess::NoPmu);
  }
  SUBCASE("perf_event_paranoid above 2") {
    const PerfProbe probe = perf_refusal(EACCES, "instructions", true, 3);
    CHECK(probe.access == PerfAccess::NotAllowed);
    CHECK(probe.refusal ==
          "perf_event_open is not allowed: /proc/sys/kernel/perf_event_paranoid is 3; set it to 2 "
          "or lower (sysctl kernel.perf_event_paranoid=2) or use --metrics-backend sim");
    CHECK(perf_refusal(EPERM, "task-clock", false, 4).refusal ==
          "perf_event_open is not allowed: /proc/sys/kernel/perf_event_paranoid is 4; set it to 2 "
          "or lower (sysctl kernel.perf_event_paranoid=2) or use --metrics-backend sim");
  }
  SUBCASE("refused although the sysctl allows it: a sandbox") {
    const PerfProbe probe = perf_refusal(EPERM, "task-clock", false, 2);
    CHECK(probe.access == PerfAccess::NotAllowed);
    CHECK(probe.refusal ==
          "perf_event_open is not allowed (EPERM, and /proc/sys/kernel/perf_event_paranoid is 2): "
          "a seccomp profile or security module refuses it (in a container, run it with "
          "--cap-add PERFMON); allow it or use --metrics-backend sim");
    CHECK(perf_refusal(EACCES, "task-clock", false, std::nullopt).refusal ==
          "perf_event_open is not allowed (EACCES, and /proc/sys/kernel/perf_event_paranoid "
          "cannot be read): a seccomp profile or security module refuses it (in a container, run "
          "it with --cap-add PERFMON); allow it or use --metrics-backend sim");
  }
  SUBCASE("no perf_event_open at all") {
    const PerfProbe probe = perf_refusal(ENOSYS, "task-clock", false, 2);
    CHECK(probe.access == PerfAccess::Unavailable);
    CHECK(probe.refusal ==
          "this kernel has no perf_event_open (ENOSYS: built without CONFIG_PERF_EVENTS, or "
          "hidden by a seccomp profile); use --metrics-backend sim");
  }
  SUBCASE("anything else, named as the kernel gave it") {
    const PerfProbe probe = perf_refusal(EINVAL, "task-clock", false, 2);
    CHECK(probe.access == PerfAccess::Unavailable);
    CHECK(probe.refusal ==
          "perf_event_open gives EINVAL for task-clock (Invalid argument); use --metrics-backend "
          "sim");
  }
}

TEST_CASE("the probes agree with the host") {
  const PerfProbe software = probe_software_counters();
  const PerfProbe hardware = probe_hardware_counters();
  // Every verdict but Allowed comes with its line, and Allowed with none.
  CHECK(software.refusal.empty() == (software.access == PerfAccess::Allowed));
  CHECK(hardware.refusal.empty() == (hardware.access == PerfAccess::Allowed));
  if (software.access != PerfAccess::Allowed) {
    MESSAGE("software counters refused here: " << software.refusal);
    CHECK(hardware.access != PerfAccess::Allowed);
    return;
  }
  // Where software counters are allowed, so are hardware ones: they are
  // either there or not.
  CHECK((hardware.access == PerfAccess::Allowed || hardware.access == PerfAccess::NoPmu));
  if (hardware.access == PerfAccess::Allowed) {
    MESSAGE("this host has a PMU");
  } else {
    MESSAGE("this host has no PMU: " << hardware.refusal);
  }
}

}  // namespace
}  // namespace msprof::replay::perf
