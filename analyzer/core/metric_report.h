#pragma once

#include <string>

#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// The column a group's chart shows: its rate, or its main count.
std::string main_metric_column(const std::string& group);

// The HTML report's metrics of one range (--metrics): per counted group a
// bar chart of its main column per kernel and a table of every column;
// with `other` (its range of the same name), both side by side. "" when
// neither counted anything in it.
std::string range_metrics_html(const ResultRange& range, const ReplayResult& result,
                               const ReplayResult* other);

// Rows for the result's metadata table: groups and backends, the simulated
// cache and device, the notes of the counting passes.
std::string metrics_meta_rows(const ReplayResult& result);

// The range's variants' counted launches against the recorded launches of
// the same seq (variant_metrics.h): a table of recorded, variant, difference
// and change per column; "" when no variant's launch was counted.
std::string variant_metrics_html(const ResultRange& range);

// The metric comparison table (A, B, B-A, change) of the report's
// comparison section; "" when the results share no counted metric.
std::string metric_comparison_html(const ReplayResult& a, const ReplayResult& b);

}  // namespace msprof::analyze
