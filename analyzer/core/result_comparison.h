#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

struct ComparisonRow {
  std::string range, kernel;   // kernel: "(kernels)" and "(wall)" for the range's totals
  std::size_t occurrence = 0;  // n-th launch of this kernel name in the range
  std::optional<PassStats> a, b;
  double ratio() const;  // b median / a median; NaN when a side is missing or zero
  // The pass ranges [min, max] do not overlap: the change is larger than the spread.
  bool significant() const;
};

// The verdict each result gives a range both or either replayed: a faster B
// that differs is not faster.
struct RangeVerdicts {
  std::string range, a, b;  // empty where that result did not replay it
};
std::vector<RangeVerdicts> verdicts_of(const ReplayResult& a, const ReplayResult& b);

// Pairs ranges by name and kernels by name and occurrence within their range,
// so results of a trace in range and kernel mode, or before and after a
// kernel change, line up. Sorted by the factor of change, largest first, then
// rows found in only one result.
std::vector<ComparisonRow> compare_results(const ReplayResult& a, const ReplayResult& b);
// Text and JSON of the rows, the verdicts, the variants, the metrics both
// results counted (metric_comparison.h), and last each result's variants'
// counted launches (variant_metrics.h).
std::string comparison_text(const ReplayResult& a, const ReplayResult& b,
                            const std::vector<ComparisonRow>& rows);
nlohmann::ordered_json comparison_json(const ReplayResult& a, const ReplayResult& b,
                                       const std::vector<ComparisonRow>& rows);

}  // namespace msprof::analyze
