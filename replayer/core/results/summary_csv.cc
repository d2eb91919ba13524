#include "replayer/core/results/summary_csv.h"

#include <cmath>
#include <cstdio>

#include "replayer/core/results/metrics_files.h"

namespace msprof::replay {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", value);
  return buf;
}

std::string summary_csv(const ReplayResult& result) {
  std::string out =
      "kind,range,status,launch,seq,kernel,folder,passes,median_us,min_us,max_us,mean_us,"
      "stddev_us,queued_median_us,kernel_sum_median_us,bytes,bandwidth_gbps,original_us,"
      "ratio_to_original,verification,reason,programs";
  // One column per counted figure, after the fixed ones: "L2Cache.total_hit_rate(%)".
  std::string metric_header;
  for (const MetricGroup group : result.metrics.groups) {
    for (const auto& column : metric_columns(group))
      metric_header +=
          "," + csv_field(std::string(metric_group_name(group)) + "." + std::string(column.name));
  }
  out += metric_header + "\n";
  const auto metric_cells = [&](const KernelResult* k) {
    std::string cells;
    for (const MetricGroup group : result.metrics.groups) {
      const GroupCounts* counts = k != nullptr ? k->counts_of(group) : nullptr;
      for (const auto& column : metric_columns(group)) {
        const auto value = counts != nullptr ? counts->value(column.name) : std::nullopt;
        cells += "," + (value ? metric_value_text(*value) : std::string());
      }
    }
    return cells;
  };
  const auto n = [](double v) { return format_number(v); };
  for (const auto& r : result.ranges) {
    const std::string verification(verification_status_name(r.verification.status));
    const auto& w = r.wall_us;
    out += "range," + csv_field(r.name) + "," + std::string(range_outcome_name(r.outcome)) +
           ",,,,," + std::to_string(r.passes) + "," + n(w.median) + "," + n(w.min) + "," +
           n(w.max) + "," + n(w.mean) + "," + n(w.stddev) + ",," + n(r.kernel_sum_us.median) + "," +
           std::to_string(r.restored_bytes) + ",,,," + verification + "," + csv_field(r.reason) +
           "," + csv_field(r.program_source) + metric_cells(nullptr) + "\n";
    for (const auto& k : r.kernels) {
      const auto& d = k.duration_us;
      out += "kernel," + csv_field(r.name) + "," + std::string(range_outcome_name(r.outcome)) +
             "," + std::to_string(k.launch) + "," + std::to_string(k.seq) + "," +
             csv_field(k.name) + "," + csv_field(k.folder) + "," + std::to_string(r.passes) + "," +
             n(d.median) + "," + n(d.min) + "," + n(d.max) + "," + n(d.mean) + "," + n(d.stddev) +
             "," + n(k.queued_stats_us.median) + ",," + std::to_string(k.bytes) + "," +
             n(k.bandwidth_gbps) + "," + n(k.original_us) + "," + n(k.ratio_to_original) + "," +
             verification + ",," + metric_cells(&k) + "\n";
    }
  }
  return out;
}

}  // namespace msprof::replay
