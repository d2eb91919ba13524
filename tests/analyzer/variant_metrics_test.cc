#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "analyzer/core/html_report.h"
#include "analyzer/core/replay_result_reader.h"
#include "analyzer/core/result_comparison.h"
#include "analyzer/core/variant_metrics.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/metric_results.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

const std::string kOldRange = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";

test::PipelineResult with_variant() {
  test::PipelineResult r;
  r.variant = true;
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the reader reads each variant's counted launches; older results have none") {
  TempDir dir;
  const auto r = analyze::load_replay_result(with_variant().write(dir.path(), "V"));
  REQUIRE(r.ranges[0].variants.size() == 1);
  const auto& v = r.ranges[0].variants[0];
  REQUIRE(v.launch_metrics.size() == 1);
  CHECK(v.launch_metrics[0].seq == 1);
  CHECK(v.launch_metrics[0].name == "consume");
  REQUIRE(v.launch_metrics[0].metrics.size() == 2);
  CHECK(v.launch_metrics[0].metrics[0].group == "L2Cache");
  CHECK(v.launch_metrics[0].metrics[0].backend == "sim");
  CHECK(v.launch_metrics[0].metrics[0].columns[4].first == "total_hit_rate(%)");
  CHECK(*v.launch_metrics[0].metrics[1].find("instructions") == 210944);

  auto uncounted = with_variant();
  uncounted.variant_counted = false;
  const auto before = analyze::load_replay_result(uncounted.write(dir.path(), "U"));
  REQUIRE(before.ranges[0].variants.size() == 1);
  CHECK(before.ranges[0].variants[0].launch_metrics.empty());
  CHECK(analyze::variant_metric_rows(before).empty());

  const auto old = analyze::load_replay_result(kOldRange);
  CHECK(analyze::variant_metric_rows(old).empty());
  CHECK(analyze::variant_metrics_text(old, "A").empty());
}

TEST_CASE("a variant's counted launch pairs with the recorded launch of the same seq") {
  TempDir dir;
  const auto r = analyze::load_replay_result(with_variant().write(dir.path(), "V"));
  const auto rows = analyze::variant_metric_rows(r);
  REQUIRE(rows.size() == 5 + 5);
  CHECK(rows[0].variant == "consume:local-size=256");
  CHECK(rows[0].seq == 1);
  CHECK(rows[0].metric.range == "pipeline");
  CHECK(rows[0].metric.kernel == "consume");
  CHECK(rows[0].metric.metric() == "L2Cache.read_cache_hit");
  const auto& instructions = rows[5].metric;
  CHECK(instructions.metric() == "Instructions.instructions");
  CHECK(instructions.a == 253952);  // the recorded consume (seq 1), not produce (seq 0)
  CHECK(instructions.b == 210944);
  CHECK(instructions.difference() == -43008);
  CHECK(instructions.change_pct() == doctest::Approx(-16.935).epsilon(1e-4));
}

TEST_CASE("compare lists each result's variant metrics after the metrics, in text and JSON") {
  TempDir dir;
  const auto a = analyze::load_replay_result(with_variant().write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(test::kernel_mode_pipeline().write(dir.path(), "B"));
  const std::string text = analyze::comparison_text(a, b, analyze::compare_results(a, b));
  CHECK(count(text,
              "variant metrics of A (each changed launch against the recorded launch of "
              "the same seq):\n") == 1);
  CHECK(text.find("variant metrics of B") == std::string::npos);
  CHECK(text.find("metrics of A and B") < text.find("variant metrics of A"));
  CHECK(text.find("range     variant                 launch      metric                      "
                  "recorded  variant  difference   change\n") != std::string::npos);
  CHECK(text.find("pipeline  consume:local-size=256  #1 consume  Instructions.instructions     "
                  "253952   210944      -43008  -16.94%\n") != std::string::npos);
  CHECK(text.find("#1 consume  L2Cache.total_hit_rate(%)         50       50           0    "
                  "0.00%\n") != std::string::npos);

  const auto json = analyze::comparison_json(a, b, analyze::compare_results(a, b));
  REQUIRE(json["variant_metrics"].size() == 10);
  const auto& j = json["variant_metrics"][5];
  CHECK(j["result"] == "a");
  CHECK(j["range"] == "pipeline");
  CHECK(j["label"] == "consume:local-size=256");
  CHECK(j["seq"] == 1);
  CHECK(j["kernel"] == "consume");
  CHECK(j["group"] == "Instructions");
  CHECK(j["column"] == "instructions");
  CHECK(j["recorded"] == 253952);
  CHECK(j["variant"] == 210944);
  CHECK(j["difference"] == -43008);
  CHECK(j["comparable"] == true);
  CHECK(json["variant_metrics"][1]["change_pct"] == 0);  // 0 against 0: no change, not "from 0"
  // Both results with variants: A's rows, then B's.
  const auto both = analyze::comparison_json(a, a, analyze::compare_results(a, a));
  REQUIRE(both["variant_metrics"].size() == 20);
  CHECK(both["variant_metrics"][10]["result"] == "b");
  const std::string twice = analyze::comparison_text(a, a, analyze::compare_results(a, a));
  CHECK(twice.find("variant metrics of A") < twice.find("variant metrics of B"));
}

TEST_CASE("variants without counted launches show no variant metrics") {
  TempDir dir;
  auto uncounted = with_variant();
  uncounted.variant_counted = false;
  const auto a = analyze::load_replay_result(uncounted.write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(test::kernel_mode_pipeline().write(dir.path(), "B"));
  const std::string text = analyze::comparison_text(a, b, analyze::compare_results(a, b));
  CHECK(text.find("variants:\n  A pipeline with consume:local-size=256") != std::string::npos);
  CHECK(text.find("variant metrics") == std::string::npos);
  CHECK(analyze::comparison_json(a, b, analyze::compare_results(a, b))["variant_metrics"].empty());
  CHECK(analyze::html_report(a, nullptr).find("variant metrics") == std::string::npos);
}

TEST_CASE("the report of one result has a variant metrics table per range") {
  TempDir dir;
  const auto a = analyze::load_replay_result(with_variant().write(dir.path(), "A"));
  const std::string html = analyze::html_report(a, nullptr);
  CHECK(count(html, "<h3>pipeline: variant metrics</h3>") == 1);
  CHECK(count(html, "<table class=\"variant-metrics\"") == 1);
  CHECK(html.find("<td class=\"name\">consume:local-size=256</td><td class=\"name\">#1 "
                  "consume</td><td class=\"name\">Instructions.instructions</td><td>253952</"
                  "td><td>210944</td><td>-43008</td><td>-16.94%</td></tr>") != std::string::npos);
  // After the variants' table.
  CHECK(html.find("<h3>pipeline: variants</h3>") < html.find("<h3>pipeline: variant metrics"));
}

TEST_CASE("on the command line: compare and report show them, --fail-if stays A against B") {
  TempDir dir;
  const auto a = with_variant().write(dir.path(), "A").string();
  auto r = test::run_analyze({"compare", a, a});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("variant metrics of A") != std::string::npos);
  CHECK(r.out.find("variant metrics of B") != std::string::npos);
  // The variant's instructions fell 17% from the recorded launch's; A and B are
  // the same result, so a gate on any drop has nothing to catch.
  r = test::run_analyze({"compare", a, a, "--fail-if", "Instructions.instructions-0%"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());

  const auto out = dir / "report.html";
  r = test::run_analyze({"report", a, "-o", out.string()});
  REQUIRE(r.status == 0);
  std::stringstream html;
  html << std::ifstream(out).rdbuf();
  CHECK(html.str().find("<table class=\"variant-metrics\"") != std::string::npos);
}
