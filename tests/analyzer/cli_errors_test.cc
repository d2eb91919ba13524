#include <doctest/doctest.h>

#include <fstream>

#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Bad input: one line on stderr, in the house format, nothing on stdout, and
// a non-zero exit.
void check_one_line_error(const std::vector<std::string>& args, const std::string& expected) {
  std::string command;
  for (const auto& a : args) command += a + " ";
  CAPTURE(command);
  const auto r = test::run_analyze(args);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("msprof-analyze: error: ", 0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  CHECK(r.err.find("; ") != std::string::npos);
  CHECK(r.err.find(expected) != std::string::npos);
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("every subcommand answers bad input with one line and a non-zero exit") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const std::string trace = (dir / "example.fb").string();
  const std::string missing = (dir / "missing.fb").string();
  spit(dir / "notes.txt", "these are not the bytes you are looking for\n");
  const std::string text = (dir / "notes.txt").string();
  // Damaged: the file header survives, every frame after it does not.
  {
    std::ifstream in(trace, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t i = 16; i < bytes.size(); ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x55);
    spit(dir / "damaged.fb", bytes);
  }
  const std::string damaged = (dir / "damaged.fb").string();
  fs::create_directory(dir / "OPPROF_other");
  spit(dir / "OPPROF_other" / "results.csv", "a,b\n1,2\n");
  const std::string other = (dir / "OPPROF_other").string();
  spit(dir / "foreign.json", R"({"format": "something-else", "version": 1})");
  spit(dir / "broken.json",
       R"({"format": "msprof-replay-result", "version": 1, "ranges": [{"name": 3}]})");
  const std::string out = (dir / "out").string();

  for (const auto& sub : {"info", "show", "extract", "verify", "export"}) {
    std::vector<std::string> tail;
    if (std::string(sub) == "show") tail = {"range1"};
    if (std::string(sub) == "extract") tail = {"-o", out};
    if (std::string(sub) == "export") tail = {"--format", "chrome", "-o", out};
    const auto args = [&](const std::string& input) {
      std::vector<std::string> a = {sub, input};
      a.insert(a.end(), tail.begin(), tail.end());
      return a;
    };
    check_one_line_error(args(missing),
                         std::string(sub) == "export" ? "does not exist" : "cannot open");
    if (std::string(sub) != "export") {
      check_one_line_error(args(text), "not an msprof-replay trace");
      if (std::string(sub) != "verify") check_one_line_error(args(damaged), "no trace-info record");
    }
  }
  // verify reports a damaged trace rather than failing on it.
  const auto verify = test::run_analyze({"verify", damaged});
  CHECK(verify.status == 1);
  CHECK(verify.out.find("trace is NOT sound") != std::string::npos);
  CHECK(verify.out.find("the trace has no trace info record") != std::string::npos);
  check_one_line_error({"show", trace, "range9"}, "no range 'range9'");
  check_one_line_error({"extract", trace, "range9", "-o", out}, "no range 'range9'");
  check_one_line_error({"extract", trace, "-o", out, "--dtype", "complex64"}, "unknown --dtype");
  check_one_line_error({"info", trace, "--format", "yaml"}, "unknown --format");
  check_one_line_error({"export", trace, "--format", "perfetto", "-o", out}, "use chrome");
  check_one_line_error({"info"}, "TRACE is required");
  for (const auto& sub : {"compare", "report", "export"}) {
    const auto args = [&](const std::string& input) -> std::vector<std::string> {
      if (std::string(sub) == "compare") return {sub, input, input};
      if (std::string(sub) == "report") return {sub, input, "-o", out};
      return {sub, input, "--format", "chrome", "-o", out};
    };
    check_one_line_error(args(other), "has no summary.json");
    check_one_line_error(args((dir / "foreign.json").string()), "is not a replay result");
    check_one_line_error(args((dir / "broken.json").string()), "damaged replay result");
    check_one_line_error(args(text), std::string(sub) == "export"
                                         ? "is neither an msprof-replay trace (bad magic) nor"
                                         : "is not JSON");
    if (std::string(sub) != "export") check_one_line_error(args(missing), "does not exist");
  }
  // export takes a trace or a result: a trace with a damaged header is named
  // as neither, and one damaged past its header as a damaged trace.
  {
    std::ifstream in(trace, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes[0] = static_cast<char>(bytes[0] ^ 0xff);
    spit(dir / "bad_magic.fb", bytes);
  }
  check_one_line_error({"export", (dir / "bad_magic.fb").string(), "--format", "chrome", "-o", out},
                       "is neither an msprof-replay trace (bad magic) nor a replay result");
  check_one_line_error({"export", damaged, "--format", "chrome", "-o", out},
                       "no trace-info record");
}

TEST_CASE("outputs are not written over without -f, and --version answers") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const std::string trace = (dir / "example.fb").string();
  const std::string out = (dir / "events.json").string();
  REQUIRE(test::run_analyze({"export", trace, "--format", "chrome", "-o", out}).status == 0);
  check_one_line_error({"export", trace, "--format", "chrome", "-o", out},
                       "already exists; pass -f");
  CHECK(test::run_analyze({"export", trace, "--format", "chrome", "-o", out, "-f"}).status == 0);
  CHECK_FALSE(std::filesystem::exists(out + ".partial"));

  const std::string folder = (dir / "extracted").string();
  REQUIRE(test::run_analyze({"extract", trace, "-o", folder}).status == 0);
  check_one_line_error({"extract", trace, "-o", folder}, "is not an empty folder; pass -f");
  CHECK(test::run_analyze({"extract", trace, "-o", folder, "-f"}).status == 0);
  CHECK(std::filesystem::exists(std::filesystem::path(folder) / "manifest.json"));

  const auto version = test::run_analyze({"--version"});
  CHECK(version.status == 0);
  CHECK(version.out.rfind("msprof-analyze ", 0) == 0);
}

TEST_CASE("an output that is a directory is said to be one, with or without -f") {
  TempDir dir;
  fs::create_directory(dir / "adir");
  const std::string adir = (dir / "adir").string();
  const std::string result = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";
  for (const bool force : {false, true}) {
    std::vector<std::string> report = {"report", result, "-o", adir};
    std::vector<std::string> exported = {"export", result, "--format", "chrome", "-o", adir};
    if (force) {
      report.push_back("-f");
      exported.push_back("-f");
    }
    check_one_line_error(report, "adir is a directory, which -f does not overwrite; ");
    check_one_line_error(exported, "adir is a directory, which -f does not overwrite; ");
  }
}
