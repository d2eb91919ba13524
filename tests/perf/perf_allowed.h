#pragma once

namespace msprof::test {

// False, after a doctest MESSAGE saying why the case is not run, where
// this host refuses even software counters (perf_event_paranoid 3 or
// more, a sandbox): the tests count for real or not at all.
bool software_counters_allowed();

}  // namespace msprof::test
