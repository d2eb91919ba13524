#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "analyzer/core/html_report.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/metric_results.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kRange = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";
const std::string kKernel = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181600_000002";

}  // namespace

TEST_CASE("the report is one self-contained page with a chart of each kind and the tables") {
  const auto a = analyze::load_replay_result(kRange);
  const auto b = analyze::load_replay_result(kKernel);
  const std::string html = analyze::html_report(a, &b);
  CHECK(count(html, "<svg class=\"chart bars\"") == 2);
  CHECK(count(html, "<svg class=\"chart lines\"") == 2);
  // Replay against original per range, and range mode against kernel mode.
  CHECK(count(html, "<svg class=\"chart grouped\"") == 3);
  CHECK(count(html, "<line x1=") > 20);
  CHECK(count(html, "<table class=\"kernels\"") == 2);
  CHECK(count(html, "<table class=\"comparison\"") == 1);
  CHECK(html.find("not replayable: clEnqueueSVMMap") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("href=") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("cpu-haswell-Intel(R) Xeon(R) CPU") != std::string::npos);

  const std::string alone = analyze::html_report(a, nullptr);
  CHECK(count(alone, "<table class=\"comparison\"") == 0);
  CHECK(count(alone, "<svg class=\"chart grouped\"") == 2);
}

TEST_CASE("report on the command line writes the file") {
  TempDir dir;
  const auto r =
      test::run_analyze({"report", kRange, kKernel, "-o", (dir / "report.html").string()});
  REQUIRE(r.status == 0);
  std::stringstream html;
  html << std::ifstream(dir / "report.html").rdbuf();
  CHECK(html.str().rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.str().find("</html>") != std::string::npos);
}

TEST_CASE("the report charts the metrics per range: a chart per group and every column") {
  TempDir dir;
  const auto a = analyze::load_replay_result(test::PipelineResult{}.write(dir.path(), "A"));
  const auto b = analyze::load_replay_result(test::kernel_mode_pipeline().write(dir.path(), "B"));

  const std::string alone = analyze::html_report(a, nullptr);
  CHECK(count(alone, "<h3>pipeline: metrics</h3>") == 1);
  CHECK(count(alone, "<title>pipeline: L2Cache total_hit_rate(%) per kernel</title>") == 1);
  CHECK(count(alone, "<title>pipeline: Instructions instructions per kernel</title>") == 1);
  // replay against original (none here: no original_us) + one per group
  CHECK(count(alone, "<svg class=\"chart grouped\"") == 2);
  CHECK(count(alone, "<table class=\"metrics\"") == 2);
  CHECK(count(alone, "<th>total_hit_rate(%)</th>") == 1);
  CHECK(count(alone, "<th>branch_misses</th>") == 1);
  CHECK(count(alone, "<td>253952</td>") == 1);
  CHECK(alone.find("L2Cache (sim), Instructions (sim)") != std::string::npos);
  CHECK(alone.find("LL 33554432 B, 16-way, 64 B lines") != std::string::npos);
  CHECK(count(alone, "<table class=\"metric-comparison\"") == 0);

  const std::string both = analyze::html_report(a, &b);
  // Per group both results side by side, then the medians of A against B.
  CHECK(count(both, "<svg class=\"chart grouped\"") == 3);
  CHECK(count(both, "B: kernel mode, 10 passes, 2026-12-07T22:50:15Z (sim)") >= 2);
  CHECK(count(both, "<th colspan=\"2\">total_hit_rate(%)</th>") == 1);
  // consume's read hits and hit rate in B
  CHECK(count(both, "<td title=\"-100.00%\">0</td>") == 2);
  CHECK(count(both, "<table class=\"metric-comparison\"") == 1);
  CHECK(both.find("<td>-50</td><td>-100.00%</td>") != std::string::npos);

  // Results without metrics: no metric section.
  const std::string old = analyze::html_report(analyze::load_replay_result(kRange), nullptr);
  CHECK(old.find("metrics") == std::string::npos);
}
