#include <doctest/doctest.h>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/object_table.h"
#include "analyzer/core/range_listing.h"
#include "format/trace_reader.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/analyzer/golden_file.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

TEST_CASE("show prints a range's commands, arguments and states, as the golden files say") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const analyze::ObjectTable table(reader);
  const auto& range1 = table.find_range("range1");
  const std::string text = analyze::range_text(table, range1);
  // Scalars shown by their recorded type, buffers with their sizes.
  CHECK(text.find("arg 0 a (float): 2") != std::string::npos);
  CHECK(text.find("arg 1 x (float*): buffer 7 (64 B)") != std::string::npos);
  CHECK(text.find("buffer 9 (64 B): 64 B") != std::string::npos);
  test::check_golden("show_range1.txt", text);
  test::check_golden("show_range1.json", analyze::range_json(table, range1).dump(2) + "\n");
  test::check_golden("show_range2.txt", analyze::range_text(table, table.find_range("12")));
}

TEST_CASE("show tells which buffers a range writes") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const analyze::ObjectTable table(reader);
  const auto& range1 = table.find_range("range1");
  CHECK(analyze::buffer_written(range1, 9) == analyze::Written::Yes);
  CHECK(analyze::buffer_written(range1, 7) == analyze::Written::No);
  CHECK(analyze::buffer_written(table.find_range("tail"), 8) == analyze::Written::Unknown);
}

TEST_CASE("show of an unknown range names the ranges there are") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const analyze::ObjectTable table(reader);
  CHECK_THROWS_WITH_AS(table.find_range("range9"),
                       doctest::Contains("range1, range2, nested, svm, tail"),
                       analyze::AnalyzeError);
  const auto r =
      test::run_analyze({"show", (dir / "example.fb").string(), "range2", "--format", "json"});
  REQUIRE(r.status == 0);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["commands"][1]["name"] == "fabs_kernel");
  CHECK(json["commands"][1]["args"][1]["value"] == "16");
  CHECK(json["states"][1]["written"] == "written");
}
