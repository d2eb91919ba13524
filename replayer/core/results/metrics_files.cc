#include "replayer/core/results/metrics_files.h"

#include <cmath>
#include <cstdio>

#include "replayer/core/results/summary_csv.h"

namespace msprof::replay {

std::string metric_value_text(double value) {
  if (!std::isfinite(value)) return "inf";
  char buf[40];
  if (value == std::floor(value) && std::fabs(value) < 1e18) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f", value);
  }
  return buf;
}

std::string group_csv(const KernelResult& kernel, MetricGroup group) {
  const GroupCounts* counts = kernel.counts_of(group);
  if (counts == nullptr) return "";
  std::string header = "Op Name,backend", row = csv_field(kernel.name) + "," + counts->backend;
  for (const auto& column : metric_columns(group)) {
    header += "," + std::string(column.name);
    const auto value = counts->value(column.name);
    row += "," + (value ? metric_value_text(*value) : std::string());
  }
  return header + "\n" + row + "\n";
}

}  // namespace msprof::replay
