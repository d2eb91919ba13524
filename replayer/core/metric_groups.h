#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprof::replay {

// The counter groups a replay collects, as msprof op's --aic-metrics names
// its CSV files. BasicInfo is the timed passes, always collected; the others
// come from counting passes after them.
enum class MetricGroup { BasicInfo, L2Cache, Memory, Instructions, HostActivity };

// Who counts: perf (hardware and software counters of this host's CPU
// through perf_event_open), sim (callgrind's simulated caches and
// instructions), or auto (perf where the host has a PMU, sim otherwise).
enum class CounterBackendChoice { Auto, Perf, Sim };

std::string_view metric_group_name(MetricGroup group);
std::string_view counter_backend_name(CounterBackendChoice choice);
// Every group, in the order results list them.
const std::vector<MetricGroup>& all_metric_groups();

// "L2Cache,Memory" or "L2Cache|Memory"; "Default" for every group.
// BasicInfo is implied; each group once, in all_metric_groups() order.
// UsageError naming the groups when one is unknown.
std::vector<MetricGroup> parse_metric_groups(std::string_view text);

struct MetricColumn {
  std::string_view name;     // the CSV header, msprof op's spelling where it has one
  std::string_view meaning;  // one line for --list-metrics and the docs
};
// The columns of a counted group (not BasicInfo), in CSV order.
const std::vector<MetricColumn>& metric_columns(MetricGroup group);

// One group's figures for one kernel launch, all from the same counting
// pass. A column the backend cannot count is absent, not zero.
struct GroupCounts {
  MetricGroup group = MetricGroup::L2Cache;
  std::string backend;  // "perf" or "sim"
  std::vector<std::pair<std::string, double>> values;
  std::optional<double> value(std::string_view column) const;
};

// A cache level of a simulated cache model.
struct CacheLevelModel {
  std::uint64_t size_bytes = 0;
  unsigned ways = 0;
  unsigned line_bytes = 0;
  std::uint64_t sets() const;
  std::string text() const;  // "32768 B, 8-way, 64 B lines"
};

// The cache a simulation models. A level left empty takes the device's.
struct CacheModel {
  std::optional<CacheLevelModel> i1, d1, ll;
  bool empty() const { return !i1 && !d1 && !ll; }
};

// "48K" -> 49152, "4M", "4096": a byte count with an optional K, M or G
// suffix (sysfs writes cache sizes so); nullopt when it is not one.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// Adds one --cache-model spec, LEVEL=SIZE[,WAYS[,LINE]] (LEVEL I1, D1 or
// LL; SIZE with K/M/G), to `model`; ways and line left out stay 0 and are
// taken from the device's level. UsageError, naming the fix, when malformed.
void add_cache_model_spec(CacheModel& model, std::string_view spec);
// Fills what `model` leaves out from `device`, and checks what callgrind's
// simulator needs (a power-of-two line and number of sets); UsageError
// naming the level and the fix otherwise.
CacheModel complete_cache_model(const CacheModel& model, const CacheModel& device);

}  // namespace msprof::replay
