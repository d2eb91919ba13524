#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <variant>

#include "format/trace_writer.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A trace is input: its names may hold anything, and a terminal must not
// act on any of it.
const std::string kRed = "\x1b[31mred\x1b[0m";
const std::string kTwoLines = "two\nlines";

std::string read_file(const fs::path& path) {
  std::ostringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

// The example trace with its two ranges and a kernel renamed.
void write_trace_with_hostile_names(const fs::path& path) {
  test::ExampleTrace e = test::make_example_records();
  for (auto& record : e.records) {
    if (auto* range = std::get_if<trace::Range>(&record)) {
      if (range->name == "range1") range->name = kRed;
      if (range->name == "range2") {
        range->name = kTwoLines;
        range->domain = "\x1b]0;title\x07";
      }
    } else if (auto* kernel = std::get_if<trace::Kernel>(&record)) {
      if (kernel->name == "multiply") kernel->name = "multi\x1b[2Jply";
    }
  }
  trace::TraceWriter::Options options;
  options.workers = 1;
  trace::TraceWriter writer(path, options);
  for (const auto& blob : e.blobs) writer.put_blob(blob);
  for (const auto& record : e.records) writer.write(record);
  writer.close();
}

void check_no_escape(const test::CliResult& r) {
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
}

}  // namespace

TEST_CASE("info and show print a trace's names escaped, one line each") {
  TempDir dir;
  const std::string trace = (dir / "names.fb").string();
  write_trace_with_hostile_names(trace);

  const auto info = test::run_analyze({"info", trace});
  CHECK(info.status == 0);
  check_no_escape(info);
  CHECK(info.out.find("\\x1b[31mred\\x1b[0m") != std::string::npos);
  CHECK(info.out.find("two\\nlines") != std::string::npos);
  CHECK(info.out.find(kTwoLines) == std::string::npos);

  const auto show = test::run_analyze({"show", trace, kTwoLines});
  CHECK(show.status == 0);
  check_no_escape(show);
  CHECK(show.out.find("\"two\\nlines\"") != std::string::npos);
  CHECK(show.out.find("(domain \\x1b]0;title\\x07)") != std::string::npos);
  const auto red = test::run_analyze({"show", trace, kRed});
  CHECK(red.status == 0);
  check_no_escape(red);
  CHECK(red.out.find("multi\\x1b[2Jply") != std::string::npos);

  // JSON escapes by itself: the name comes back whole, once escaped.
  const auto json = test::run_analyze({"info", trace, "--format", "json"});
  CHECK(json.status == 0);
  CHECK(json.out.find("\\u001b[31mred\\u001b[0m") != std::string::npos);

  // The one-line error quotes the name asked for and the trace's names.
  const auto missing = test::run_analyze({"show", trace, "no\nsuch\x1b[0m"});
  CHECK(missing.status == 2);
  CHECK(missing.out.empty());
  check_no_escape(missing);
  CHECK(missing.err.find('\n') == missing.err.size() - 1);
  CHECK(missing.err.find("no range 'no\\nsuch\\x1b[0m'") != std::string::npos);
}

TEST_CASE("the HTML report holds no raw control character from a name") {
  TempDir dir;
  const fs::path result = dir / "OPPROF_20261202181500_000001";
  fs::create_directory(result);
  std::string summary =
      read_file(fs::path(MSPROF_DATA_DIR) / "OPPROF_20261202181500_000001" / "summary.json");
  const auto at = summary.find("\"range1\"");
  REQUIRE(at != std::string::npos);
  summary.replace(at, 8, "\"\\u001b[31mred\\u001b[0m<b>\\n\"");
  std::ofstream(result / "summary.json", std::ios::binary) << summary;

  const auto r = test::run_analyze({"report", result.string(), "-o", (dir / "r.html").string()});
  CHECK(r.status == 0);
  check_no_escape(r);
  const auto compare = test::run_analyze({"compare", result.string(), result.string()});
  CHECK(compare.status == 0);
  check_no_escape(compare);
  CHECK(compare.out.find("\\x1b[31mred\\x1b[0m<b>\\n") != std::string::npos);
  const std::string html = read_file(dir / "r.html");
  CHECK(html.find("\\x1b[31mred\\x1b[0m&lt;b&gt;\\n") != std::string::npos);
  for (const char c : html) {
    const auto byte = static_cast<unsigned char>(c);
    CHECK_MESSAGE((byte >= 0x20 || c == '\n'), "raw control byte " << int(byte));
    if (byte < 0x20 && c != '\n') break;
  }
}

TEST_CASE("a range named like an option is reached by name after --") {
  TempDir dir;
  test::ExampleTrace e = test::make_example_records();
  for (auto& record : e.records) {
    if (auto* range = std::get_if<trace::Range>(&record)) {
      if (range->name == "range1") range->name = "-rf";
      if (range->name == "range2") range->name = "--include";
    }
  }
  const std::string trace = (dir / "options.fb").string();
  {
    trace::TraceWriter::Options options;
    options.workers = 1;
    trace::TraceWriter writer(trace, options);
    for (const auto& blob : e.blobs) writer.put_blob(blob);
    for (const auto& record : e.records) writer.write(record);
    writer.close();
  }
  for (const std::string name : {"-rf", "--include"}) {
    CAPTURE(name);
    const auto show = test::run_analyze({"show", trace, "--", name});
    CHECK(show.status == 0);
    CHECK(show.out.find("\"" + name + "\"") != std::string::npos);
    const auto extract =
        test::run_analyze({"extract", trace, "-o", (dir / ("x" + name)).string(), "--", name});
    CHECK(extract.status == 0);
  }
}
