#include "analyzer/core/variant_metrics.h"

#include <algorithm>
#include <cmath>

#include "analyzer/core/number_format.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using nlohmann::ordered_json;

namespace {

const ResultKernel* recorded_launch(const ResultRange& range, std::uint64_t seq) {
  for (const auto& k : range.kernels) {
    if (k.seq == seq) return &k;
  }
  return nullptr;
}

bool any_counted(const ReplayResult& result) {
  for (const auto& r : result.ranges) {
    for (const auto& v : r.variants) {
      if (!v.launch_metrics.empty()) return true;
    }
  }
  return false;
}

ordered_json finite_or_null(double v) {
  return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr);
}

}  // namespace

std::vector<VariantMetricRow> variant_metric_rows(const ResultRange& range) {
  std::vector<VariantMetricRow> out;
  if (range.status != "replayed") return out;
  for (const auto& v : range.variants) {
    for (const auto& launch : v.launch_metrics) {
      const ResultKernel* recorded = recorded_launch(range, launch.seq);
      if (recorded == nullptr) continue;
      for (const auto& g : launch.metrics) {
        const KernelMetricGroup* rg = recorded->find_metrics(g.group);
        if (rg == nullptr) continue;
        for (const auto& [column, value] : g.columns) {
          const double* rv = rg->find(column);
          if (rv == nullptr) continue;
          out.push_back(VariantMetricRow{v.label, launch.seq,
                                         MetricRow{range.name, launch.name, 0, g.group, column, *rv,
                                                   value, rg->backend, g.backend}});
        }
      }
    }
  }
  return out;
}

std::vector<VariantMetricRow> variant_metric_rows(const ReplayResult& result) {
  std::vector<VariantMetricRow> out;
  for (const auto& r : result.ranges) {
    const auto rows = variant_metric_rows(r);
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

std::string variant_metrics_text(const ReplayResult& result, const std::string& name) {
  if (!any_counted(result)) return "";
  std::string out = "\nvariant metrics of " + name +
                    " (each changed launch against the recorded launch of the same seq):\n";
  const auto rows = variant_metric_rows(result);
  if (rows.empty()) return out + "  no recorded launch of the same seq counted the same metrics\n";
  std::vector<std::vector<std::string>> table = {
      {"range", "variant", "launch", "metric", "recorded", "variant", "difference", "change"}};
  bool sentences = false;
  for (const auto& row : rows) {
    const MetricRow& m = row.metric;
    const bool comparable = m.comparable();
    sentences = sentences || !comparable;
    table.push_back({printable(m.range), printable(row.variant),
                     "#" + std::to_string(row.seq) + " " + printable(m.kernel),
                     printable(m.metric()), metric_value_text(m.a), metric_value_text(m.b),
                     comparable ? metric_value_text(m.difference()) : "-",
                     comparable
                         ? change_text(m.change_pct())
                         : "not comparable: recorded " + m.a_backend + ", variant " + m.b_backend});
  }
  // The change column holds sentences where backends differ: then left-aligned.
  out += aligned_table(table, [&](std::size_t i) { return i >= 4 && (i < 7 || !sentences); });
  return out;
}

ordered_json variant_metrics_json(const ReplayResult& result, const std::string& name) {
  ordered_json list = ordered_json::array();
  for (const auto& row : variant_metric_rows(result)) {
    const MetricRow& m = row.metric;
    const bool comparable = m.comparable();
    list.push_back({{"result", name},
                    {"range", m.range},
                    {"label", row.variant},
                    {"seq", row.seq},
                    {"kernel", m.kernel},
                    {"group", m.group},
                    {"column", m.column},
                    {"recorded", finite_or_null(m.a)},
                    {"variant", finite_or_null(m.b)},
                    {"recorded_backend", m.a_backend},
                    {"variant_backend", m.b_backend},
                    {"comparable", comparable},
                    {"difference", comparable ? finite_or_null(m.difference()) : nullptr},
                    {"change_pct", finite_or_null(m.change_pct())}});
  }
  return list;
}

}  // namespace msprof::analyze
