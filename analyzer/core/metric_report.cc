#include "analyzer/core/metric_report.h"

#include <algorithm>
#include <limits>
#include <map>

#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/svg_chart.h"
#include "analyzer/core/variant_metrics.h"

namespace msprof::analyze {
namespace {

std::string e(const std::string& text) {
  return html_escape(text);
}

std::string kernel_label(const ResultKernel& k) {
  return "#" + std::to_string(k.seq) + " " + k.name;
}

const ResultRange* same_range(const ReplayResult* other, const std::string& name) {
  if (other == nullptr) return nullptr;
  for (const auto& r : other->ranges) {
    if (r.name == name && r.status == "replayed") return &r;
  }
  return nullptr;
}

// For each kernel of `r`, the kernel of `o` of the same name and
// occurrence, as compare pairs them; nullptr where `o` has none.
std::vector<const ResultKernel*> paired(const ResultRange& r, const ResultRange* o) {
  std::vector<const ResultKernel*> out(r.kernels.size(), nullptr);
  if (o == nullptr) return out;
  std::map<std::string, std::size_t> seen_r;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const std::size_t n = seen_r[r.kernels[i].name]++;
    std::size_t seen_o = 0;
    for (const auto& k : o->kernels) {
      if (k.name == r.kernels[i].name && seen_o++ == n) {
        out[i] = &k;
        break;
      }
    }
  }
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::vector<std::string> groups_of(const ResultRange& r, const ResultRange* o) {
  std::vector<std::string> out;
  for (const auto* range : {&r, o}) {
    if (range == nullptr) continue;
    for (const auto& k : range->kernels) {
      for (const auto& g : k.metrics) add_unique(out, g.group);
    }
  }
  return out;
}

std::vector<std::string> columns_of(const ResultRange& r, const ResultRange* o,
                                    const std::string& group) {
  std::vector<std::string> out;
  for (const auto* range : {&r, o}) {
    if (range == nullptr) continue;
    for (const auto& k : range->kernels) {
      if (const auto* g = k.find_metrics(group)) {
        for (const auto& [column, value] : g->columns) add_unique(out, column);
      }
    }
  }
  return out;
}

std::string backend_of(const ResultRange* r, const std::string& group) {
  if (r == nullptr) return "";
  for (const auto& k : r->kernels) {
    if (const auto* g = k.find_metrics(group)) return g->backend;
  }
  return "";
}

// NaN where the kernel did not count it.
double value_of(const ResultKernel* k, const std::string& group, const std::string& column) {
  if (k != nullptr) {
    if (const auto* g = k->find_metrics(group)) {
      if (const double* v = g->find(column)) return *v;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::string unit_of(const std::string& column) {
  for (const char* unit : {"%", "us"}) {
    const std::string suffix = "(" + std::string(unit) + ")";
    if (column.size() > suffix.size() && column.ends_with(suffix)) return unit;
  }
  return column;
}

std::string group_html(const ResultRange& r, const ReplayResult& result, const ResultRange* o,
                       const ReplayResult* other, const std::string& group) {
  const auto columns = columns_of(r, o, group);
  if (columns.empty()) return "";
  const auto partners = paired(r, o);
  std::string column = main_metric_column(group);
  if (std::find(columns.begin(), columns.end(), column) == columns.end()) column = columns[0];
  const std::string backend_a = backend_of(&r, group), backend_b = backend_of(o, group);
  std::vector<std::string> labels;
  Series sa{(o ? "A: " : "") + result.label() + (backend_a.empty() ? "" : " (" + backend_a + ")"),
            {}};
  Series sb{o ? "B: " + other->label() + (backend_b.empty() ? "" : " (" + backend_b + ")") : "",
            {}};
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    labels.push_back(kernel_label(r.kernels[i]));
    sa.values.push_back(value_of(&r.kernels[i], group, column));
    sb.values.push_back(value_of(partners[i], group, column));
  }
  std::vector<Series> series = {sa};
  if (o) series.push_back(sb);
  // Counts read best whole; rates and times with their decimals.
  bool whole = true;
  for (const auto& s : series) {
    for (const double v : s.values)
      whole = whole && metric_value_text(v).find('.') == std::string::npos;
  }
  std::string out = grouped_bar_svg(r.name + ": " + group + " " + column + " per kernel", labels,
                                    series, unit_of(column), whole ? 0 : 3);

  // Every column: one cell per kernel, or A's and B's side by side.
  out += "<table class=\"metrics\"><tr><th class=\"name\"" +
         std::string(o ? " rowspan=\"2\"" : "") + ">" + e(group) + "</th>";
  for (const auto& c : columns)
    out += "<th" + std::string(o ? " colspan=\"2\"" : "") + ">" + e(c) + "</th>";
  out += "</tr>";
  if (o) {
    out += "<tr>";
    for (std::size_t i = 0; i < columns.size(); ++i) out += "<th>A</th><th>B</th>";
    out += "</tr>";
  }
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const ResultKernel& k = r.kernels[i];
    if (k.find_metrics(group) == nullptr &&
        (partners[i] == nullptr || partners[i]->find_metrics(group) == nullptr))
      continue;
    out += "<tr><td class=\"name\">" + e(kernel_label(k)) + "</td>";
    for (const auto& c : columns) {
      const double va = value_of(&k, group, c);
      out += "<td>" + metric_value_text(va) + "</td>";
      if (!o) continue;
      const double vb = value_of(partners[i], group, c);
      const MetricRow row{r.name, k.name, 0, group, c, va, vb, backend_a, backend_b};
      const std::string change = row.comparable()
                                     ? change_text(row.change_pct())
                                     : "not comparable: A " + backend_a + ", B " + backend_b;
      out += "<td title=\"" + e(change) + "\">" + metric_value_text(vb) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</table>";
}

std::string meta_row(const std::string& k, const std::string& v) {
  return "<tr><th class=\"name\">" + e(k) + "</th><td>" + e(v) + "</td></tr>";
}

}  // namespace

std::string main_metric_column(const std::string& group) {
  static const std::map<std::string, std::string> main{
      {"L2Cache", "total_hit_rate(%)"},
      {"Memory", "l1_hit_rate(%)"},
      {"Instructions", "instructions"},
      {"HostActivity", "task_clock(us)"},
  };
  const auto found = main.find(group);
  return found == main.end() ? "" : found->second;
}

std::string range_metrics_html(const ResultRange& range, const ReplayResult& result,
                               const ReplayResult* other) {
  if (range.status != "replayed") return "";
  const ResultRange* o = same_range(other, range.name);
  const auto groups = groups_of(range, o);
  if (groups.empty()) return "";
  std::string out = "<h3>" + e(range.name) + ": metrics</h3>";
  for (const auto& group : groups) out += group_html(range, result, o, other, group);
  return out;
}

std::string metrics_meta_rows(const ReplayResult& result) {
  const ResultMetrics& m = result.metrics;
  if (m.groups.empty()) return "";
  std::string out = meta_row("metrics", m.groups_text() + ", " + std::to_string(m.counting_passes) +
                                            " counting pass(es) per range");
  if (!m.cache_model.empty()) out += meta_row("simulated cache", m.cache_model_text());
  if (!m.simulated_device.empty()) out += meta_row("simulated device", m.simulated_device);
  for (const auto& note : m.notes) out += meta_row("metrics note", note);
  return out;
}

std::string variant_metrics_html(const ResultRange& range) {
  const auto rows = variant_metric_rows(range);
  if (rows.empty()) return "";
  std::string out = "<h3>" + e(range.name) +
                    ": variant metrics</h3><table class=\"variant-metrics\"><tr><th "
                    "class=\"name\">variant</th><th class=\"name\">launch</th><th "
                    "class=\"name\">metric</th><th>recorded</th><th>variant</th><th>difference</"
                    "th><th>change</th></tr>";
  for (const auto& row : rows) {
    const MetricRow& m = row.metric;
    out += "<tr><td class=\"name\">" + e(row.variant) + "</td><td class=\"name\">#" +
           std::to_string(row.seq) + " " + e(m.kernel) + "</td><td class=\"name\">" +
           e(m.metric()) + "</td><td>" + metric_value_text(m.a) + "</td><td>" +
           metric_value_text(m.b) + "</td>";
    if (m.comparable()) {
      out += "<td>" + metric_value_text(m.difference()) + "</td><td>" +
             e(change_text(m.change_pct())) + "</td></tr>";
    } else {
      out += "<td colspan=\"2\" class=\"name\">not comparable: recorded " + e(m.a_backend) +
             ", variant " + e(m.b_backend) + "</td></tr>";
    }
  }
  return out + "</table>";
}

std::string metric_comparison_html(const ReplayResult& a, const ReplayResult& b) {
  const auto rows = compare_metrics(a, b);
  if (rows.empty()) return "";
  std::string out =
      "<h3>metrics, A against B</h3><table class=\"metric-comparison\"><tr><th "
      "class=\"name\">range</th><th class=\"name\">kernel</th><th "
      "class=\"name\">metric</th><th>A</th><th>B</th><th>B-A</th><th>change</th></tr>";
  for (const auto& row : rows) {
    const bool comparable = row.comparable();
    out += "<tr><td class=\"name\">" + e(row.range) + "</td><td class=\"name\">" + e(row.kernel) +
           (row.occurrence ? " #" + std::to_string(row.occurrence) : "") +
           "</td><td class=\"name\">" + e(row.metric()) + "</td><td>" + metric_value_text(row.a) +
           "</td><td>" + metric_value_text(row.b) + "</td>";
    if (comparable) {
      out += "<td>" + metric_value_text(row.difference()) + "</td><td>" +
             e(change_text(row.change_pct())) + "</td></tr>";
    } else {
      out += "<td colspan=\"2\" class=\"name\">not comparable: A " + e(row.a_backend) + ", B " +
             e(row.b_backend) + "</td></tr>";
    }
  }
  return out + "</table>";
}

}  // namespace msprof::analyze
