#include "analyzer/core/metric_gate.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "analyzer/core/analyze_error.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using nlohmann::ordered_json;

namespace {

bool counts(const ReplayResult& r, const std::string& metric) {
  const auto names = metric_names(r);
  return std::find(names.begin(), names.end(), metric) != names.end();
}

}  // namespace

bool MetricGate::crossed(double change_pct) const {
  if (std::isnan(change_pct)) return false;
  return rise ? change_pct > pct : change_pct < -pct;
}

MetricGate parse_metric_gate(const std::string& spec) {
  // The column may hold '(%)' itself: the sign and number are the last part.
  static const std::regex form(R"(^([^.]+)\.(.+)([+-])([0-9]+(?:\.[0-9]+)?)%$)");
  std::smatch m;
  if (!std::regex_match(spec, m, form)) {
    throw AnalyzeError("--fail-if '" + printable(spec) +
                       "' is not GROUP.COLUMN+PCT% or GROUP.COLUMN-PCT%; e.g. --fail-if "
                       "Instructions.instructions+2% or --fail-if 'L2Cache.total_hit_rate(%)-5%'");
  }
  MetricGate g;
  g.spec = spec;
  g.group = m[1];
  g.column = m[2];
  g.rise = m[3] == "+";
  g.pct = std::stod(m[4]);
  return g;
}

void check_gate_metrics(const std::vector<MetricGate>& gates, const ReplayResult& a,
                        const ReplayResult& b) {
  std::vector<std::string> known = metric_names(a);
  for (const auto& name : metric_names(b)) {
    if (std::find(known.begin(), known.end(), name) == known.end()) known.push_back(name);
  }
  for (const auto& g : gates) {
    if (std::find(known.begin(), known.end(), g.metric()) != known.end()) continue;
    if (known.empty()) {
      throw AnalyzeError("--fail-if names " + printable(g.metric()) +
                         ", but neither result counted any metric; replay with msprof-replay "
                         "--metrics");
    }
    std::string list;
    for (const auto& name : known) list += (list.empty() ? "" : ", ") + printable(name);
    throw AnalyzeError("--fail-if names " + printable(g.metric()) +
                       ", which no kernel of A or B counted; they counted " + list);
  }
}

std::string GateFailure::line() const {
  if (kernel.empty()) return "--fail-if " + printable(gate) + ": " + reason;
  std::string where = printable(range) + " " + printable(kernel);
  if (occurrence) where += " #" + std::to_string(occurrence);
  if (reason != "crossed") {
    return "--fail-if " + printable(gate) + ": " + where + ": A " + metric_value_text(a) + ", B " +
           metric_value_text(b) + ": " + reason;
  }
  return "--fail-if " + printable(gate) + ": " + where + ": A " + metric_value_text(a) + ", B " +
         metric_value_text(b) + " (" + change_text(change_pct) + ")";
}

std::vector<GateFailure> gate_failures(const std::vector<MetricGate>& gates,
                                       const std::vector<MetricRow>& rows, const ReplayResult& a,
                                       const ReplayResult& b) {
  std::vector<GateFailure> out;
  for (const auto& g : gates) {
    bool checked = false;
    for (const auto& row : rows) {
      if (row.group != g.group || row.column != g.column) continue;
      checked = true;
      GateFailure f{g.spec, row.range, row.kernel,       row.occurrence,
                    row.a,  row.b,     row.change_pct(), "crossed"};
      if (!row.comparable()) {
        f.reason = "not comparable (A " + row.a_backend + ", B " + row.b_backend +
                   "), so the gate cannot pass";
        out.push_back(f);
      } else if (g.crossed(f.change_pct)) {
        out.push_back(f);
      }
    }
    if (checked) continue;
    const bool in_a = counts(a, g.metric()), in_b = counts(b, g.metric());
    out.push_back(GateFailure{
        g.spec, "", "", 0, 0, 0, 0,
        "checked no kernel: " + (in_a && in_b
                                     ? std::string("no kernel of both results counted it")
                                     : "only " + std::string(in_a ? "A" : "B") + " counted it")});
  }
  return out;
}

ordered_json gate_failures_json(const std::vector<GateFailure>& failures) {
  ordered_json out = ordered_json::array();
  const auto finite = [](double v) {
    return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr);
  };
  for (const auto& f : failures) {
    const bool kernel = !f.kernel.empty();
    out.push_back({{"gate", f.gate},
                   {"range", kernel ? ordered_json(f.range) : ordered_json(nullptr)},
                   {"kernel", kernel ? ordered_json(f.kernel) : ordered_json(nullptr)},
                   {"occurrence", f.occurrence},
                   {"a", kernel ? finite(f.a) : ordered_json(nullptr)},
                   {"b", kernel ? finite(f.b) : ordered_json(nullptr)},
                   {"change_pct", kernel ? finite(f.change_pct) : ordered_json(nullptr)},
                   {"reason", f.reason}});
  }
  return out;
}

}  // namespace msprof::analyze
