#include "tests/perf/perf_allowed.h"

#include <doctest/doctest.h>

#include <string>

#include "replayer/perf/perf_access.h"

namespace msprof::test {

bool software_counters_allowed() {
  const auto probe = replay::perf::probe_software_counters();
  if (probe.access == replay::perf::PerfAccess::Allowed) return true;
  MESSAGE("this case is not run: " << probe.refusal);
  return false;
}

}  // namespace msprof::test
