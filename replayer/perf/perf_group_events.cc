#include "replayer/perf/perf_group_events.h"

#include <linux/perf_event.h>

#include <algorithm>
#include <optional>

namespace msprof::replay::perf {

namespace {

constexpr std::uint64_t cache_event(std::uint64_t cache, std::uint64_t op, std::uint64_t result) {
  return cache | (op << 8) | (result << 16);
}

constexpr PerfEvent kLlLoads{"LLC-loads", PERF_TYPE_HW_CACHE,
                             cache_event(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
                                         PERF_COUNT_HW_CACHE_RESULT_ACCESS)};
constexpr PerfEvent kLlLoadMisses{"LLC-load-misses", PERF_TYPE_HW_CACHE,
                                  cache_event(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
                                              PERF_COUNT_HW_CACHE_RESULT_MISS)};
constexpr PerfEvent kLlStores{"LLC-stores", PERF_TYPE_HW_CACHE,
                              cache_event(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_WRITE,
                                          PERF_COUNT_HW_CACHE_RESULT_ACCESS)};
constexpr PerfEvent kLlStoreMisses{"LLC-store-misses", PERF_TYPE_HW_CACHE,
                                   cache_event(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_WRITE,
                                               PERF_COUNT_HW_CACHE_RESULT_MISS)};
constexpr PerfEvent kL1Loads{"L1-dcache-loads", PERF_TYPE_HW_CACHE,
                             cache_event(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
                                         PERF_COUNT_HW_CACHE_RESULT_ACCESS)};
constexpr PerfEvent kL1LoadMisses{"L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
                                  cache_event(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
                                              PERF_COUNT_HW_CACHE_RESULT_MISS)};
constexpr PerfEvent kL1Stores{"L1-dcache-stores", PERF_TYPE_HW_CACHE,
                              cache_event(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_WRITE,
                                          PERF_COUNT_HW_CACHE_RESULT_ACCESS)};
constexpr PerfEvent kL1StoreMisses{
    "L1-dcache-store-misses", PERF_TYPE_HW_CACHE,
    cache_event(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_WRITE,
                PERF_COUNT_HW_CACHE_RESULT_MISS)};
constexpr PerfEvent kInstructions{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS};
constexpr PerfEvent kCycles{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES};
constexpr PerfEvent kBranches{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS};
constexpr PerfEvent kBranchMisses{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES};
constexpr PerfEvent kTaskClock{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
constexpr PerfEvent kPageFaults{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS};
constexpr PerfEvent kContextSwitches{"context-switches", PERF_TYPE_SOFTWARE,
                                     PERF_COUNT_SW_CONTEXT_SWITCHES};
constexpr PerfEvent kCpuMigrations{"cpu-migrations", PERF_TYPE_SOFTWARE,
                                   PERF_COUNT_SW_CPU_MIGRATIONS};

std::optional<double> count_of(const EventCounts& counts, const PerfEvent& event) {
  for (const auto& [name, count] : counts) {
    if (name == event.name) return count;
  }
  return std::nullopt;
}

// Builds a group's columns: each put only when its inputs are there.
class ColumnList {
 public:
  void put(std::string_view column, std::optional<double> value) {
    if (value) values_.emplace_back(std::string(column), *value);
  }
  std::vector<std::pair<std::string, double>> take() { return std::move(values_); }

 private:
  std::vector<std::pair<std::string, double>> values_;
};

// Counted accesses less counted misses; a multiplexed estimate may put the
// misses a little above the accesses, never fewer than no hits.
std::optional<double> hits(std::optional<double> accesses, std::optional<double> misses) {
  if (!accesses || !misses) return std::nullopt;
  return std::max(0.0, *accesses - *misses);
}

std::optional<double> ratio(std::optional<double> part, std::optional<double> whole, double scale) {
  if (!part || !whole || *whole <= 0) return std::nullopt;
  return *part / *whole * scale;
}

std::optional<double> sum(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

std::vector<std::pair<std::string, double>> l2_cache_columns(const EventCounts& counts) {
  const auto loads = count_of(counts, kLlLoads);
  const auto load_misses = count_of(counts, kLlLoadMisses);
  const auto stores = count_of(counts, kLlStores);
  const auto store_misses = count_of(counts, kLlStoreMisses);
  ColumnList columns;
  columns.put("read_cache_hit", hits(loads, load_misses));
  columns.put("read_cache_miss", load_misses);
  columns.put("write_cache_hit", hits(stores, store_misses));
  columns.put("write_cache_miss", store_misses);
  // "total" is reads and writes: with either missing there is no total.
  columns.put("total_hit_rate(%)", ratio(sum(hits(loads, load_misses), hits(stores, store_misses)),
                                         sum(loads, stores), 100.0));
  return columns.take();
}

std::vector<std::pair<std::string, double>> memory_columns(const EventCounts& counts) {
  const auto loads = count_of(counts, kL1Loads);
  const auto load_misses = count_of(counts, kL1LoadMisses);
  const auto stores = count_of(counts, kL1Stores);
  const auto store_misses = count_of(counts, kL1StoreMisses);
  ColumnList columns;
  columns.put("l1_read_requests", loads);
  columns.put("l1_write_requests", stores);
  columns.put("l1_read_miss", load_misses);
  columns.put("l1_write_miss", store_misses);
  // Over the requests whose misses are counted too: most CPUs count no L1
  // store misses, and reads alone still say how the first level serves.
  std::optional<double> hit_count = hits(loads, load_misses);
  std::optional<double> requests = load_misses ? loads : std::nullopt;
  if (const auto write_hits = hits(stores, store_misses)) {
    hit_count = hit_count.value_or(0) + *write_hits;
    requests = requests.value_or(0) + *stores;
  }
  columns.put("l1_hit_rate(%)", ratio(hit_count, requests, 100.0));
  // ll_to_l1_bytes and memory_to_ll_bytes are left out: misses x line
  // leaves out what prefetchers and write-backs move, so it is no byte count.
  return columns.take();
}

std::vector<std::pair<std::string, double>> instructions_columns(const EventCounts& counts) {
  const auto instructions = count_of(counts, kInstructions);
  const auto cycles = count_of(counts, kCycles);
  const auto branches = count_of(counts, kBranches);
  const auto branch_misses = count_of(counts, kBranchMisses);
  ColumnList columns;
  columns.put("instructions", instructions);
  columns.put("cycles", cycles);
  columns.put("ipc", ratio(instructions, cycles, 1.0));
  // loads and stores have no generic perf event: left out.
  columns.put("branches", branches);
  columns.put("branch_misses", branch_misses);
  columns.put("branch_miss_rate(%)", ratio(branch_misses, branches, 100.0));
  return columns.take();
}

std::vector<std::pair<std::string, double>> host_activity_columns(const EventCounts& counts) {
  ColumnList columns;
  const auto task_clock_ns = count_of(counts, kTaskClock);
  columns.put("task_clock(us)",
              task_clock_ns ? std::optional<double>(*task_clock_ns / 1000.0) : std::nullopt);
  columns.put("page_faults", count_of(counts, kPageFaults));
  columns.put("context_switches", count_of(counts, kContextSwitches));
  columns.put("cpu_migrations", count_of(counts, kCpuMigrations));
  return columns.take();
}

std::vector<std::string> column_names(const std::vector<std::pair<std::string, double>>& values) {
  std::vector<std::string> names;
  for (const auto& [name, value] : values) names.push_back(name);
  return names;
}

// Every event of `events` counted once: enough to see which columns they
// give (no ratio's denominator is zero).
EventCounts one_of_each(const std::vector<PerfEvent>& events) {
  EventCounts counts;
  for (const PerfEvent& event : events) counts.emplace_back(event.name, 1.0);
  return counts;
}

}  // namespace

const std::vector<PerfEvent>& perf_events_of(MetricGroup group) {
  static const std::vector<PerfEvent> l2{kLlLoads, kLlLoadMisses, kLlStores, kLlStoreMisses};
  static const std::vector<PerfEvent> memory{kL1Loads, kL1LoadMisses, kL1Stores, kL1StoreMisses};
  static const std::vector<PerfEvent> instructions{kInstructions, kCycles, kBranches,
                                                   kBranchMisses};
  static const std::vector<PerfEvent> host{kTaskClock, kPageFaults, kContextSwitches,
                                           kCpuMigrations};
  static const std::vector<PerfEvent> none;
  switch (group) {
    case MetricGroup::L2Cache:
      return l2;
    case MetricGroup::Memory:
      return memory;
    case MetricGroup::Instructions:
      return instructions;
    case MetricGroup::HostActivity:
      return host;
    case MetricGroup::BasicInfo:
      break;
  }
  return none;
}

bool needs_pmu(MetricGroup group) {
  const auto& events = perf_events_of(group);
  return std::any_of(events.begin(), events.end(),
                     [](const PerfEvent& event) { return event.type != PERF_TYPE_SOFTWARE; });
}

std::vector<std::pair<std::string, double>> perf_group_columns(MetricGroup group,
                                                               const EventCounts& counts) {
  switch (group) {
    case MetricGroup::L2Cache:
      return l2_cache_columns(counts);
    case MetricGroup::Memory:
      return memory_columns(counts);
    case MetricGroup::Instructions:
      return instructions_columns(counts);
    case MetricGroup::HostActivity:
      return host_activity_columns(counts);
    case MetricGroup::BasicInfo:
      break;
  }
  return {};
}

std::vector<std::string> perf_columns(MetricGroup group) {
  return column_names(perf_group_columns(group, one_of_each(perf_events_of(group))));
}

std::vector<std::string> perf_column_caveats(MetricGroup group,
                                             const std::vector<PerfEvent>& counted) {
  const std::vector<std::string> given =
      column_names(perf_group_columns(group, one_of_each(counted)));
  std::vector<std::string> caveats;
  std::string missing;
  for (const std::string& column : perf_columns(group)) {
    if (std::find(given.begin(), given.end(), column) == given.end()) {
      missing += (missing.empty() ? "" : ", ") + column;
    }
  }
  const std::string group_name(metric_group_name(group));
  if (!missing.empty()) {
    caveats.push_back(group_name + " leaves out " + missing +
                      ": this CPU does not count the events they need");
  }
  const auto has = [&](const PerfEvent& event) {
    return std::any_of(counted.begin(), counted.end(),
                       [&](const PerfEvent& e) { return e.name == event.name; });
  };
  const bool reads = has(kL1Loads) && has(kL1LoadMisses);
  const bool writes = has(kL1Stores) && has(kL1StoreMisses);
  if (group == MetricGroup::Memory && reads != writes) {
    caveats.push_back(std::string("Memory's l1_hit_rate(%) is over ") +
                      (reads ? "reads" : "writes") +
                      " alone: this CPU does not count the other's requests and misses both");
  }
  return caveats;
}

}  // namespace msprof::replay::perf
