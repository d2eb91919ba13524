#include <doctest/doctest.h>

#include <fstream>

#include "analyzer/core/chrome_trace.h"
#include "format/trace_reader.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

std::vector<nlohmann::json> spans(const nlohmann::json& trace, const std::string& cat) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == cat) out.push_back(e);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "export of a trace: ranges on host threads, kernels on their queues, from the recorded times") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const auto r = test::run_analyze({"export", (dir / "example.fb").string(), "--format", "chrome",
                                    "-o", (dir / "t.json").string()});
  REQUIRE(r.status == 0);
  const auto trace = nlohmann::json::parse(std::ifstream(dir / "t.json"));
  const auto kernels = spans(trace, "kernel");
  REQUIRE(kernels.size() == 4);  // the four timed kernels; svm and tail have no timings
  CHECK(kernels[0]["name"] == "axpbyz");
  CHECK(kernels[0]["pid"] == 2);
  CHECK(kernels[0]["tid"] == 10);
  CHECK(kernels[0]["ts"].get<double>() == doctest::Approx(8.0));  // 900'010'000 - 900'002'000 ns
  CHECK(kernels[0]["dur"].get<double>() == doctest::Approx(12.5));
  CHECK(spans(trace, "transfer").size() == 2);
  const auto ranges = spans(trace, "range");
  // Five ranges on the host (the ignored one has no duration but is an X of zero), two device
  // spans.
  std::size_t host = 0, device = 0;
  for (const auto& e : ranges) (e["pid"] == 1 ? host : device) += 1;
  CHECK(host == 5);
  CHECK(device == 2);
  CHECK(ranges[0]["name"] == "range1");
  CHECK(ranges[0]["dur"].get<double>() == doctest::Approx(180.0));
}

TEST_CASE("export of a replay result: each pass with its kernels back to back") {
  TempDir dir;
  const analyze::ReplayResult result =
      analyze::load_replay_result(std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001");
  const auto trace = nlohmann::json::parse(analyze::chrome_trace_of_result(result).dump());
  const auto passes = spans(trace, "pass");
  CHECK(passes.size() == 10);  // two replayed ranges, five passes each
  const auto kernels = spans(trace, "kernel");
  REQUIRE(kernels.size() == 20);
  CHECK(kernels[0]["name"] == "axpbyz");
  CHECK(kernels[0]["dur"].get<double>() == doctest::Approx(12.0));
  CHECK(kernels[1]["ts"].get<double>() == doctest::Approx(12.0));
  CHECK(passes[0]["dur"].get<double>() == doctest::Approx(20.0));
  const auto r =
      test::run_analyze({"export", std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181600_000002",
                         "--format", "chrome", "-o", (dir / "r.json").string()});
  CHECK(r.status == 0);
  CHECK(spans(nlohmann::json::parse(std::ifstream(dir / "r.json")), "kernel").size() == 20);
}
