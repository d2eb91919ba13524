#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// One counter of a changed launch as a workbench variant ran it, beside the
// recorded launch of the same seq (--metrics counts both in the same passes).
struct VariantMetricRow {
  std::string variant;    // its label
  std::uint64_t seq = 0;  // the launch, as ranges[].kernels[].seq numbers it
  // range and kernel; a: the recorded launch, b: the variant's.
  MetricRow metric;
};

// Per counted launch of each variant of a replayed range (in the order
// written), every column that launch and the recorded launch of the same seq
// both counted, in the variant's order of groups and columns.
std::vector<VariantMetricRow> variant_metric_rows(const ResultRange& range);
// The same for every range of the result.
std::vector<VariantMetricRow> variant_metric_rows(const ReplayResult& result);

// `compare`'s "variant metrics of A:" block (`name` "A" or "B"): range,
// variant, launch, metric, the recorded value, the variant's, the difference
// and the change, formatted as the metric comparison's rows; "" when no
// variant of the result has a counted launch.
std::string variant_metrics_text(const ReplayResult& result, const std::string& name);
// `compare`'s JSON rows of it, tagged with `name` ("a" or "b") as its
// variants are.
nlohmann::ordered_json variant_metrics_json(const ReplayResult& result, const std::string& name);

}  // namespace msprof::analyze
