// msprof-analyze on traces of the real example programs and on real replay
// results of them.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/e2e/trace_damage.h"
#include "tests/support/temp_dir.h"

using msprof::test::analyze;
using msprof::test::find_range;
using msprof::test::lines_starting;
using msprof::test::read_text;
using msprof::test::recorded;
using msprof::test::replay_json;
using msprof::test::RunResult;
using msprof::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Lines of `text` that hold every one of `parts`.
std::size_t lines_with(const std::string& text, const std::vector<std::string>& parts) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    n += std::all_of(parts.begin(), parts.end(),
                     [&](const std::string& p) { return line.find(p) != std::string::npos; });
  }
  return n;
}

json parse_stdout(const RunResult& r) {
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

struct RangeLine {
  std::string name, status;
  int kernels = 0;
};

}  // namespace

TEST_CASE("info: one line per range with its status, on real traces") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::vector<RangeLine>>> cases = {
      {"test.py",
       {{"range1", "complete", 2},
        {"range2", "complete", 3},
        {"range3", "ignored: opened inside range 'range2'", 0}}},
      {"open_at_exit.py",
       {{"done", "complete", 1},
        {"never_closed", "truncated: still open when the program ended", 1}}},
      {"example_image_range", {{"with_image", "complete", 1}, {"image_kinds", "complete", 1}}},
      {"killed.py", {{"first", "complete", 1}}},
      {"many_kernels.py", {{"many", "complete", 60}}},
  };
  for (const auto& [example, ranges] : cases) {
    SUBCASE(example.c_str()) {
      const fs::path& trace = recorded(example).trace;
      const RunResult text = analyze({"info", trace.string()}, dir.path());
      INFO(text.out, text.err);
      CHECK(text.exit_code == 0);
      CHECK(text.err.empty());
      const json info =
          parse_stdout(analyze({"info", trace.string(), "--format", "json"}, dir.path()));
      CHECK(info["format"] == "msprof-analyze-info");
      CHECK(info["trace"]["recovered"] == false);
      CHECK(info["ranges"].size() == ranges.size());
      CHECK(info["info"]["api"] == "opencl");
      for (const auto& want : ranges) {
        INFO("range ", want.name);
        CHECK(lines_with(text.out, {" " + want.name + " ", want.status}) == 1);
        const auto it = std::find_if(info["ranges"].begin(), info["ranges"].end(),
                                     [&](const json& r) { return r["name"] == want.name; });
        REQUIRE(it != info["ranges"].end());
        const std::string status = (*it)["status"];
        const std::string reason = (*it)["reason"];
        CHECK((reason.empty() ? status : status + ": " + reason) == want.status);
        CHECK((*it)["kernels"] == want.kernels);
        CHECK((*it)["missing_blobs"] == 0);
      }
    }
  }
}

TEST_CASE("show: a range's kernels, arguments and wait lists") {
  TempDir dir;
  const fs::path& test_py = recorded("test.py").trace;
  const RunResult text = analyze({"show", test_py.string(), "range1"}, dir.path());
  INFO(text.out, text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(lines_with(text.out, {"#0", "kernel axpbyz"}) == 1);
  CHECK(lines_with(text.out, {"#1", "kernel multiply"}) == 1);
  // axpbyz(out, a, x): 1 * a + (-1) * x, the scalars as their bytes.
  CHECK(lines_with(text.out, {"arg 2: 0x0000803f (4 bytes)"}) == 1);
  CHECK(lines_with(text.out, {"arg 5: 0x000080bf (4 bytes)"}) == 1);
  CHECK(lines_with(text.out, {"arg 0: buffer", "(16 B)"}) == 2);
  CHECK(lines_with(text.out, {"(16 B):", "written"}) == 4);

  const json pipeline = parse_stdout(
      analyze({"show", recorded("two_queues.py").trace.string(), "pipeline", "--format", "json"},
              dir.path()));
  CHECK(pipeline["format"] == "msprof-analyze-range");
  REQUIRE(pipeline["commands"].size() == 2);
  const json& scale = pipeline["commands"][0];
  const json& add = pipeline["commands"][1];
  CHECK(scale["name"] == "scale");
  CHECK(add["name"] == "add");
  CHECK(scale["queue"] != add["queue"]);
  CHECK(add["wait_events"] == json::array({scale["event"]}));
  REQUIRE(scale["args"].size() == 2);
  CHECK(scale["args"][0]["kind"] == "buffer");
  CHECK(scale["args"][0]["buffer_size"] == 4096 * 4);
  CHECK(scale["args"][1]["bytes"] == "0x00004040");  // 3.0f
  CHECK(scale["timing"]["end_ns"].get<std::uint64_t>() >=
        scale["timing"]["start_ns"].get<std::uint64_t>());

  // SVM: pointer arguments and indirect pointers name their allocations,
  // which the states list with the addresses they had.
  const RunResult walk =
      analyze({"show", recorded("example_svm_list").trace.string(), "walk"}, dir.path());
  INFO(walk.out, walk.err);
  CHECK(lines_with(walk.out, {"fill allocation", "pattern 0x00000000"}) == 1);
  CHECK(lines_with(walk.out, {"arg 0: pointer into", "(512 B)"}) == 1);
  CHECK(lines_with(walk.out, {"indirect: pointer into"}) == 1);
  CHECK(lines_with(walk.out, {"allocation", "@0x", "(32.0 KiB)", "written"}) == 1);

  // A range name that is not there.
  const RunResult missing = analyze({"show", test_py.string(), "range9"}, dir.path());
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no range 'range9' in the trace") != std::string::npos);
}

TEST_CASE("extract: numpy loads test.py's range1 states with the program's values") {
  TempDir dir;
  const RunResult r = analyze({"extract", recorded("test.py").trace.string(), "range1", "-o",
                               (dir / "x").string(), "--dtype", "float32"},
                              dir.path());
  INFO(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  msprof::test::flush_before_fork();
  const RunResult check = msprof::test::run_command(
      {MSPROF_PYTHON, MSPROF_E2E_SOURCE_DIR "/check_extract.py", (dir / "x").string()}, dir.path());
  INFO(check.out, check.err);
  CHECK(check.exit_code == 0);
  CHECK(check.out == "b [1.0, 2.0, 3.0, 4.0] c [2.0, 8.0, 18.0, 32.0]\n");
  // Only range1's programs: axpbyz's and multiply's, with their sources.
  const json manifest = json::parse(read_text(dir / "x" / "manifest.json"));
  CHECK(manifest["programs"].size() == 2);
  for (const auto& p : manifest["programs"]) {
    REQUIRE(p["sources"].size() == 1);
    CHECK(read_text(dir / "x" / p["sources"][0].get<std::string>()).find("__kernel") !=
          std::string::npos);
  }
}

TEST_CASE("show and extract: images with their format, extracted as arrays of their shape") {
  TempDir dir;
  const fs::path& trace = recorded("example_image_range").trace;
  const RunResult text = analyze({"show", trace.string(), "image_kinds"}, dir.path());
  INFO(text.out, text.err);
  CHECK(lines_with(text.out, {"image", "1D array 16, 3 layers, uint8", "written"}) == 1);
  CHECK(lines_with(text.out, {"image", "2D array 16x16, 3 layers, float16 x4"}) == 1);
  CHECK(lines_with(text.out, {"image", "3D 16x16x4, float32"}) == 1);
  CHECK(lines_with(text.out, {"image", "1D 16, uint8", "written"}) == 1);
  CHECK(lines_with(text.out, {"arg 0 vol (image3d_t): image"}) == 1);
  const RunResult r = analyze({"extract", trace.string(), "-o", (dir / "x").string()}, dir.path());
  INFO(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  const json manifest = json::parse(read_text(dir / "x" / "manifest.json"));
  std::map<std::string, json> shapes;  // "range/type" -> the final state's shape
  for (const auto& range : manifest["ranges"]) {
    for (const auto& b : range["buffers"]) {
      if (b["image"].is_null()) continue;
      CHECK(b["final"]["dtype"] == b["image"]["element_type"]);
      shapes[range["name"].get<std::string>() + "/" + b["image"]["type"].get<std::string>()] =
          b["final"]["shape"];
    }
  }
  CHECK(shapes["with_image/2D"] == json::array({48, 64, 4}));
  CHECK(shapes["image_kinds/1D array"] == json::array({3, 16}));
  CHECK(shapes["image_kinds/2D array"] == json::array({3, 16, 16, 4}));
  CHECK(shapes["image_kinds/3D"] == json::array({4, 16, 16}));
  CHECK(shapes["image_kinds/1D"] == json::array({16}));
  CHECK(shapes["image_kinds/1D buffer"].is_null());  // its state is its buffer's
}

TEST_CASE("verify: every real trace is sound") {
  TempDir dir;
  for (const char* example : {"test.py", "reduction_scan.py", "killed.py", "open_at_exit.py",
                              "example_clblast_gemm", "example_image_range", "example_svm_list"}) {
    const RunResult r = analyze({"verify", recorded(example).trace.string()}, dir.path());
    INFO(example, ": ", r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(lines_starting(r.out, "problem:").empty());
    CHECK(r.out.find("trace is sound") != std::string::npos);
  }
}

TEST_CASE("verify --repair: a real trace cut short is unsound, its repaired copy replays") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  const auto offset = msprof::test::range_frame_offset(trace, "range2");
  msprof::test::copy_truncated(trace, dir / "cut.fb",
                               offset + msprof::test::frame_size_at(trace, offset) / 2);
  const RunResult unsound = analyze({"verify", (dir / "cut.fb").string()}, dir.path());
  INFO(unsound.out, unsound.err);
  CHECK(unsound.exit_code == 1);
  CHECK(unsound.out.find("trace is NOT sound") != std::string::npos);

  const RunResult repair =
      analyze({"verify", (dir / "cut.fb").string(), "--repair", "-o", (dir / "fixed.fb").string()},
              dir.path());
  INFO(repair.out, repair.err);
  CHECK(repair.exit_code == 0);
  REQUIRE(fs::exists(dir / "fixed.fb"));
  const RunResult again = analyze({"verify", (dir / "fixed.fb").string()}, dir.path());
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("trace is sound") != std::string::npos);
  // The repaired copy has an index: replayed without a recovery warning.
  const auto replayed = replay_json(dir / "fixed.fb", {}, dir.path());
  INFO(replayed.run.err);
  CHECK(replayed.run.exit_code == 0);
  CHECK(replayed.run.err.find("warning") == std::string::npos);
  const json* range1 = find_range(replayed.summary, "range1");
  REQUIRE(range1 != nullptr);
  CHECK((*range1)["verification"]["status"] == "bit-exact");
  CHECK(find_range(replayed.summary, "range2") == nullptr);
}

TEST_CASE("info on a recovered trace that lost one chunk: that range's blob is missing") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  // Damage a chunk only range1 names, then tear the trailer off: the scan
  // drops the chunk frame and keeps the manifest that names it.
  const auto chunk = msprof::test::private_chunk_offset(trace, "range1");
  msprof::test::copy_flipped(trace, dir / "flipped.fb",
                             chunk + msprof::test::kFrameHeaderBytes + 1);
  msprof::test::copy_truncated(dir / "flipped.fb", dir / "torn.fb", fs::file_size(trace) - 1);
  const RunResult r = analyze({"info", (dir / "torn.fb").string(), "--format", "json"}, dir.path());
  INFO(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  const json info = json::parse(r.out);
  std::map<std::string, json> by_name;
  for (const auto& range : info["ranges"]) by_name[range["name"]] = range;
  CHECK(by_name.at("range1")["missing_blobs"] == 1);
  CHECK(by_name.at("range2")["missing_blobs"] == 0);
}

TEST_CASE("export --format chrome: valid JSON with every kernel of the trace") {
  TempDir dir;
  const RunResult r = analyze({"export", recorded("reduction_scan.py").trace.string(), "--format",
                               "chrome", "-o", (dir / "t.json").string()},
                              dir.path());
  INFO(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  const json events = json::parse(read_text(dir / "t.json")).at("traceEvents");
  std::multiset<std::string> kernels;
  std::set<std::string> ranges;
  for (const auto& e : events) {
    if (e.value("cat", "") == "kernel") {
      kernels.insert(e["name"].get<std::string>());
      CHECK(e["ph"] == "X");
      CHECK(e["dur"].get<double>() >= 0);
    }
    if (e.value("cat", "") == "range") ranges.insert(e["name"].get<std::string>());
  }
  CHECK(kernels == std::multiset<std::string>{"reduce_kernel_stage1", "reduce_kernel_stage2",
                                              "scan_lev1", "scan_lev2", "scan_final_update",
                                              "wg_sum"});
  CHECK(ranges == std::set<std::string>{"reduce", "scan", "local_arg"});

  // A replay result exports too: its passes and their kernels.
  const auto replayed = replay_json(recorded("test.py").trace, {}, dir.path());
  REQUIRE(replayed.run.exit_code == 0);
  const RunResult from_result = analyze(
      {"export", replayed.folder.string(), "--format", "chrome", "-o", (dir / "r.json").string()},
      dir.path());
  INFO(from_result.err);
  REQUIRE(from_result.exit_code == 0);
  const json result_events = json::parse(read_text(dir / "r.json")).at("traceEvents");
  std::size_t passes = 0, kernel_events = 0;
  for (const auto& e : result_events) {
    passes += e.value("cat", "") == "pass";
    kernel_events += e.value("cat", "") == "kernel";
  }
  CHECK(passes == 2 * 3);         // two replayed ranges, three passes each
  CHECK(kernel_events == 5 * 3);  // their five kernels in each pass
}

TEST_CASE("compare and report: a range-mode and a kernel-mode replay of one trace") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  const auto range_mode = replay_json(trace, {}, dir.path());
  const auto kernel_mode = replay_json(trace, {"--replay-mode", "kernel"}, dir.path());
  REQUIRE(range_mode.run.exit_code == 0);
  REQUIRE(kernel_mode.run.exit_code == 0);
  REQUIRE(range_mode.folder != kernel_mode.folder);

  const json compared =
      parse_stdout(analyze({"compare", range_mode.folder.string(),
                            (kernel_mode.folder / "summary.json").string(), "--format", "json"},
                           dir.path()));
  CHECK(compared["format"] == "msprof-analyze-compare");
  std::multiset<std::string> rows;
  for (const auto& row : compared["rows"]) {
    rows.insert(row["range"].get<std::string>() + "/" + row["kernel"].get<std::string>());
    CHECK(row["a"]["median"].get<double>() > 0);
    CHECK(row["b"]["median"].get<double>() > 0);
    CHECK(row["ratio"].get<double>() > 0);
  }
  CHECK(rows == std::multiset<std::string>{"range1/(wall)", "range1/(kernels)", "range1/axpbyz",
                                           "range1/multiply", "range2/(wall)", "range2/(kernels)",
                                           "range2/divide", "range2/fabs_kernel", "range2/axpbyz"});
  const RunResult text =
      analyze({"compare", range_mode.folder.string(), kernel_mode.folder.string()}, dir.path());
  CHECK(text.exit_code == 0);
  CHECK(lines_with(text.out, {"range mode"}) == 1);
  CHECK(lines_with(text.out, {"kernel mode"}) == 1);

  const RunResult report =
      analyze({"report", range_mode.folder.string(), kernel_mode.folder.string(), "-o",
               (dir / "report.html").string()},
              dir.path());
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  const std::string html = read_text(dir / "report.html");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  for (const char* name : {"range1", "range2", "range3", "axpbyz", "multiply", "fabs_kernel"})
    CHECK(html.find(name) != std::string::npos);
}
