#include "replayer/perf/perf_group_events.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace msprof::replay::perf {
namespace {

std::vector<std::string> names(const std::vector<std::pair<std::string, double>>& values) {
  std::vector<std::string> list;
  for (const auto& [name, value] : values) list.push_back(name);
  return list;
}

double value(const std::vector<std::pair<std::string, double>>& values, const std::string& name) {
  for (const auto& [column, v] : values) {
    if (column == name) return v;
  }
  FAIL("no column " << name);
  return 0;
}

std::vector<PerfEvent> without(MetricGroup group, std::string_view event) {
  std::vector<PerfEvent> events = perf_events_of(group);
  std::erase_if(events, [&](const PerfEvent& e) { return e.name == event; });
  return events;
}

TEST_CASE("each group's events, and hardware groups need a PMU") {
  CHECK(perf_events_of(MetricGroup::BasicInfo).empty());
  CHECK_FALSE(needs_pmu(MetricGroup::BasicInfo));
  CHECK_FALSE(needs_pmu(MetricGroup::HostActivity));
  CHECK(needs_pmu(MetricGroup::L2Cache));
  CHECK(needs_pmu(MetricGroup::Memory));
  CHECK(needs_pmu(MetricGroup::Instructions));
  for (const MetricGroup group : all_metric_groups()) {
    // perf's columns are the group's, in the group's order.
    std::vector<std::string> all;
    for (const auto& column : metric_columns(group)) all.emplace_back(column.name);
    const std::vector<std::string> given = perf_columns(group);
    auto at = all.begin();
    for (const std::string& column : given) {
      at = std::find(at, all.end(), column);
      CHECK_MESSAGE(at != all.end(), column);
    }
  }
  // Misses x line is no byte count: perf leaves the byte columns out.
  CHECK(perf_columns(MetricGroup::Memory) ==
        std::vector<std::string>{"l1_read_requests", "l1_write_requests", "l1_read_miss",
                                 "l1_write_miss", "l1_hit_rate(%)"});
  CHECK(perf_columns(MetricGroup::Instructions) ==
        std::vector<std::string>{"instructions", "cycles", "ipc", "branches", "branch_misses",
                                 "branch_miss_rate(%)"});
}

TEST_CASE("L2Cache: hits are accesses less misses, the total rate over reads and writes") {
  const auto columns = perf_group_columns(
      MetricGroup::L2Cache,
      {{"LLC-loads", 100}, {"LLC-load-misses", 10}, {"LLC-stores", 50}, {"LLC-store-misses", 30}});
  CHECK(names(columns) == perf_columns(MetricGroup::L2Cache));
  CHECK(value(columns, "read_cache_hit") == 90);
  CHECK(value(columns, "read_cache_miss") == 10);
  CHECK(value(columns, "write_cache_hit") == 20);
  CHECK(value(columns, "write_cache_miss") == 30);
  CHECK(value(columns, "total_hit_rate(%)") == doctest::Approx(110.0 / 150.0 * 100.0));

  SUBCASE("no write events: no write columns and no total") {
    const auto reads =
        perf_group_columns(MetricGroup::L2Cache, {{"LLC-loads", 100}, {"LLC-load-misses", 10}});
    CHECK(names(reads) == std::vector<std::string>{"read_cache_hit", "read_cache_miss"});
    const auto caveats =
        perf_column_caveats(MetricGroup::L2Cache, without(MetricGroup::L2Cache, "LLC-stores"));
    REQUIRE(caveats.size() == 1);
    CHECK(caveats[0] ==
          "L2Cache leaves out write_cache_hit, total_hit_rate(%): this CPU does not count the "
          "events they need");
  }
  SUBCASE("no accesses: no rate rather than a made-up one") {
    const auto idle = perf_group_columns(
        MetricGroup::L2Cache,
        {{"LLC-loads", 0}, {"LLC-load-misses", 0}, {"LLC-stores", 0}, {"LLC-store-misses", 0}});
    CHECK(names(idle) == std::vector<std::string>{"read_cache_hit", "read_cache_miss",
                                                  "write_cache_hit", "write_cache_miss"});
  }
}

TEST_CASE("Memory: l1_hit_rate over the requests whose misses are counted") {
  const auto all = perf_group_columns(MetricGroup::Memory, {{"L1-dcache-loads", 1000},
                                                            {"L1-dcache-load-misses", 100},
                                                            {"L1-dcache-stores", 500},
                                                            {"L1-dcache-store-misses", 50}});
  CHECK(value(all, "l1_hit_rate(%)") == doctest::Approx(1350.0 / 1500.0 * 100.0));
  CHECK(perf_column_caveats(MetricGroup::Memory, perf_events_of(MetricGroup::Memory)).empty());

  // Most CPUs count L1 stores but not their misses.
  const auto reads = perf_group_columns(
      MetricGroup::Memory,
      {{"L1-dcache-loads", 1000}, {"L1-dcache-load-misses", 100}, {"L1-dcache-stores", 500}});
  CHECK(names(reads) == std::vector<std::string>{"l1_read_requests", "l1_write_requests",
                                                 "l1_read_miss", "l1_hit_rate(%)"});
  CHECK(value(reads, "l1_hit_rate(%)") == doctest::Approx(90.0));
  const auto caveats = perf_column_caveats(MetricGroup::Memory,
                                           without(MetricGroup::Memory, "L1-dcache-store-misses"));
  CHECK(caveats == std::vector<std::string>{
                       "Memory leaves out l1_write_miss: this CPU does not count the events they "
                       "need",
                       "Memory's l1_hit_rate(%) is over reads alone: this CPU does not count the "
                       "other's requests and misses both"});
}

TEST_CASE("Instructions and HostActivity") {
  const auto instructions = perf_group_columns(
      MetricGroup::Instructions,
      {{"instructions", 3000}, {"cycles", 1500}, {"branches", 400}, {"branch-misses", 4}});
  CHECK(names(instructions) == perf_columns(MetricGroup::Instructions));
  CHECK(value(instructions, "ipc") == doctest::Approx(2.0));
  CHECK(value(instructions, "branch_miss_rate(%)") == doctest::Approx(1.0));
  const auto no_cycles =
      perf_group_columns(MetricGroup::Instructions, {{"instructions", 3000}, {"cycles", 0}});
  CHECK(names(no_cycles) == std::vector<std::string>{"instructions", "cycles"});

  const auto host = perf_group_columns(MetricGroup::HostActivity, {{"task-clock", 2'500'000},
                                                                   {"page-faults", 12},
                                                                   {"context-switches", 3},
                                                                   {"cpu-migrations", 1}});
  CHECK(names(host) == std::vector<std::string>{"task_clock(us)", "page_faults", "context_switches",
                                                "cpu_migrations"});
  CHECK(value(host, "task_clock(us)") == doctest::Approx(2500.0));
  CHECK(value(host, "page_faults") == 12);
}

}  // namespace
}  // namespace msprof::replay::perf
