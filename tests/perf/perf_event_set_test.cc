#include "replayer/perf/perf_event_set.h"

#include <doctest/doctest.h>
#include <linux/perf_event.h>

#include <cerrno>

#include "tests/perf/perf_allowed.h"
#include "tests/perf/worker_threads.h"

namespace msprof::replay::perf {
namespace {

const PerfEvent kTaskClock{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
const PerfEvent kPageFaults{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS};
// A software event past the kernel's last: refused as hardware events are
// on a host without a PMU.
const PerfEvent kNoSuchEvent{"no-such-event", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_MAX + 100};

TEST_CASE("PerfEventSet: one group per thread, summed, and the events the kernel lacks left out") {
  if (!test::software_counters_allowed()) return;
  test::WorkerThreads workers(2);
  // Past the largest pid_max: a thread that is gone.
  std::vector<pid_t> threads = workers.ids();
  threads.push_back(4'194'304 + 17);

  PerfEventSet set({kNoSuchEvent, kTaskClock, kPageFaults}, threads);
  CHECK(set.thread_count() == 2);
  REQUIRE(set.refused().size() == 1);
  CHECK(set.refused()[0].event.name == "no-such-event");
  CHECK(set.refused()[0].error == ENOENT);
  REQUIRE(set.counted().size() == 2);
  CHECK(set.counted()[0].name == "task-clock");
  CHECK(set.counted()[1].name == "page-faults");

  constexpr std::size_t kPages = 128;
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    set.start();
    workers.run([] { test::touch_fresh_pages(kPages); });
    set.stop();
    const PerfEventTotals totals = set.read();
    REQUIRE(totals.counts.size() == 2);
    // Each round from zero: start() resets.
    CHECK(totals.counts[1] >= 2 * kPages);
    CHECK(totals.counts[1] < 2 * kPages + 64);
    CHECK(totals.counts[0] > 0);
    CHECK_FALSE(totals.multiplexed);
    CHECK(totals.unscheduled_threads == 0);
    CHECK(totals.ended_threads == 0);
  }

  SUBCASE("what runs outside start() and stop() is not counted") {
    set.start();
    set.stop();
    workers.run([] { test::touch_fresh_pages(kPages); });
    const PerfEventTotals totals = set.read();
    CHECK(totals.counts[1] == 0);
  }
}

TEST_CASE("PerfEventSet: every event refused leaves nothing to count") {
  if (!test::software_counters_allowed()) return;
  test::WorkerThreads workers(1);
  PerfEventSet set({kNoSuchEvent}, workers.ids());
  CHECK(set.counted().empty());
  CHECK(set.thread_count() == 0);
  set.start();
  set.stop();
  CHECK(set.read().counts.empty());
}

}  // namespace
}  // namespace msprof::replay::perf
