#include "replayer/callgrind/simulated_counts.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace msprof::replay {
namespace {

// The events each group cannot do without, as callgrind names them.
std::vector<std::string_view> required_events(MetricGroup group) {
  switch (group) {
    case MetricGroup::L2Cache:
      return {"D1mr", "D1mw", "DLmr", "DLmw"};
    case MetricGroup::Memory:
      return {"Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw"};
    case MetricGroup::Instructions:
      return {"Ir"};
    case MetricGroup::BasicInfo:
    case MetricGroup::HostActivity:
      break;
  }
  return {};
}

std::optional<double> rate(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return std::nullopt;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

std::uint64_t minus(std::uint64_t a, std::uint64_t b) {
  return a > b ? a - b : 0;
}

class EventTotals {
 public:
  EventTotals(const CallgrindDump& dump, const CacheModel& model) : dump_(dump), model_(model) {}

  // A required event: checked before any value is asked for.
  std::uint64_t operator[](std::string_view event) const { return dump_.total(event).value_or(0); }
  bool has(std::string_view event) const { return dump_.total(event).has_value(); }
  bool has_branches() const { return has("Bc") && has("Bcm") && has("Bi") && has("Bim"); }

  std::uint64_t line_bytes(const char* level, const std::optional<CacheLevelModel>& asked,
                           const std::optional<CacheLevelModel>& described) const {
    const auto& known = asked ? asked : described;
    if (!known || known->line_bytes == 0) {
      throw ReplayError(std::string("no ") + level + " line size for callgrind output " +
                        dump_.file.string() + ": the cache model lacks " + level);
    }
    return known->line_bytes;
  }
  std::uint64_t d1_line() const { return line_bytes("D1", model_.d1, dump_.cache.d1); }
  std::uint64_t ll_line() const { return line_bytes("LL", model_.ll, dump_.cache.ll); }

 private:
  const CallgrindDump& dump_;
  const CacheModel& model_;
};

std::optional<double> count(std::uint64_t value) {
  return static_cast<double>(value);
}

std::optional<double> l2cache_value(std::string_view column, const EventTotals& e) {
  const std::uint64_t read_hit = minus(e["D1mr"], e["DLmr"]);
  const std::uint64_t write_hit = minus(e["D1mw"], e["DLmw"]);
  if (column == "read_cache_hit") return count(read_hit);
  if (column == "read_cache_miss") return count(e["DLmr"]);
  if (column == "write_cache_hit") return count(write_hit);
  if (column == "write_cache_miss") return count(e["DLmw"]);
  // The last level sees what the first one missed.
  if (column == "total_hit_rate(%)") return rate(read_hit + write_hit, e["D1mr"] + e["D1mw"]);
  return std::nullopt;
}

std::optional<double> memory_value(std::string_view column, const EventTotals& e) {
  const std::uint64_t requests = e["Dr"] + e["Dw"];
  const std::uint64_t l1_misses = e["D1mr"] + e["D1mw"];
  if (column == "l1_read_requests") return count(e["Dr"]);
  if (column == "l1_write_requests") return count(e["Dw"]);
  if (column == "l1_read_miss") return count(e["D1mr"]);
  if (column == "l1_write_miss") return count(e["D1mw"]);
  if (column == "l1_hit_rate(%)") return rate(minus(requests, l1_misses), requests);
  if (column == "ll_to_l1_bytes") return count(l1_misses * e.d1_line());
  if (column == "memory_to_ll_bytes") return count((e["DLmr"] + e["DLmw"]) * e.ll_line());
  return std::nullopt;
}

std::optional<double> instructions_value(std::string_view column, const EventTotals& e) {
  if (column == "instructions") return count(e["Ir"]);
  if (column == "loads" && e.has("Dr")) return count(e["Dr"]);
  if (column == "stores" && e.has("Dw")) return count(e["Dw"]);
  if (!e.has_branches()) return std::nullopt;
  const std::uint64_t branches = e["Bc"] + e["Bi"];
  const std::uint64_t misses = e["Bcm"] + e["Bim"];
  if (column == "branches") return count(branches);
  if (column == "branch_misses") return count(misses);
  if (column == "branch_miss_rate(%)") return rate(misses, branches);
  // cycles and ipc: the simulation has no clock.
  return std::nullopt;
}

}  // namespace

const std::vector<MetricGroup>& simulated_metric_groups() {
  static const std::vector<MetricGroup> groups{MetricGroup::L2Cache, MetricGroup::Memory,
                                               MetricGroup::Instructions};
  return groups;
}

bool is_simulated(MetricGroup group) {
  const auto& groups = simulated_metric_groups();
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

GroupCounts simulated_group_counts(MetricGroup group, const CallgrindDump& dump,
                                   const CacheModel& model) {
  if (!is_simulated(group)) {
    throw ReplayError("the callgrind simulation does not count " +
                      std::string(metric_group_name(group)));
  }
  for (const auto event : required_events(group)) {
    if (!dump.total(event)) {
      throw CallgrindDumpError("callgrind output " + dump.file.string() + " counted no " +
                               std::string(event) + " event, which " +
                               std::string(metric_group_name(group)) +
                               " needs; the simulation must run with --cache-sim=yes");
    }
  }
  const EventTotals events(dump, model);
  GroupCounts counts;
  counts.group = group;
  counts.backend = "sim";
  for (const auto& column : metric_columns(group)) {
    std::optional<double> value;
    switch (group) {
      case MetricGroup::L2Cache:
        value = l2cache_value(column.name, events);
        break;
      case MetricGroup::Memory:
        value = memory_value(column.name, events);
        break;
      case MetricGroup::Instructions:
        value = instructions_value(column.name, events);
        break;
      case MetricGroup::BasicInfo:
      case MetricGroup::HostActivity:
        break;
    }
    if (value) counts.values.emplace_back(std::string(column.name), *value);
  }
  return counts;
}

std::vector<GroupCounts> simulated_counts(const CallgrindDump& dump, const CacheModel& model,
                                          const std::vector<MetricGroup>& groups) {
  std::vector<GroupCounts> all;
  for (const MetricGroup group : groups) {
    if (is_simulated(group)) all.push_back(simulated_group_counts(group, dump, model));
  }
  return all;
}

}  // namespace msprof::replay
