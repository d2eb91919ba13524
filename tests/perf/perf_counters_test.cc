#include "replayer/perf/perf_counters.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "replayer/core/replay_error.h"
#include "replayer/perf/perf_access.h"
#include "tests/perf/perf_allowed.h"
#include "tests/perf/worker_threads.h"

namespace msprof::replay::perf {
namespace {

double value(const GroupCounts& counts, std::string_view column) {
  const auto v = counts.value(column);
  REQUIRE_MESSAGE(v.has_value(), "no column " << column);
  return *v;
}

bool any_note_has(const CounterBackend& backend, const std::string& text) {
  for (const std::string& note : backend.notes()) {
    if (note.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("PerfCounters: a group per pass, BasicInfo left to the timed passes") {
  PerfCounters counters;
  CHECK(counters.name() == "perf");
  CHECK(counters.passes({MetricGroup::BasicInfo, MetricGroup::L2Cache, MetricGroup::Instructions,
                         MetricGroup::HostActivity}) ==
        std::vector<std::vector<MetricGroup>>{
            {MetricGroup::L2Cache}, {MetricGroup::Instructions}, {MetricGroup::HostActivity}});
  CHECK(counters.passes({MetricGroup::BasicInfo}).empty());
  CHECK(counters.notes().empty());
}

TEST_CASE("PerfCounters: HostActivity counts the workers' launches, and only theirs") {
  if (!test::software_counters_allowed()) return;
  test::WorkerThreads workers(2);
  PerfCounters counters;
  counters.begin_pass(0, 0, {MetricGroup::BasicInfo, MetricGroup::HostActivity});
  CHECK(counters.counted_threads() == 2);

  constexpr std::size_t kPages = 256;
  constexpr unsigned kCpuMs = 40;
  counters.begin_kernel(1);
  workers.run([] {
    test::touch_fresh_pages(kPages);
    test::spin_cpu(kCpuMs);
  });
  const auto busy = counters.end_kernel(1);

  counters.begin_kernel(2);
  const auto idle = counters.end_kernel(2);

  // The replayer's own thread enqueues and waits: not counted.
  counters.begin_kernel(3);
  test::touch_fresh_pages(kPages);
  test::spin_cpu(kCpuMs);
  const auto own = counters.end_kernel(3);
  counters.end_pass();

  REQUIRE(busy.size() == 1);
  CHECK(busy[0].group == MetricGroup::HostActivity);
  CHECK(busy[0].backend == "perf");
  CHECK(busy[0].values.size() == 4);
  CHECK(value(busy[0], "page_faults") >= 2 * kPages);
  // Not many more: under ASan, its shadow of the pages faults too.
  CHECK(value(busy[0], "page_faults") < 4 * kPages);
  // CPU time, whatever else the machine runs: both threads' spin at least.
  CHECK(value(busy[0], "task_clock(us)") >= 2 * kCpuMs * 1000 * 0.95);
  CHECK(value(busy[0], "task_clock(us)") < 2 * kCpuMs * 1000 * 3);
  CHECK(value(busy[0], "context_switches") >= 0);
  CHECK(value(busy[0], "cpu_migrations") >= 0);

  for (const auto* nothing : {&idle, &own}) {
    REQUIRE(nothing->size() == 1);
    CHECK(value((*nothing)[0], "page_faults") <= 2);
    CHECK(value((*nothing)[0], "task_clock(us)") < 5000);
  }
  CHECK(any_note_has(counters, "perf counted 2 threads of this process"));
  CHECK_FALSE(any_note_has(counters, "multiplexed"));
}

TEST_CASE("PerfCounters: the threads are listed anew at every pass") {
  if (!test::software_counters_allowed()) return;
  PerfCounters counters;
  test::WorkerThreads first(1);
  counters.begin_pass(0, 0, {MetricGroup::HostActivity});
  CHECK(counters.counted_threads() == 1);
  counters.end_pass();

  // A driver may start workers after the first pass.
  test::WorkerThreads second(1);
  counters.begin_pass(0, 1, {MetricGroup::HostActivity});
  CHECK(counters.counted_threads() == 2);
  constexpr std::size_t kPages = 64;
  counters.begin_kernel(0);
  second.run([] { test::touch_fresh_pages(kPages); });
  const auto counts = counters.end_kernel(0);
  counters.end_pass();
  REQUIRE(counts.size() == 1);
  CHECK(value(counts[0], "page_faults") >= kPages);
  CHECK(any_note_has(counters, "perf counted 1 to 2 threads"));
}

TEST_CASE("PerfCounters: hardware groups where there is a PMU, one line naming sim where not") {
  if (!test::software_counters_allowed()) return;
  const PerfProbe hardware = probe_hardware_counters();
  const std::vector<MetricGroup> collectable = PerfCounters::collectable_groups();
  CHECK_NOTHROW(PerfCounters::check_groups({MetricGroup::BasicInfo, MetricGroup::HostActivity}));
  if (hardware.access != PerfAccess::Allowed) {
    MESSAGE("no hardware counters here: " << hardware.refusal);
    CHECK(collectable == std::vector<MetricGroup>{MetricGroup::HostActivity});
    for (const MetricGroup group :
         {MetricGroup::L2Cache, MetricGroup::Memory, MetricGroup::Instructions}) {
      CHECK_THROWS_WITH_AS(PerfCounters::check_groups({MetricGroup::HostActivity, group}),
                           doctest::Contains("; use --metrics-backend sim"), UsageError);
      PerfCounters counters;
      CHECK_THROWS_WITH_AS(counters.begin_pass(0, 0, {group}), hardware.refusal.c_str(),
                           UsageError);
    }
    return;
  }
  // Every PMU counts instructions; the cache groups depend on the CPU (some
  // keep the last level's events on another PMU).
  const auto collects = [&](MetricGroup group) {
    return std::find(collectable.begin(), collectable.end(), group) != collectable.end();
  };
  CHECK(collects(MetricGroup::Instructions));
  CHECK(collects(MetricGroup::HostActivity));
  test::WorkerThreads workers(2);
  PerfCounters counters;
  for (const MetricGroup group :
       {MetricGroup::Instructions, MetricGroup::L2Cache, MetricGroup::Memory}) {
    CAPTURE(metric_group_name(group));
    if (!collects(group)) {
      CHECK_THROWS_WITH_AS(PerfCounters::check_groups({group}),
                           doctest::Contains("; use --metrics-backend sim"), UsageError);
      continue;
    }
    CHECK_NOTHROW(PerfCounters::check_groups({group}));
    counters.begin_pass(0, 0, {group});
    counters.begin_kernel(0);
    workers.run([] {
      test::touch_fresh_pages(256);
      test::spin_cpu(20);
    });
    const auto counts = counters.end_kernel(0);
    counters.end_pass();
    REQUIRE(counts.size() == 1);
    CHECK_FALSE(counts[0].values.empty());
    for (const auto& [column, v] : counts[0].values) MESSAGE(column << " = " << v);
    if (group == MetricGroup::Instructions) {
      CHECK(value(counts[0], "instructions") > 1e6);
      CHECK(value(counts[0], "cycles") > 0);
    }
  }
  for (const std::string& note : counters.notes()) MESSAGE(note);
}

}  // namespace
}  // namespace msprof::replay::perf
