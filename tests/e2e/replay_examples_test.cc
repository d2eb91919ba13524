// End to end: every example program recorded by msprof-record, then replayed
// by msprof-replay on the local device; each replayable range must verify
// bit-exact against the final state the program itself produced.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::JsonReplay;
using msprof::test::kernel_names;
using msprof::test::lines_starting;
using msprof::test::recorded;
using msprof::test::replay;
using msprof::test::replay_json;
using msprof::test::TempDir;
using nlohmann::json;
using Names = std::vector<std::string>;

namespace {

struct ReplayedRange {
  std::string name;
  Names kernels;
};
struct SkippedRange {
  std::string name;
  std::string reason;
};
struct Expected {
  std::string example;
  std::vector<ReplayedRange> replayed;
  std::vector<SkippedRange> skipped;
  int exit_status = 0;
};

Names repeated(const std::string& name, std::size_t n) {
  return Names(n, name);
}

// What the programs do (see examples/): the kernels pyopencl or the C code
// enqueues inside each range, in order.
const std::vector<Expected>& expectations() {
  static const std::vector<Expected> all = {
      {"test.py",
       {{"range1", {"axpbyz", "multiply"}}, {"range2", {"divide", "fabs_kernel", "axpbyz"}}},
       {{"range3", "ignored: opened inside range 'range2'"}}},
      {"loop_inplace.py", {{"step", {"axpb", "axpbyz"}}}, {}},
      {"reduction_scan.py",
       {{"reduce", {"reduce_kernel_stage1", "reduce_kernel_stage2"}},
        {"scan", {"scan_lev1", "scan_lev2", "scan_final_update"}},
        {"local_arg", {"wg_sum"}}},
       {}},
      {"two_queues.py", {{"pipeline", {"scale", "add"}}}, {}},
      {"matmul_range.py", {{"matmul", {"matmul", "relu_bias"}}}, {}},
      {"gated_range.py", {{"gated", {"twice"}}}, {}},
      {"killed.py", {{"first", {"axpb"}}}, {}},
      {"many_kernels.py", {{"many", repeated("axpb", 60)}}, {}},
      {"open_at_exit.py",
       {{"done", {"axpb"}}},
       {{"never_closed", "truncated: still open when the program ended"}}},
      {"example_clblast_gemm", {{"gemm", {"XgemmDirectTN"}}}, {}},
      {"command_kinds.py", {{"commands", {"fma_local", "shift"}}}, {}},
      {"example_nvtx_vector_add",
       {{"add_and_scale", {"vadd", "vscale"}}, {"scale_again", {"vscale"}}, {"solve", {"vadd"}}},
       {}},
      // Arguments are judged at each launch: an SVM argument the kernel had
      // before the range does not stick; SVM arguments replay.
      {"svm_arguments.py", {{"buffer_after_svm", {"scale"}}, {"svm", {"scale"}}}, {}},
      // Pointers inside SVM data, reached through clSetKernelExecInfo, and
      // fine-grained SVM the host wrote without a map.
      {"example_svm_list", {{"walk", {"walk"}}, {"fine", {"scale"}}}, {}},
      // Every image command and type, an image argument with a sampler.
      {"example_image_range", {{"with_image", {"blur"}}, {"image_kinds", {"planes"}}}, {}},
  };
  return all;
}

void check_replayed(const json& summary, const ReplayedRange& want, int passes) {
  INFO("range ", want.name);
  const json* range = find_range(summary, want.name);
  REQUIRE(range != nullptr);
  CHECK((*range)["status"] == "replayed");
  CHECK((*range)["reason"] == "");
  CHECK((*range)["passes"] == passes);
  CHECK((*range)["verification"]["status"] == "bit-exact");
  for (const auto& b : (*range)["verification"]["buffers"]) CHECK(b["status"] == "bit-exact");
  CHECK_FALSE((*range)["verification"]["buffers"].empty());
  CHECK(kernel_names(*range) == want.kernels);
  CHECK((*range)["wall_us"]["median"].get<double>() > 0);
  for (const auto& k : (*range)["kernels"]) {
    CHECK(k["passes_us"].size() == static_cast<std::size_t>(passes));
    CHECK(k["duration_us"]["median"].get<double>() > 0);
    // The recorder kept the original run's device timestamps.
    CHECK(k["original_us"].get<double>() > 0);
  }
}

void check_skipped(const json& summary, const SkippedRange& want) {
  INFO("range ", want.name);
  const json* range = find_range(summary, want.name);
  REQUIRE(range != nullptr);
  CHECK((*range)["status"] == "skipped");
  CHECK((*range)["reason"] == want.reason);
  CHECK((*range)["kernels"].empty());
}

// The summary holds exactly the expected ranges, each as expected.
void check_summary(const JsonReplay& r, const Expected& want, int passes) {
  REQUIRE(r.summary.is_object());
  CHECK(r.summary["format"] == "msprof-replay-result");
  CHECK(r.summary["ranges"].size() == want.replayed.size() + want.skipped.size());
  for (const auto& range : want.replayed) check_replayed(r.summary, range, passes);
  for (const auto& range : want.skipped) check_skipped(r.summary, range);
}

const Expected& expected_for(const std::string& example) {
  const auto& all = expectations();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const Expected& e) { return e.example == example; });
  REQUIRE(it != all.end());
  return *it;
}

}  // namespace

TEST_CASE("every example replays, each replayable range bit-exact with its recorded kernels") {
  for (const auto& want : expectations()) {
    SUBCASE(want.example.c_str()) {
      TempDir dir;
      const auto& rec = recorded(want.example);
      const JsonReplay r = replay_json(rec.trace, {}, dir.path());
      INFO(r.run.err);
      CHECK(r.run.exit_code == want.exit_status);
      check_summary(r, want, 3);
      // The folder's summary.json is what stdout showed.
      REQUIRE_FALSE(r.folder.empty());
      CHECK(json::parse(msprof::test::read_text(r.folder / "summary.json")) == r.summary);
      // One folder per kernel launch of the replayed ranges.
      std::size_t launches = 0;
      for (const auto& range : want.replayed) launches += range.kernels.size();
      std::size_t kernel_folders = 0;
      for (const auto& e : std::filesystem::directory_iterator(r.folder))
        kernel_folders += e.is_directory();
      CHECK(kernel_folders == launches);
      // Errors only when something could not be replayed.
      const auto errors = lines_starting(r.run.err, "msprof-replay: error:");
      CHECK(errors.size() == (want.exit_status == 0 ? 0u : 1u));
    }
  }
}

TEST_CASE("summary.json follows schemas/summary.schema.json, which fails on a field it lacks") {
  TempDir dir;
  const JsonReplay r = replay_json(recorded("test.py").trace, {"--include", "range1"}, dir.path());
  REQUIRE(r.run.exit_code == 0);
  REQUIRE_FALSE(r.folder.empty());
  CHECK(msprof::test::summary_schema_problems(r.folder / "summary.json").empty());
  // The check is not one that passes whatever it is given: an extra field,
  // a verdict that does not exist and a missing field each fail it.
  json drifted = r.summary;
  drifted["ranges"][0]["kernels"][0]["duration_ms"] = 1.0;
  drifted["ranges"][0]["verification"]["status"] = "exact";
  drifted["options"].erase("restore");
  std::ofstream(dir / "drifted.json") << drifted.dump();
  const std::string problems = msprof::test::summary_schema_problems(dir / "drifted.json");
  CHECK(problems.find("duration_ms") != std::string::npos);
  CHECK(problems.find("'exact' is not one of") != std::string::npos);
  CHECK(problems.find("'restore' is a required property") != std::string::npos);
}

TEST_CASE("the table lists every replayed kernel and every skipped range with its reason") {
  TempDir dir;
  const auto r = replay({recorded("test.py").trace.string(), "--launch-count", "2", "--cache-size",
                         "1M", "--output", dir.path().string()},
                        dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* kernel : {"axpbyz", "multiply", "divide", "fabs_kernel"})
    CHECK(r.out.find(kernel) != std::string::npos);
  CHECK(lines_starting(r.out, "range1  ").size() == 3);  // two kernels and the wall time
  CHECK(lines_starting(r.out, "range2  ").size() == 4);
  CHECK(r.out.find("not replayed:\n  range3: skipped, ignored: opened inside range 'range2'\n") !=
        std::string::npos);
  // Programs built from source are recorded without their device binaries.
  CHECK(r.out.find("programs:\n  range1: rebuilt from source\n  range2: rebuilt from source\n") !=
        std::string::npos);
}

TEST_CASE(
    "with --program-binaries the driver's binaries are recorded and load on the same device") {
  TempDir dir;
  const auto trace = dir / "binaries.fb";
  const auto rec =
      msprof::test::record({"-o", trace.string(), "--program-binaries"},
                           {msprof::test::python(), msprof::test::example("test.py")}, dir.path());
  INFO(rec.err);
  REQUIRE(rec.exit_code == 0);
  const auto r =
      replay({trace.string(), "--launch-count", "2", "--output", dir.path().string()}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("programs:\n  range1: the recorded device binary\n  range2: the recorded "
                   "device binary\n") != std::string::npos);
  CHECK(r.out.find("range1: bit-exact") != std::string::npos);
}

TEST_CASE("an in-place range gives the same outputs on every pass") {
  // loop_inplace.py's "step" reads and writes x: without the restore before
  // each pass, pass 2 would start from pass 1's output and differ.
  TempDir dir;
  const auto& want = expected_for("loop_inplace.py");
  const JsonReplay r =
      replay_json(recorded("loop_inplace.py").trace,
                  {"--verify", "each", "--launch-count", "6", "--warm-up", "2"}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  check_summary(r, want, 6);
  const json& step = *find_range(r.summary, "step");
  // The written buffer is restored before every pass.
  CHECK(step["restored_bytes"].get<std::uint64_t>() >= 1024 * sizeof(float));
}

TEST_CASE("kernel mode runs every kernel alone, and reports each one") {
  for (const char* example : {"test.py", "two_queues.py", "reduction_scan.py", "many_kernels.py",
                              "example_nvtx_vector_add"}) {
    SUBCASE(example) {
      TempDir dir;
      const auto& want = expected_for(example);
      const JsonReplay r =
          replay_json(recorded(example).trace, {"--replay-mode", "kernel"}, dir.path());
      INFO(r.run.err);
      CHECK(r.run.exit_code == 0);
      CHECK(r.summary["options"]["replay_mode"] == "kernel");
      check_summary(r, want, 3);
    }
  }
}

TEST_CASE("--cache-control none replays in range and in kernel mode") {
  for (const char* mode : {"range", "kernel"}) {
    SUBCASE(mode) {
      TempDir dir;
      const auto& want = expected_for("reduction_scan.py");
      const JsonReplay r =
          replay_json(recorded("reduction_scan.py").trace,
                      {"--cache-control", "none", "--replay-mode", mode}, dir.path());
      INFO(r.run.err);
      CHECK(r.run.exit_code == 0);
      CHECK(r.summary["options"]["cache_control"] == "none");
      CHECK(r.summary["options"]["replay_mode"] == mode);
      check_summary(r, want, 3);
    }
  }
}

TEST_CASE("the default cache control clears the device's whole reported cache") {
  // No --cache-size: what PoCL reports (hundreds of MiB) is flushed before
  // each of the 2 passes; this is the default a user gets.
  TempDir dir;
  const auto r = replay({recorded("two_queues.py").trace.string(), "--launch-count", "1",
                         "--warm-up", "1", "--format", "json", "--output", dir.path().string()},
                        dir.path());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["options"]["cache_control"] == "all");
  CHECK((*find_range(summary, "pipeline"))["verification"]["status"] == "bit-exact");
}

TEST_CASE("the trace of a program killed in its second range replays the first") {
  TempDir dir;
  const auto& rec = recorded("killed.py");
  CHECK(rec.record.err.find("killed by signal 9") != std::string::npos);
  const JsonReplay r = replay_json(rec.trace, {}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  check_summary(r, expected_for("killed.py"), 3);
  // "second" never ended: it is not a range to replay.
  CHECK(find_range(r.summary, "second") == nullptr);
}

TEST_CASE("exit status: 2 when every selected range is skipped, 0 when one replays") {
  TempDir dir;
  // Only the ignored range selected.
  auto r = replay_json(recorded("test.py").trace, {"--include", "range3"}, dir.path());
  CHECK(r.run.exit_code == 2);
  CHECK(lines_starting(r.run.err, "msprof-replay: error: no range could be replayed").size() == 1);
  REQUIRE(r.summary.is_object());
  CHECK(r.summary["ranges"].size() == 1);
  CHECK(r.summary["ranges"][0]["status"] == "skipped");

  // The truncated range alone, then excluded.
  r = replay_json(recorded("open_at_exit.py").trace, {"--include", "never_closed"}, dir.path());
  CHECK(r.run.exit_code == 2);
  r = replay_json(recorded("open_at_exit.py").trace, {"--exclude", "never_closed"}, dir.path());
  CHECK(r.run.exit_code == 0);
  REQUIRE(r.summary.is_object());
  CHECK(r.summary["ranges"].size() == 1);
  CHECK(r.summary["ranges"][0]["name"] == "done");

  // Include by pattern.
  r = replay_json(recorded("test.py").trace, {"--include", "range*", "--exclude", "range2"},
                  dir.path());
  CHECK(r.run.exit_code == 0);
  REQUIRE(r.summary.is_object());
  CHECK(r.summary["ranges"].size() == 2);  // range1 replayed, range3 skipped
  CHECK((*find_range(r.summary, "range1"))["status"] == "replayed");
}

TEST_CASE("--list shows every range of a real trace with its status, replaying nothing") {
  TempDir dir;
  const auto r = replay({recorded("open_at_exit.py").trace.string(), "--list"}, dir.path());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("done") != std::string::npos);
  CHECK(r.out.find("never_closed") != std::string::npos);
  CHECK(r.out.find("truncated") != std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    CHECK(e.path().filename().string().rfind("OPPROF_", 0) != 0);
}

// The kernels of test.py take float pointers, and the program was built
// without -cl-kernel-arg-info: the replayer learns the types itself.
TEST_CASE("verification compares buffers in the element type the kernels use") {
  TempDir dir;
  const JsonReplay r = replay_json(recorded("test.py").trace, {}, dir.path());
  REQUIRE(r.summary.is_object());
  const json& buffers = (*find_range(r.summary, "range1"))["verification"]["buffers"];
  REQUIRE_FALSE(buffers.empty());
  for (const auto& b : buffers) {
    CHECK(b["size"] == 16);
    CHECK(b["element"] == "float32");
    CHECK_FALSE(b["arg_names"].empty());
  }
}

// examples/verdicts.py: a range for each verdict that is not bit-exact.
TEST_CASE("verdicts on real kernels: nondeterministic, nothing to verify, empty") {
  TempDir dir;
  const auto& trace = recorded("verdicts.py").trace;
  const JsonReplay r = replay_json(trace, {}, dir.path());
  REQUIRE(r.summary.is_object());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 3);  // nondeterministic without --allow-nondeterministic
  const auto verdict = [&](const std::string& name) {
    const json* range = find_range(r.summary, name);
    REQUIRE(range != nullptr);
    return (*range)["verification"]["status"].get<std::string>();
  };
  CHECK(verdict("uninit_local") == "nondeterministic");
  CHECK(verdict("atomic_order") == "nondeterministic");
  CHECK(verdict("markers_only") == "nothing to verify");
  CHECK(verdict("stable") == "bit-exact");
  const json* empty = find_range(r.summary, "no_commands");
  REQUIRE(empty != nullptr);
  CHECK((*empty)["status"] == "empty");
  // Only the buffer whose tickets change is nondeterministic, not the counter.
  for (const auto& b : (*find_range(r.summary, "atomic_order"))["verification"]["buffers"]) {
    const bool is_order = b["arg_names"] == json::array({"order"});
    CHECK(b["status"] == (is_order ? "nondeterministic" : "bit-exact"));
    if (is_order) CHECK(b["element"] == "uint32");
  }

  // Named by their argument names, they are accepted.
  const JsonReplay allowed = replay_json(
      trace, {"--include", "uninit_local|atomic_order", "--allow-nondeterministic", "out|order"},
      dir.path());
  INFO(allowed.run.err);
  CHECK(allowed.run.exit_code == 0);
  // And "all" accepts every one.
  CHECK(replay_json(trace, {"--include", "atomic_order", "--allow-nondeterministic", "all"},
                    dir.path())
            .run.exit_code == 0);
}

TEST_CASE("a trace recorded with --final-state off is 'not verified', and exits 0") {
  TempDir dir;
  const auto rec =
      msprof::test::record({"--final-state", "off", "-o", (dir / "nofinal.fb").string()},
                           {msprof::test::python(), msprof::test::example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  const JsonReplay r = replay_json(dir / "nofinal.fb", {"--include", "range1"}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json* range = find_range(r.summary, "range1");
  REQUIRE(range != nullptr);
  CHECK((*range)["verification"]["status"] == "not verified");
  CHECK((*range)["verification"]["reason"] ==
        "the trace has no final state (recorded with --final-state off)");
}
