#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/metric_gate.h"
#include "analyzer/core/replay_result_reader.h"
#include "analyzer/core/result_comparison.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/metric_results.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

const std::string kOldRange = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";
const std::string kOldKernel = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181600_000002";

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

const analyze::MetricRow& row_of(const std::vector<analyze::MetricRow>& rows,
                                 const std::string& kernel, const std::string& metric) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const analyze::MetricRow& r) {
    return r.kernel == kernel && r.metric() == metric;
  });
  REQUIRE(it != rows.end());
  return *it;
}

}  // namespace

TEST_CASE("the reader reads the metrics, top level and per kernel, in the order written") {
  TempDir dir;
  const auto r = analyze::load_replay_result(test::PipelineResult{}.write(dir.path(), "A"));
  CHECK(r.metrics.groups == std::vector<std::string>{"L2Cache", "Instructions"});
  CHECK(r.metrics.groups_text() == "L2Cache (sim), Instructions (sim)");
  CHECK(r.metrics.cache_model_text() ==
        "I1 32768 B, 8-way, 64 B lines; D1 32768 B, 8-way, 64 B lines; LL 33554432 B, 16-way, "
        "64 B lines");
  CHECK(r.metrics.simulated_device == "pthread-haswell-AMD EPYC");
  const auto& consume = r.ranges[0].kernels[1];
  REQUIRE(consume.metrics.size() == 2);
  CHECK(consume.metrics[0].group == "L2Cache");
  CHECK(consume.metrics[0].backend == "sim");
  REQUIRE(consume.metrics[0].columns.size() == 5);
  CHECK(consume.metrics[0].columns[0].first == "read_cache_hit");  // not sorted by name
  CHECK(consume.metrics[0].columns[4].first == "total_hit_rate(%)");
  CHECK(*consume.find_metrics("L2Cache")->find("total_hit_rate(%)") == 50);
  CHECK(consume.find_metrics("Memory") == nullptr);

  const auto old = analyze::load_replay_result(kOldRange);
  CHECK(old.metrics.groups.empty());
  CHECK(old.metrics.cache_model.empty());
  CHECK(old.ranges[0].kernels[0].metrics.empty());
}

TEST_CASE("compare shows each metric both counted: A, B, the difference and the change") {
  TempDir dir;
  const auto a = analyze::load_replay_result(test::PipelineResult{}.write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(test::kernel_mode_pipeline().write(dir.path(), "B"));
  const auto rows = analyze::compare_metrics(a, b);
  CHECK(rows.size() == 2 * (5 + 5));
  const auto& rate = row_of(rows, "consume", "L2Cache.total_hit_rate(%)");
  CHECK(rate.a == 50);
  CHECK(rate.b == 0);
  CHECK(rate.difference() == -50);
  CHECK(rate.change_pct() == doctest::Approx(-100));
  CHECK(std::isinf(row_of(rows, "consume", "L2Cache.read_cache_miss").change_pct()));
  CHECK(row_of(rows, "produce", "Instructions.instructions").change_pct() == 0);

  const std::string text = analyze::comparison_text(a, b, analyze::compare_results(a, b));
  CHECK(text.find("metrics of A and B: L2Cache (sim), Instructions (sim)\n") != std::string::npos);
  CHECK(text.find("  simulated cache: I1 32768 B") != std::string::npos);
  CHECK(text.find("pipeline  consume  L2Cache.total_hit_rate(%)       50       0     -50  "
                  "-100.00%\n") != std::string::npos);
  CHECK(text.find("L2Cache.read_cache_miss          0   32768   32768    from 0\n") !=
        std::string::npos);
  // After the time table and the verdicts.
  CHECK(text.find("verification:") < text.find("metrics of A and B"));

  const auto json = analyze::comparison_json(a, b, analyze::compare_results(a, b));
  REQUIRE(json["metrics"]["rows"].size() == 20);
  CHECK(json["metrics"]["a"]["cache_model"]["LL"]["size_bytes"] == 33554432);
  const auto& j = json["metrics"]["rows"][14];  // consume's total_hit_rate(%)
  CHECK(j["kernel"] == "consume");
  CHECK(j["column"] == "total_hit_rate(%)");
  CHECK(j["a"] == 50);
  CHECK(j["difference"] == -50);
  CHECK(j["change_pct"] == -100);
  CHECK(json["metrics"]["rows"][11]["change_pct"].is_null());  // from 0: no finite change
}

TEST_CASE("compare says when the setups differ, and refuses a change from sim to perf") {
  TempDir dir;
  auto bigger = test::PipelineResult{};
  bigger.ll_bytes = 4194304;
  auto perf = test::PipelineResult{};
  perf.backend = "perf";
  const auto a = analyze::load_replay_result(test::PipelineResult{}.write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(bigger.write(dir.path(), "B"));
  const auto p = analyze::load_replay_result(perf.write(dir.path(), "P"));

  const std::string cache = analyze::comparison_text(a, b, analyze::compare_results(a, b));
  CHECK(cache.find("metrics of A: L2Cache (sim)") != std::string::npos);
  CHECK(cache.find("LL 4194304 B, 16-way") != std::string::npos);
  CHECK(cache.find("the simulated caches differ") != std::string::npos);

  const std::string kinds = analyze::comparison_text(a, p, analyze::compare_results(a, p));
  CHECK(kinds.find("metrics of B: L2Cache (perf), Instructions (perf)\n") != std::string::npos);
  CHECK(kinds.find("a simulated count and a perf count are not comparable") != std::string::npos);
  CHECK(kinds.find("consume  Instructions.instructions   253952  253952    -  not comparable: A "
                   "sim, B perf") != std::string::npos);
  // cycles: only perf counted it, so no row.
  CHECK(kinds.find("cycles") == std::string::npos);
  const auto rows = analyze::compare_metrics(a, p);
  CHECK_FALSE(rows[0].comparable());
  CHECK(std::isnan(rows[0].change_pct()));
}

TEST_CASE("results without metrics compare as before; one side alone says so") {
  TempDir dir;
  const auto old_a = analyze::load_replay_result(kOldRange);
  const auto old_b = analyze::load_replay_result(kOldKernel);
  const std::string text =
      analyze::comparison_text(old_a, old_b, analyze::compare_results(old_a, old_b));
  CHECK(text.find("metrics") == std::string::npos);
  const auto json = analyze::comparison_json(old_a, old_b, analyze::compare_results(old_a, old_b));
  CHECK(json["metrics"]["a"].is_null());
  CHECK(json["metrics"]["rows"].empty());

  auto before = test::kernel_mode_pipeline();
  before.metrics = false;
  const auto a = analyze::load_replay_result(test::PipelineResult{}.write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(before.write(dir.path(), "B"));
  CHECK(b.metrics.groups.empty());
  const std::string one = analyze::comparison_text(a, b, analyze::compare_results(a, b));
  CHECK(one.find("metrics of A: L2Cache (sim), Instructions (sim)\n") != std::string::npos);
  CHECK(one.find("B counted none: nothing to compare") != std::string::npos);
}

TEST_CASE("--fail-if parses GROUP.COLUMN+PCT% and -PCT%, and refuses anything else") {
  const auto rise = analyze::parse_metric_gate("Instructions.instructions+2%");
  CHECK(rise.group == "Instructions");
  CHECK(rise.column == "instructions");
  CHECK(rise.rise);
  CHECK(rise.pct == 2);
  CHECK(rise.crossed(2.5));
  CHECK_FALSE(rise.crossed(2));
  CHECK_FALSE(rise.crossed(-50));
  const auto drop = analyze::parse_metric_gate("L2Cache.total_hit_rate(%)-5.5%");
  CHECK(drop.column == "total_hit_rate(%)");
  CHECK_FALSE(drop.rise);
  CHECK(drop.pct == 5.5);
  CHECK(drop.crossed(-6));
  CHECK_FALSE(drop.crossed(-5));
  CHECK_FALSE(drop.crossed(10));
  for (const char* bad : {"Instructions.instructions", "instructions+2%", "Instructions.+2%",
                          "Instructions.instructions+2", "Instructions.instructions+x%", ""}) {
    CHECK_THROWS_WITH_AS(analyze::parse_metric_gate(bad),
                         doctest::Contains("is not GROUP.COLUMN+PCT% or GROUP.COLUMN-PCT%"),
                         analyze::AnalyzeError);
  }
}

TEST_CASE("compare --fail-if exits 3 with one line per kernel that crossed, 0 when none did") {
  TempDir dir;
  const auto a = test::PipelineResult{}.write(dir.path(), "A").string();
  const auto b = test::kernel_mode_pipeline().write(dir.path(), "B").string();
  auto grown = test::PipelineResult{};
  grown.produce.instructions = 262144 * 1.01;  // +1%
  grown.consume.instructions = 253952 * 1.03;  // +3%
  const auto c = grown.write(dir.path(), "C").string();

  // Range mode against kernel mode: consume's hit rate falls from 50 to 0.
  auto r = test::run_analyze({"compare", a, b, "--fail-if", "L2Cache.total_hit_rate(%)-5%"});
  CHECK(r.status == 3);
  CHECK(r.err ==
        "msprof-analyze: --fail-if L2Cache.total_hit_rate(%)-5%: pipeline consume: A 50, B 0 "
        "(-100.00%)\n");
  CHECK(r.out.find("metrics of A and B") != std::string::npos);  // the comparison still printed
  // The other way round it rose: a drop gate does not fire.
  r = test::run_analyze({"compare", b, a, "--fail-if", "L2Cache.total_hit_rate(%)-5%"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());

  // Instructions +1% and +3%: a 2% gate catches consume only, a 5% gate neither.
  r = test::run_analyze({"compare", a, c, "--fail-if", "Instructions.instructions+2%"});
  CHECK(r.status == 3);
  REQUIRE(lines(r.err) == 1);
  CHECK(r.err.find("pipeline consume: A 253952, B 261570.560 (+3.00%)") != std::string::npos);
  r = test::run_analyze({"compare", a, c, "--fail-if", "Instructions.instructions+5%", "--fail-if",
                         "L2Cache.total_hit_rate(%)-1%"});
  CHECK(r.status == 0);
  // Repeated: each gate's lines; the option takes one value, A and B may follow it.
  r = test::run_analyze({"compare", "--fail-if", "Instructions.instructions+0%", "--fail-if",
                         "L2Cache.total_hit_rate(%)-5%", b, c, "--format", "json"});
  CHECK(r.status == 3);
  CHECK(lines(r.err) == 2);
  const auto json = nlohmann::json::parse(r.out);
  REQUIRE(json["fail_if"].size() == 2);
  CHECK(json["fail_if"][0]["gate"] == "Instructions.instructions+0%");
  CHECK(json["fail_if"][0]["kernel"] == "produce");
  CHECK(json["fail_if"][0]["reason"] == "crossed");
  CHECK(json["fail_if"][1]["kernel"] == "consume");
}

TEST_CASE(
    "--fail-if on a metric no kernel counted is a one-line usage error naming those counted") {
  TempDir dir;
  const auto a = test::PipelineResult{}.write(dir.path(), "A").string();
  const auto b = test::kernel_mode_pipeline().write(dir.path(), "B").string();
  auto r = test::run_analyze({"compare", a, b, "--fail-if", "L2Cache.hit_rate-5%"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("msprof-analyze: error: --fail-if names L2Cache.hit_rate, which no kernel of A "
                    "or B counted; they counted L2Cache.read_cache_hit, ",
                    0) == 0);
  CHECK(r.err.find("L2Cache.total_hit_rate(%), Instructions.instructions, ") != std::string::npos);

  r = test::run_analyze(
      {"compare", kOldRange, kOldKernel, "--fail-if", "Memory.l1_hit_rate(%)-1%"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "msprof-analyze: error: --fail-if names Memory.l1_hit_rate(%), but neither result counted "
        "any metric; replay with msprof-replay --metrics\n");

  r = test::run_analyze({"compare", a, b, "--fail-if", "instructions+2%"});
  CHECK(r.status == 2);
  CHECK(r.err.find("is not GROUP.COLUMN+PCT% or GROUP.COLUMN-PCT%") != std::string::npos);
}

TEST_CASE("--fail-if does not pass what it could not check: sim against perf, one side only") {
  TempDir dir;
  const auto a = test::PipelineResult{}.write(dir.path(), "A").string();
  auto perf = test::PipelineResult{};
  perf.backend = "perf";
  const auto p = perf.write(dir.path(), "P").string();
  auto r = test::run_analyze({"compare", a, p, "--fail-if", "Instructions.instructions+2%"});
  CHECK(r.status == 3);
  CHECK(lines(r.err) == 2);
  CHECK(r.err.find("pipeline produce: A 262144, B 262144: not comparable (A sim, B perf), so the "
                   "gate cannot pass") != std::string::npos);

  // cycles only in P: the name exists, but no kernel of both has it.
  r = test::run_analyze({"compare", a, p, "--fail-if", "Instructions.cycles+2%"});
  CHECK(r.status == 3);
  CHECK(r.err ==
        "msprof-analyze: --fail-if Instructions.cycles+2%: checked no kernel: only B counted it\n");
}
