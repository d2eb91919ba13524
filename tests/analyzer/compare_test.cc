#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <fstream>

#include "analyzer/core/html_report.h"
#include "analyzer/core/result_comparison.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/golden_file.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

const std::string kRange = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";
const std::string kKernel = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181600_000002";

// Golden files name the results by folder name, not by where the tree is.
std::string relative(std::string text) {
  const std::string prefix = std::string(MSPROF_DATA_DIR) + "/";
  for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix))
    text.erase(at, prefix.size());
  return text;
}

}  // namespace

TEST_CASE(
    "compare pairs ranges and kernels, sorted by the largest change, as the golden files say") {
  const auto a = analyze::load_replay_result(kRange);
  const auto b = analyze::load_replay_result(kKernel + "/summary.json");
  const auto rows = analyze::compare_results(a, b);
  REQUIRE(rows.size() == 8);
  CHECK(rows[0].range == "range1");
  CHECK(rows[0].kernel == "axpbyz");
  CHECK(rows[0].ratio() == doctest::Approx(2.0));
  CHECK(rows[0].significant());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CHECK(std::fabs(std::log(rows[i - 1].ratio())) >= std::fabs(std::log(rows[i].ratio())));
  }
  const auto divide =
      std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.kernel == "divide"; });
  CHECK(divide->ratio() == doctest::Approx(6.0 / 9.0));
  CHECK(divide->significant());
  const auto multiply =
      std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.kernel == "multiply"; });
  CHECK_FALSE(multiply->significant());  // the medians differ by less than the spread
  CHECK(multiply == rows.end() - 2);
  test::check_golden("compare.txt", relative(analyze::comparison_text(a, b, rows)));
  test::check_golden("compare.json", relative(analyze::comparison_json(a, b, rows).dump(2) + "\n"));
}

TEST_CASE("compare --format json on the command line") {
  const auto r = test::run_analyze({"compare", kRange, kKernel, "--format", "json"});
  REQUIRE(r.status == 0);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["rows"].size() == 8);
  CHECK(json["a"]["label"] == "range mode, 5 passes, 2026-12-02T18:15:00Z");
}

TEST_CASE(
    "results with nulls (non-finite numbers), notes and a failed range load, compare and report") {
  TempDir dir;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kRange + "/summary.json"));
  j["notes"] = {"program rebuilt from source: the binary was built for another device"};
  j["ranges"][0]["kernels"][0]["original_us"] = nullptr;
  j["ranges"][0]["kernels"][1]["duration_us"]["stddev"] = nullptr;
  j["ranges"][1]["status"] = "failed";
  j["ranges"][1]["reason"] = "CL_OUT_OF_RESOURCES in pass 3";
  std::ofstream(dir / "summary.json") << j.dump();
  const auto result = analyze::load_replay_result(dir / "summary.json");
  REQUIRE(result.notes.size() == 1);
  CHECK(std::isnan(result.ranges[0].kernels[0].original_us));
  CHECK(result.ranges[1].status == "failed");
  const auto rows = analyze::compare_results(result, analyze::load_replay_result(kKernel));
  CHECK(rows.size() == 8);  // range2 is only in B now
  const std::string html = analyze::html_report(result, nullptr);
  CHECK(html.find("CL_OUT_OF_RESOURCES in pass 3") != std::string::npos);
  CHECK(html.find("program rebuilt from source") != std::string::npos);
  CHECK(html.find("nan") == std::string::npos);
}
