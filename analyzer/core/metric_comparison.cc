#include "analyzer/core/metric_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "analyzer/core/number_format.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using nlohmann::ordered_json;

namespace {

using Key = std::tuple<std::string, std::string, std::size_t>;  // range, kernel, occurrence

std::map<Key, const ResultKernel*> kernels_of(const ReplayResult& result) {
  std::map<Key, const ResultKernel*> out;
  for (const auto& r : result.ranges) {
    if (r.status != "replayed") continue;
    std::map<std::string, std::size_t> seen;
    for (const auto& k : r.kernels) out.try_emplace(Key{r.name, k.name, seen[k.name]++}, &k);
  }
  return out;
}

bool has_metrics(const ReplayResult& r) {
  return !r.metrics.groups.empty() || !metric_names(r).empty();
}

// "L2Cache (sim), Instructions (sim)\n  simulated cache: ...\n  simulated device: X\n"
std::string setup_text(const ReplayResult& r) {
  std::string out = r.metrics.groups_text();
  if (out.empty()) out = "none";
  out += "\n";
  if (!r.metrics.cache_model.empty())
    out += "  simulated cache: " + r.metrics.cache_model_text() + "\n";
  if (!r.metrics.simulated_device.empty())
    out += "  simulated device: " + printable(r.metrics.simulated_device) + "\n";
  return out;
}

ordered_json setup_json(const ReplayResult& r) {
  if (!has_metrics(r)) return nullptr;
  ordered_json backends = ordered_json::object();
  for (const auto& [group, backend] : r.metrics.backends) backends[group] = backend;
  ordered_json model = nullptr;
  for (const auto& level : r.metrics.cache_model) {
    model[level.name] = {
        {"size_bytes", level.size_bytes}, {"ways", level.ways}, {"line_bytes", level.line_bytes}};
  }
  return {{"groups", r.metrics.groups},
          {"backends", backends},
          {"counting_passes", r.metrics.counting_passes},
          {"cache_model", model},
          {"simulated_device", r.metrics.simulated_device},
          {"notes", r.metrics.notes}};
}

bool backends_differ(const std::vector<MetricRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const MetricRow& r) { return !r.comparable(); });
}

ordered_json finite_or_null(double v) {
  return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr);
}

}  // namespace

double MetricRow::change_pct() const {
  if (!comparable() || std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0) {
    if (b == 0) return 0;
    return b > 0 ? std::numeric_limits<double>::infinity()
                 : -std::numeric_limits<double>::infinity();
  }
  return (b - a) / std::fabs(a) * 100.0;
}

std::vector<MetricRow> compare_metrics(const ReplayResult& a, const ReplayResult& b) {
  const auto in_b = kernels_of(b);
  std::vector<MetricRow> out;
  for (const auto& r : a.ranges) {
    if (r.status != "replayed") continue;
    std::map<std::string, std::size_t> seen;
    for (const auto& ka : r.kernels) {
      const std::size_t occurrence = seen[ka.name]++;
      const auto found = in_b.find(Key{r.name, ka.name, occurrence});
      if (found == in_b.end()) continue;
      const ResultKernel& kb = *found->second;
      for (const auto& ga : ka.metrics) {
        const KernelMetricGroup* gb = kb.find_metrics(ga.group);
        if (gb == nullptr) continue;
        for (const auto& [column, va] : ga.columns) {
          const double* vb = gb->find(column);
          if (vb == nullptr) continue;
          out.push_back(MetricRow{r.name, ka.name, occurrence, ga.group, column, va, *vb,
                                  ga.backend, gb->backend});
        }
      }
    }
  }
  return out;
}

std::vector<std::string> metric_names(const ReplayResult& result) {
  std::vector<std::string> out;
  for (const auto& r : result.ranges) {
    for (const auto& k : r.kernels) {
      for (const auto& g : k.metrics) {
        for (const auto& [column, value] : g.columns) {
          const std::string name = g.group + "." + column;
          if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        }
      }
    }
  }
  return out;
}

std::string metric_value_text(double value) {
  if (std::isfinite(value) && value == std::round(value) && std::fabs(value) < 1e15)
    return fixed(value, 0);
  return fixed(value, 3);
}

std::string change_text(double pct) {
  if (std::isnan(pct)) return "-";
  if (std::isinf(pct)) return "from 0";
  return (pct > 0 ? "+" : "") + fixed(pct, 2) + "%";
}

std::string metric_comparison_text(const ReplayResult& a, const ReplayResult& b,
                                   const std::vector<MetricRow>& rows) {
  const bool in_a = has_metrics(a), in_b = has_metrics(b);
  if (!in_a && !in_b) return "";
  if (!in_a || !in_b) {
    return "\nmetrics of " + std::string(in_a ? "A" : "B") + ": " + setup_text(in_a ? a : b) +
           "  " + (in_a ? "B" : "A") + " counted none: nothing to compare\n";
  }
  std::string out = "\n";
  const std::string sa = setup_text(a), sb = setup_text(b);
  if (sa == sb) {
    out += "metrics of A and B: " + sa;
  } else {
    out += "metrics of A: " + sa + "metrics of B: " + sb;
    if (backends_differ(rows)) {
      out +=
          "  a simulated count and a perf count are not comparable: their lines say so instead "
          "of a change\n";
    }
    if (a.metrics.cache_model_text() != b.metrics.cache_model_text() &&
        !a.metrics.cache_model.empty() && !b.metrics.cache_model.empty()) {
      out += "  the simulated caches differ: a change is the cache model's as much as the code's\n";
    }
  }
  if (rows.empty()) return out + "  no kernel of both results counted the same metric\n";
  std::vector<std::vector<std::string>> table = {
      {"range", "kernel", "metric", "A", "B", "B-A", "change"}};
  for (const auto& row : rows) {
    std::string kernel = printable(row.kernel);
    if (row.occurrence) kernel += " #" + std::to_string(row.occurrence);
    const bool comparable = row.comparable();
    table.push_back({printable(row.range), kernel, printable(row.metric()),
                     metric_value_text(row.a), metric_value_text(row.b),
                     comparable ? metric_value_text(row.difference()) : "-",
                     comparable ? change_text(row.change_pct())
                                : "not comparable: A " + row.a_backend + ", B " + row.b_backend});
  }
  const bool sentences = backends_differ(rows);
  // The change column holds sentences where backends differ: then left-aligned.
  out += aligned_table(table, [&](std::size_t i) { return i >= 3 && (i < 6 || !sentences); });
  return out;
}

ordered_json metric_comparison_json(const ReplayResult& a, const ReplayResult& b,
                                    const std::vector<MetricRow>& rows) {
  ordered_json list = ordered_json::array();
  for (const auto& row : rows) {
    const bool comparable = row.comparable();
    list.push_back({{"range", row.range},
                    {"kernel", row.kernel},
                    {"occurrence", row.occurrence},
                    {"group", row.group},
                    {"column", row.column},
                    {"a", finite_or_null(row.a)},
                    {"b", finite_or_null(row.b)},
                    {"a_backend", row.a_backend},
                    {"b_backend", row.b_backend},
                    {"comparable", comparable},
                    {"difference", comparable ? finite_or_null(row.difference()) : nullptr},
                    {"change_pct", finite_or_null(row.change_pct())}});
  }
  return {{"a", setup_json(a)}, {"b", setup_json(b)}, {"rows", list}};
}

}  // namespace msprof::analyze
