#include "analyzer/core/html_report.h"

#include <cmath>

#include "analyzer/core/metric_report.h"
#include "analyzer/core/number_format.h"
#include "analyzer/core/result_comparison.h"
#include "analyzer/core/svg_chart.h"

namespace msprof::analyze {
namespace {

constexpr const char* kStyle =
    R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:12px 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f0f0f0}
td.name,th.name{text-align:left}.meta td{text-align:left}.skipped{color:#a33}
svg.chart{display:block;margin:12px 0;background:#fff}.differs{color:#a33;font-weight:bold})";

std::string e(const std::string& text) {
  return html_escape(text);
}
std::string f3(double v) {
  return fixed(v, 3);
}

std::string kernel_label(const ResultKernel& k) {
  return "#" + std::to_string(k.seq) + " " + k.name;
}

std::string list(const std::vector<std::uint64_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out.empty() ? "-" : out;
}

std::string meta_table(const ReplayResult& r) {
  std::string out = "<table class=\"meta\">";
  const auto row = [&](const std::string& k, const std::string& v) {
    out += "<tr><th class=\"name\">" + e(k) + "</th><td>" + e(v) + "</td></tr>";
  };
  row("result", r.path);
  row("trace", r.trace);
  row("created", r.created);
  row("device", r.device_name + (r.platform.empty() ? "" : " (" + r.platform + ")"));
  row("replay mode", r.replay_mode);
  row("passes",
      std::to_string(r.launch_count) + " measured, " + std::to_string(r.warm_up) + " warm-up");
  row("cache control", r.cache_control);
  for (const auto& note : r.notes) row("note", note);
  return out + metrics_meta_rows(r) + "</table>";
}

std::string kernel_table(const ResultRange& r) {
  std::string out =
      "<table class=\"kernels\"><tr><th "
      "class=\"name\">kernel</th><th>global</th><th>local</th><th>median us</th>"
      "<th>min us</th><th>max us</th><th>mean us</th><th>stddev us</th><th>original "
      "us</th><th>replay/original</th>"
      "<th>GB/s</th></tr>";
  for (const auto& k : r.kernels) {
    out += "<tr><td class=\"name\">" + e(kernel_label(k)) + "</td><td>" + list(k.global_size) +
           "</td><td>" + list(k.local_size) + "</td><td>" + f3(k.duration.median) + "</td><td>" +
           f3(k.duration.min) + "</td><td>" + f3(k.duration.max) + "</td><td>" +
           f3(k.duration.mean) + "</td><td>" + f3(k.duration.stddev) + "</td><td>" +
           (k.original_us > 0 ? f3(k.original_us) : "-") + "</td><td>" +
           (k.ratio_to_original > 0 ? f3(k.ratio_to_original) : "-") + "</td><td>" +
           f3(k.bandwidth_gbps) + "</td></tr>";
  }
  return out + "</table>";
}

// The workbench's variants of a range against the recorded range, measured
// in passes beside its own.
std::string variants_section(const ResultRange& r) {
  if (r.variants.empty()) return "";
  std::string out = "<h3>" + e(r.name) + ": variants</h3>";
  std::vector<Bar> bars = {{"recorded", r.wall.median, r.wall.min, r.wall.max}};
  out +=
      "<table><tr><th>variant</th><th>changed kernels</th><th>median us</th><th>x recorded</th>"
      "<th>range median us</th><th>x recorded</th><th>beyond spread</th><th>verification</th>"
      "</tr>";
  for (const auto& v : r.variants) {
    std::string kernels;
    for (const auto& k : v.changed_kernels) kernels += (kernels.empty() ? "" : ", ") + k;
    if (v.status == "failed") {
      out += "<tr><td class=\"name\">" + e(v.label) + "</td><td>" + e(kernels) +
             "</td><td colspan=\"6\" class=\"differs\">failed: " + e(v.reason) + "</td></tr>";
      continue;
    }
    bars.push_back({v.label, v.wall.median, v.wall.min, v.wall.max});
    const bool verified = v.verification == "bit-exact" || v.verification == "within tolerance" ||
                          v.verification == "nothing to verify";
    out += "<tr><td class=\"name\">" + e(v.label) + (r.best_variant == v.label ? " (best)" : "") +
           "</td><td>" + e(kernels) + "</td><td>" + f3(v.changed.median) + "</td><td>" +
           f3(v.changed_ratio) + "</td><td>" + f3(v.wall.median) + "</td><td>" + f3(v.ratio) +
           "</td><td>" + (v.beyond_spread ? "yes" : "no") + "</td><td" +
           (verified ? "" : " class=\"differs\"") + ">" + e(v.verification) + "</td></tr>";
  }
  out += "</table>";
  return out + bar_chart_svg(r.name +
                                 ": range wall median of each variant against the recorded "
                                 "range (whiskers: min..max)",
                             bars, "us");
}

std::string range_section(const ResultRange& r, const ReplayResult& result,
                          const ReplayResult* other) {
  std::string out = "<h2>range " + e(r.name) + "</h2>";
  if (r.status != "replayed") {
    return out + "<p class=\"skipped\">" + e(r.status) +
           (r.reason.empty() ? "" : ": " + e(r.reason)) + "</p>";
  }
  out += "<p>" + std::to_string(r.passes) + " passes, wall median " + f3(r.wall.median) + " us (" +
         f3(r.wall.min) + ".." + f3(r.wall.max) + "), kernels median " + f3(r.kernel_sum.median) +
         " us, program from " + e(r.program_source) + ", verification " +
         e(r.verification.empty() ? "-" : r.verification) +
         (r.verification_reason.empty() ? "" : " (" + e(r.verification_reason) + ")") + ", " +
         human_bytes(r.restored_bytes) + " restored per pass</p>";
  if (!r.verification_buffers.empty()) {
    out += "<ul class=\"verification\">";
    for (const auto& line : r.verification_buffers) out += "<li>" + e(line) + "</li>";
    out += "</ul>";
  }
  std::vector<Bar> bars;
  for (const auto& k : r.kernels)
    bars.push_back({kernel_label(k), k.duration.median, k.duration.min, k.duration.max});
  out += bar_chart_svg(r.name + ": kernel medians (whiskers: min..max)", bars, "us");

  std::vector<Series> passes;
  for (const auto& k : r.kernels) passes.push_back({kernel_label(k), k.passes_us});
  out += line_chart_svg(r.name + ": duration of each pass", passes, "pass", "us");

  bool have_original = false;
  for (const auto& k : r.kernels) have_original = have_original || k.original_us > 0;
  if (have_original) {
    std::vector<std::string> labels;
    Series replay{"replay median", {}}, original{"original run", {}};
    for (const auto& k : r.kernels) {
      labels.push_back(kernel_label(k));
      replay.values.push_back(k.duration.median);
      original.values.push_back(k.original_us);
    }
    out += grouped_bar_svg(r.name + ": replay against the original run", labels, {original, replay},
                           "us");
  }
  return out + kernel_table(r) + range_metrics_html(r, result, other) + variants_section(r) +
         variant_metrics_html(r);
}

std::string comparison_section(const ReplayResult& a, const ReplayResult& b) {
  const auto rows = compare_results(a, b);
  std::string out = "<h2>" + e(a.label()) + " against " + e(b.label()) + "</h2>";
  std::vector<std::string> labels;
  Series sa{"A: " + a.label(), {}}, sb{"B: " + b.label(), {}};
  for (const auto& row : rows) {
    if (!row.a || !row.b || row.kernel == "(wall)") continue;
    labels.push_back(row.range + " " + row.kernel +
                     (row.occurrence ? " #" + std::to_string(row.occurrence) : ""));
    sa.values.push_back(row.a->median);
    sb.values.push_back(row.b->median);
  }
  out += grouped_bar_svg("medians, A against B", labels, {sa, sb}, "us");
  out +=
      "<table class=\"comparison\"><tr><th class=\"name\">range</th><th "
      "class=\"name\">kernel</th><th>A median us</th>"
      "<th>B median us</th><th>B/A</th><th>beyond spread</th></tr>";
  for (const auto& row : rows) {
    const bool both = row.a && row.b;
    out += "<tr><td class=\"name\">" + e(row.range) + "</td><td class=\"name\">" + e(row.kernel) +
           (row.occurrence ? " #" + std::to_string(row.occurrence) : "") + "</td><td>" +
           (row.a ? f3(row.a->median) : "-") + "</td><td>" + (row.b ? f3(row.b->median) : "-") +
           "</td><td>" + f3(row.ratio()) + "</td><td" +
           (row.significant() ? " class=\"differs\">yes" : ">") +
           (both    ? (row.significant() ? "" : "no")
            : row.a ? "only in A"
                    : "only in B") +
           "</td></tr>";
  }
  return out + "</table>" + metric_comparison_html(a, b);
}

}  // namespace

std::string html_report(const ReplayResult& result, const ReplayResult* other) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>msprof replay "
      "report: " +
      e(result.trace.empty() ? result.path : result.trace) + "</title><style>" + kStyle +
      "</style></head><body><h1>msprof replay report</h1>" + meta_table(result);
  if (other) out += "<p>compared with</p>" + meta_table(*other);
  for (const auto& r : result.ranges) out += range_section(r, result, other);
  if (other) out += comparison_section(result, *other);
  return out + "</body></html>\n";
}

}  // namespace msprof::analyze
