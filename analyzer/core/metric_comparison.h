#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// One counter of one kernel launch in both results (--metrics).
struct MetricRow {
  std::string range, kernel;
  std::size_t occurrence = 0;  // n-th launch of this kernel name in the range
  std::string group, column;   // "L2Cache", "total_hit_rate(%)"
  double a = 0, b = 0;
  std::string a_backend, b_backend;  // sim or perf
  // A simulated count says what the simulator's model of the CPU did, a
  // perf count what the CPU did: neither is a change of the other.
  bool comparable() const { return a_backend == b_backend; }
  double difference() const { return b - a; }
  // (B - A) / A in percent: 0 when both are 0, +-infinity from a zero A,
  // NaN when not comparable or a value is missing.
  double change_pct() const;
  std::string metric() const { return group + "." + column; }
};

// Pairs kernels as compare_results does (ranges by name, kernels by name and
// occurrence) and gives, per pair, every column both counted, in A's order
// of ranges, kernels, groups and columns.
std::vector<MetricRow> compare_metrics(const ReplayResult& a, const ReplayResult& b);

// Every metric ("GROUP.COLUMN") some kernel of the result counted, in the
// order first met.
std::vector<std::string> metric_names(const ReplayResult& result);

// A value as counted: integers without decimals, others with three.
std::string metric_value_text(double value);
// "+3.23%", "-50.00%", "0.00%"; "from 0" from a zero A; "-" for NaN.
std::string change_text(double pct);

// The metrics section of `compare`'s text (after the time table) and JSON;
// "" and an empty object's fields when neither result counted any.
std::string metric_comparison_text(const ReplayResult& a, const ReplayResult& b,
                                   const std::vector<MetricRow>& rows);
nlohmann::ordered_json metric_comparison_json(const ReplayResult& a, const ReplayResult& b,
                                              const std::vector<MetricRow>& rows);

}  // namespace msprof::analyze
