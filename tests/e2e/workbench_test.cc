// The kernel workbench on real programs: examples/matmul_range.py replayed
// with the tiled edit that ships with it (examples/workbench/), with edits
// that are wrong in the ways a user's are, and a sweep of local sizes on
// the reference example's trace.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::JsonReplay;
using msprof::test::recorded;
using msprof::test::replay_json;
using msprof::test::TempDir;
using nlohmann::json;

namespace {

const std::string kTiled = msprof::test::example("workbench/matmul_tiled.cl");

// The shipped edit with `from` replaced by `to` (once), written to `path`:
// each wrong edit differs from the right one by what makes it wrong.
std::string edited(const std::filesystem::path& path, const std::string& from,
                   const std::string& to) {
  std::string text = msprof::test::read_text(kTiled);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(path) << text;
  return path.string();
}

const json& only_variant(const JsonReplay& r) {
  const json* range = find_range(r.summary, "matmul");
  REQUIRE(range != nullptr);
  REQUIRE((*range)["variants"].size() == 1);
  return (*range)["variants"][0];
}

}  // namespace

TEST_CASE(
    "workbench: the tiled matmul replaces the naive one in its range, measured and verified") {
  TempDir dir;
  const auto& trace = recorded("matmul_range.py").trace;
  const JsonReplay r = replay_json(
      trace, {"--kernel-source", "matmul=" + kTiled, "--tolerance", "1e-4,1e-5"}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json& v = only_variant(r);
  CHECK(v["label"] == "matmul:matmul_tiled.cl");
  CHECK(v["status"] == "measured");
  CHECK(v["changed_kernels"] == json::array({"matmul"}));
  // Both measured, pass for pass.
  CHECK(v["wall_passes_us"].size() == 3);
  CHECK(v["changed_passes_us"].size() == 3);
  CHECK(v["recorded_changed_passes_us"].size() == 3);
  CHECK(v["changed_us"]["median"].get<double>() > 0);
  CHECK(v["recorded_changed_us"]["median"].get<double>() > 0);
  CHECK(v["ratio"].get<double>() > 0);
  const std::string verdict = v["verification"]["status"];
  CHECK((verdict == "bit-exact" || verdict == "within tolerance"));
  CHECK((*find_range(r.summary, "matmul"))["best_variant"] == "matmul:matmul_tiled.cl");

  // msprof-analyze shows the variants: compare (text and JSON) and report.
  REQUIRE_FALSE(r.folder.empty());
  const auto compared = msprof::test::analyze(
      {"compare", r.folder.string(), r.folder.string(), "--format", "json"}, dir.path());
  REQUIRE(compared.exit_code == 0);
  const json variants = json::parse(compared.out)["variants"];
  REQUIRE(variants.size() == 2);  // A's and B's
  CHECK(variants[0]["label"] == "matmul:matmul_tiled.cl");
  CHECK(variants[0]["best"] == true);
  CHECK(variants[0]["verification"] == v["verification"]["status"]);
  const auto text =
      msprof::test::analyze({"compare", r.folder.string(), r.folder.string()}, dir.path());
  CHECK(text.out.find("  A matmul with matmul:matmul_tiled.cl: ") != std::string::npos);
  const auto report = msprof::test::analyze(
      {"report", r.folder.string(), "-o", (dir / "report.html").string()}, dir.path());
  REQUIRE(report.exit_code == 0);
  const std::string html = msprof::test::read_text(dir / "report.html");
  CHECK(html.find("<h3>matmul: variants</h3>") != std::string::npos);
  CHECK(html.find("matmul:matmul_tiled.cl (best)") != std::string::npos);
  CHECK(html.find("range wall median of each variant against the recorded range") !=
        std::string::npos);
}

TEST_CASE("workbench: the documented round trip, extract then --program-source, replays the same") {
  TempDir dir;
  const auto& trace = recorded("matmul_range.py").trace;
  const auto extracted =
      msprof::test::analyze({"extract", trace.string(), "-o", (dir / "x").string()}, dir.path());
  REQUIRE(extracted.exit_code == 0);
  std::string program;
  for (const auto& e : std::filesystem::directory_iterator(dir / "x" / "programs"))
    program = e.path().filename().string();  // program_ID, the trace's one program
  REQUIRE(program.rfind("program_", 0) == 0);
  const auto source = dir / "x" / "programs" / program / "source_0.cl";
  const JsonReplay r =
      replay_json(trace, {"--program-source", program + "=" + source.string()}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json& v = only_variant(r);
  CHECK(v["label"] == program + ":source_0.cl");
  CHECK(v["changed_kernels"] == json::array({"matmul", "relu_bias"}));
  CHECK(v["verification"]["status"] == "bit-exact");  // the same source, the same results
}

TEST_CASE("workbench: an off-by-one edit differs, with the buffer and its first index") {
  TempDir dir;
  const auto file = edited(dir / "off_by_one.cl", "k < TILE;", "k < TILE - 1;");
  const JsonReplay r = replay_json(recorded("matmul_range.py").trace,
                                   {"--kernel-source", "matmul=" + file}, dir.path());
  CHECK(r.run.exit_code == 3);
  const json& v = only_variant(r);
  CHECK(v["verification"]["status"] == "differs");
  bool c_differs = false;
  for (const auto& b : v["verification"]["buffers"]) {
    if (b["arg_names"] != json::array({"C"})) continue;
    c_differs = b["status"] == "differs" && b["first_index"] == 0 && b["element"] == "float32";
  }
  CHECK(c_differs);
  // The recorded range itself still verifies.
  CHECK((*find_range(r.summary, "matmul"))["verification"]["status"] == "bit-exact");
}

TEST_CASE("workbench: an edit that does not take the recorded arguments is refused in one line") {
  TempDir dir;
  const auto file = edited(dir / "pointer_n.cl", "const int n) {",
                           "__global const int* np) {\n  const int n = *np;");
  const JsonReplay r = replay_json(recorded("matmul_range.py").trace,
                                   {"--kernel-source", "matmul=" + file}, dir.path());
  CHECK(r.run.exit_code == 3);
  const json& v = only_variant(r);
  CHECK(v["status"] == "failed");
  CHECK(v["reason"] ==
        "kernel 'matmul' of " + file +
            ": argument 3 ('np', int*) is not a scalar, the recorded launch passes a scalar of 4 "
            "bytes; the edit must take the recorded arguments");
  CHECK(r.run.err.find("msprof-replay: error: range 'matmul' with matmul:pointer_n.cl: kernel "
                       "'matmul' of") != std::string::npos);
}

TEST_CASE("workbench: an edit that does not build prints the driver's build log, exit non-zero") {
  TempDir dir;
  const auto file =
      edited(dir / "broken.cl", "barrier(CLK_LOCAL_MEM_FENCE);", "barrier(CLK_LOCAL_MEM_FENCE)");
  const JsonReplay r = replay_json(recorded("matmul_range.py").trace,
                                   {"--kernel-source", "matmul=" + file}, dir.path());
  CHECK(r.run.exit_code == 3);
  const json& v = only_variant(r);
  CHECK(v["status"] == "failed");
  CHECK(v["reason"].get<std::string>().find(file + " does not build") == 0);
  CHECK_FALSE(v["build_log"].get<std::string>().empty());
  // The log as the driver wrote it, after the one-line error.
  CHECK(r.run.err.find(v["build_log"].get<std::string>()) != std::string::npos);
}

TEST_CASE("workbench: -cl-fast-relaxed-math is within a tolerance that allows it, not outside") {
  TempDir dir;
  const auto& trace = recorded("matmul_range.py").trace;
  const std::vector<std::string> rebuild = {"--build-options", "matmul=-cl-fast-relaxed-math"};
  auto loose = rebuild, tight = rebuild;
  loose.insert(loose.end(), {"--tolerance", "1e-3,1e-3"});
  tight.insert(tight.end(), {"--tolerance", "1e-9,0"});
  const JsonReplay within = replay_json(trace, loose, dir.path());
  INFO(within.run.err);
  CHECK(within.run.exit_code == 0);
  CHECK(only_variant(within)["verification"]["status"] == "within tolerance");
  const JsonReplay outside = replay_json(trace, tight, dir.path());
  CHECK(outside.run.exit_code == 3);
  CHECK(only_variant(outside)["verification"]["status"] == "differs");
}

TEST_CASE("workbench: a sweep of local sizes on the reference example runs and reports each") {
  TempDir dir;
  const JsonReplay r =
      replay_json(recorded("test.py").trace,
                  {"--include", "range1", "--sweep", "axpbyz:local-size=1,2,4"}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json& variants = (*find_range(r.summary, "range1"))["variants"];
  REQUIRE(variants.size() == 3);
  for (const auto& [i, label] : {std::pair{0, "1"}, {1, "2"}, {2, "4"}}) {
    CHECK(variants[i]["label"] == std::string("axpbyz:local-size=") + label);
    CHECK(variants[i]["status"] == "measured");
    CHECK(variants[i]["wall_passes_us"].size() == 3);
    CHECK(variants[i]["verification"]["status"] == "bit-exact");
  }
}

TEST_CASE("workbench: bad input is one line naming what is there") {
  TempDir dir;
  const auto& trace = recorded("test.py").trace;
  const auto error = [&](const std::vector<std::string>& options) {
    const JsonReplay r = replay_json(trace, options, dir.path());
    CHECK(r.run.exit_code == 1);
    const auto lines = msprof::test::lines_starting(r.run.err, "msprof-replay: error: ");
    REQUIRE(lines.size() == 1);
    return lines[0];
  };
  CHECK(error({"--include", "range1", "--local-size", "nosuch=4"}) ==
        "msprof-replay: error: kernel 'nosuch' is not launched in the selected ranges; their "
        "kernels: axpbyz, multiply");
  CHECK(error({"--kernel-source", "axpbyz=" + (dir / "missing.cl").string()})
            .find("cannot read " + (dir / "missing.cl").string() +
                  " (No such file or directory)") != std::string::npos);
  CHECK(error({"--include", "range1", "--build-options", "program_999=-O2"})
            .find("program 999 has no kernel launched in the selected ranges; their programs: ") !=
        std::string::npos);
  CHECK(error({"--sweep", "axpbyz:local-size=0,4"}).find("is not X[xY[xZ]]") != std::string::npos);
  CHECK(error({"--sweep", "axpbyz:unroll=2"})
            .find("sweep local-size, global-size or build-options") != std::string::npos);
  // A kernel several selected ranges launch is replaced in each.
  const JsonReplay both = replay_json(trace, {"--local-size", "axpbyz=2"}, dir.path());
  CHECK(both.run.exit_code == 0);
  for (const char* name : {"range1", "range2"})
    CHECK((*find_range(both.summary, name))["variants"].size() == 1);
}
