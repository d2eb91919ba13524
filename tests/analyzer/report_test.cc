#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "analyzer/core/html_report.h"
#include "tests/analyzer/cli_run.h"
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
