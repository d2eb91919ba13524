#include "analyzer/core/result_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/number_format.h"
#include "analyzer/core/variant_metrics.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using nlohmann::ordered_json;

namespace {

constexpr const char* kKernelSum = "(kernels)";
constexpr const char* kWall = "(wall)";

using Key = std::tuple<std::string, std::string, std::size_t>;

void collect(const ReplayResult& result, bool is_a, std::map<Key, ComparisonRow>& rows,
             std::vector<Key>& order) {
  const auto put = [&](const std::string& range, const std::string& kernel, std::size_t n,
                       const PassStats& s) {
    const Key key{range, kernel, n};
    auto [it, fresh] = rows.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.range = range;
    it->second.kernel = kernel;
    it->second.occurrence = n;
    (is_a ? it->second.a : it->second.b) = s;
  };
  for (const auto& r : result.ranges) {
    if (r.status != "replayed") continue;
    put(r.name, kWall, 0, r.wall);
    put(r.name, kKernelSum, 0, r.kernel_sum);
    std::map<std::string, std::size_t> seen;
    for (const auto& k : r.kernels) put(r.name, k.name, seen[k.name]++, k.duration);
  }
}

double change(const ComparisonRow& row) {
  const double r = row.ratio();
  return std::isnan(r) ? -1.0 : std::fabs(std::log(r));
}

std::string median_text(const std::optional<PassStats>& s) {
  return s ? fixed(s->median, 3) : "-";
}

std::string spread_text(const std::optional<PassStats>& s) {
  return s ? fixed(s->min, 3) + ".." + fixed(s->max, 3) : "-";
}

ordered_json stats_json(const std::optional<PassStats>& s) {
  if (!s) return nullptr;
  return {{"min", s->min},
          {"median", s->median},
          {"mean", s->mean},
          {"max", s->max},
          {"stddev", s->stddev}};
}

}  // namespace

std::vector<RangeVerdicts> verdicts_of(const ReplayResult& a, const ReplayResult& b) {
  std::vector<RangeVerdicts> out;
  const auto put = [&](const ReplayResult& result, bool is_a) {
    for (const auto& r : result.ranges) {
      if (r.status != "replayed") continue;
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const RangeVerdicts& v) { return v.range == r.name; });
      if (it == out.end()) it = out.insert(out.end(), RangeVerdicts{r.name, "", ""});
      (is_a ? it->a : it->b) = r.verification;
    }
  };
  put(a, true);
  put(b, false);
  return out;
}

double ComparisonRow::ratio() const {
  if (!a || !b || a->median <= 0) return std::numeric_limits<double>::quiet_NaN();
  return b->median / a->median;
}

bool ComparisonRow::significant() const {
  if (!a || !b) return false;
  return b->min > a->max || b->max < a->min;
}

std::vector<ComparisonRow> compare_results(const ReplayResult& a, const ReplayResult& b) {
  std::map<Key, ComparisonRow> rows;
  std::vector<Key> order;
  collect(a, true, rows, order);
  collect(b, false, rows, order);
  std::vector<ComparisonRow> out;
  for (const auto& key : order) out.push_back(rows.at(key));
  std::stable_sort(out.begin(), out.end(), [](const ComparisonRow& x, const ComparisonRow& y) {
    return change(x) > change(y);
  });
  return out;
}

std::string comparison_text(const ReplayResult& a, const ReplayResult& b,
                            const std::vector<ComparisonRow>& rows) {
  std::string out =
      "A  " + a.path + " (" + a.label() + ")\nB  " + b.path + " (" + b.label() + ")\n\n";
  std::vector<std::vector<std::string>> table = {{"range", "kernel", "A median us", "B median us",
                                                  "B/A", "A min..max", "B min..max",
                                                  "beyond spread"}};
  for (const auto& row : rows) {
    std::string kernel = printable(row.kernel);
    if (row.occurrence) kernel += " #" + std::to_string(row.occurrence);
    table.push_back({printable(row.range), kernel, median_text(row.a), median_text(row.b),
                     fixed(row.ratio(), 3), spread_text(row.a), spread_text(row.b),
                     !row.a || !row.b    ? "only in " + std::string(row.a ? "A" : "B")
                     : row.significant() ? "yes"
                                         : "no"});
  }
  out += aligned_table(table, [&](std::size_t i) { return i >= 2 && i <= 6; });
  std::string verdicts;
  for (const auto& v : verdicts_of(a, b)) {
    verdicts += "  " + printable(v.range) + ": A " + (v.a.empty() ? "-" : v.a) + ", B " +
                (v.b.empty() ? "-" : v.b) + "\n";
  }
  if (!verdicts.empty()) out += "\nverification:\n" + verdicts;
  std::string variants;
  for (const auto& [name, result] : {std::pair{"A", &a}, {"B", &b}}) {
    for (const auto& r : result->ranges) {
      for (const auto& v : r.variants) {
        variants += "  " + std::string(name) + " " + printable(r.name) + " with " +
                    printable(v.label) + ": " +
                    (v.status == "failed" ? "failed, " + printable(v.reason)
                                          : fixed(v.ratio, 2) + "x the recorded range (" +
                                                (v.beyond_spread ? "beyond" : "within") +
                                                " the spread), " + v.verification) +
                    (r.best_variant == v.label ? ", best verified" : "") + "\n";
      }
    }
  }
  if (!variants.empty()) out += "\nvariants:\n" + variants;
  return out + metric_comparison_text(a, b, compare_metrics(a, b)) + variant_metrics_text(a, "A") +
         variant_metrics_text(b, "B");
}

ordered_json comparison_json(const ReplayResult& a, const ReplayResult& b,
                             const std::vector<ComparisonRow>& rows) {
  ordered_json list = ordered_json::array();
  for (const auto& row : rows) {
    const double r = row.ratio();
    list.push_back({{"range", row.range},
                    {"kernel", row.kernel},
                    {"occurrence", row.occurrence},
                    {"a", stats_json(row.a)},
                    {"b", stats_json(row.b)},
                    {"ratio", std::isnan(r) ? ordered_json(nullptr) : ordered_json(r)},
                    {"beyond_spread", row.significant()}});
  }
  ordered_json verdicts = ordered_json::array();
  for (const auto& v : verdicts_of(a, b)) {
    verdicts.push_back({{"range", v.range},
                        {"a", v.a.empty() ? ordered_json(nullptr) : ordered_json(v.a)},
                        {"b", v.b.empty() ? ordered_json(nullptr) : ordered_json(v.b)}});
  }
  ordered_json variants = ordered_json::array();
  for (const auto& [name, result] : {std::pair{"a", &a}, {"b", &b}}) {
    for (const auto& r : result->ranges) {
      for (const auto& v : r.variants) {
        variants.push_back({{"result", name},
                            {"range", r.name},
                            {"label", v.label},
                            {"status", v.status},
                            {"reason", v.reason},
                            {"ratio", v.ratio},
                            {"changed_ratio", v.changed_ratio},
                            {"beyond_spread", v.beyond_spread},
                            {"verification", v.verification},
                            {"best", r.best_variant == v.label}});
      }
    }
  }
  ordered_json variant_metrics = variant_metrics_json(a, "a");
  for (auto& row : variant_metrics_json(b, "b")) variant_metrics.push_back(std::move(row));
  return {{"format", "msprof-analyze-compare"},
          {"version", 1},
          {"a", {{"path", a.path}, {"label", a.label()}}},
          {"b", {{"path", b.path}, {"label", b.label()}}},
          {"rows", list},
          {"verification", verdicts},
          {"variants", variants},
          {"metrics", metric_comparison_json(a, b, compare_metrics(a, b))},
          {"variant_metrics", variant_metrics}};
}

}  // namespace msprof::analyze
