// End to end: --metrics. Simulated counts (callgrind) on the producer and
// consumer example: range mode keeps what produce left in the cache for
// consume, kernel mode clears it, and the counts repeat exactly. perf's
// software counters (HostActivity), and the one-line refusals.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::JsonReplay;
using msprof::test::read_text;
using msprof::test::recorded;
using msprof::test::replay;
using msprof::test::replay_json;
using msprof::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json& kernel_named(const json& range, const std::string& name) {
  for (const auto& k : range["kernels"]) {
    if (k["name"] == name) return k;
  }
  FAIL("no kernel ", name);
  static const json none;
  return none;
}

double metric(const json& kernel, const std::string& group, const std::string& column) {
  INFO(kernel["name"], " ", group, ".", column, " in ", kernel["metrics"].dump());
  REQUIRE(kernel["metrics"].contains(group));
  REQUIRE(kernel["metrics"][group].contains(column));
  return kernel["metrics"][group][column].get<double>();
}

// Whether this build can run under valgrind (a sanitizer build cannot).
bool simulator_usable() {
#ifdef MSPROF_SANITIZER_PRELOAD
  return false;
#else
  return fs::exists("/usr/bin/valgrind");
#endif
}

}  // namespace

TEST_CASE("sim: consume hits what produce left in range mode, misses in kernel mode, repeatably") {
  if (!simulator_usable()) {
    MESSAGE("skipped: valgrind cannot run this (sanitizer) build");
    return;
  }
  TempDir dir;
  const auto& rec = recorded("producer_consumer.py");
  const std::vector<std::string> sim = {"--metrics", "L2Cache,Instructions", "--metrics-backend",
                                        "sim",       "--launch-count",       "1"};
  const JsonReplay range_mode = replay_json(rec.trace, sim, dir.path());
  INFO(range_mode.run.err);
  REQUIRE(range_mode.run.exit_code == 0);
  const json& m = range_mode.summary["metrics"];
  CHECK(m["groups"] == json::array({"L2Cache", "Instructions"}));
  CHECK(m["backends"]["L2Cache"] == "sim");
  CHECK(m["cache_model"]["LL"]["size_bytes"].get<std::uint64_t>() > 0);
  // PoCL names its device after the CPU it detects; under the simulator
  // that is not the host's, and the result says which it was.
  CHECK(m["simulated_device"].get<std::string>().rfind("basic-", 0) == 0);
  const json* pipeline = find_range(range_mode.summary, "pipeline");
  REQUIRE(pipeline != nullptr);
  const json& consume = kernel_named(*pipeline, "consume");
  const json& produce = kernel_named(*pipeline, "produce");
  // 2 MiB of b: 32768 lines of 64 bytes read by consume.
  CHECK(metric(consume, "L2Cache", "read_cache_hit") >= 32768);
  CHECK(metric(produce, "L2Cache", "read_cache_miss") >= 32768);
  CHECK(metric(consume, "Instructions", "instructions") > 0);
  const double range_hit = metric(consume, "L2Cache", "total_hit_rate(%)");

  // The launch's folder holds the group's CSV, with msprof op's column names.
  const std::string csv =
      read_text(range_mode.folder / consume["folder"].get<std::string>() / "L2Cache.csv");
  CHECK(csv.find("total_hit_rate(%)") != std::string::npos);
  CHECK(csv.find("consume,sim,") != std::string::npos);

  auto kernel_args = sim;
  kernel_args.insert(kernel_args.end(), {"--replay-mode", "kernel"});
  const JsonReplay kernel_mode = replay_json(rec.trace, kernel_args, dir.path());
  INFO(kernel_mode.run.err);
  REQUIRE(kernel_mode.run.exit_code == 0);
  const json* kernel_pipeline = find_range(kernel_mode.summary, "pipeline");
  REQUIRE(kernel_pipeline != nullptr);
  const double kernel_hit =
      metric(kernel_named(*kernel_pipeline, "consume"), "L2Cache", "total_hit_rate(%)");
  CHECK(range_hit >= 40);
  CHECK(kernel_hit <= 5);

  // The simulator is deterministic: the same trace, build and model give
  // the same figures; a workbench variant beside them does not change
  // them, and its changed launch is counted in its range too.
  auto with_variant = sim;
  with_variant.insert(with_variant.end(), {"--local-size", "consume=256"});
  const JsonReplay again = replay_json(rec.trace, with_variant, dir.path());
  INFO(again.run.err);
  REQUIRE(again.run.exit_code == 0);
  const json* pipeline_again = find_range(again.summary, "pipeline");
  REQUIRE(pipeline_again != nullptr);
  for (std::size_t i = 0; i < (*pipeline)["kernels"].size(); ++i) {
    CHECK((*pipeline)["kernels"][i]["metrics"] == (*pipeline_again)["kernels"][i]["metrics"]);
  }
  REQUIRE((*pipeline_again)["variants"].size() == 1);
  const json& launches = (*pipeline_again)["variants"][0]["launch_metrics"];
  REQUIRE(launches.size() == 1);
  CHECK(launches[0]["name"] == "consume");
  CHECK(launches[0]["metrics"]["L2Cache"]["read_cache_hit"].get<double>() >= 32768);
  CHECK(launches[0]["metrics"]["Instructions"]["instructions"].get<double>() > 0);
}

TEST_CASE("perf: HostActivity counts the device's threads for each launch") {
  TempDir dir;
  const auto& rec = recorded("producer_consumer.py");
  const JsonReplay r = replay_json(rec.trace, {"--metrics", "HostActivity"}, dir.path());
  INFO(r.run.err);
  if (r.run.exit_code != 0 && r.run.err.find("perf_event_open") != std::string::npos) {
    MESSAGE("skipped: this host allows no perf_event_open: ", r.run.err);
    return;
  }
  REQUIRE(r.run.exit_code == 0);
  CHECK(r.summary["metrics"]["backends"]["HostActivity"] == "perf");
  const json* pipeline = find_range(r.summary, "pipeline");
  REQUIRE(pipeline != nullptr);
  for (const auto& k : (*pipeline)["kernels"]) {
    // Each launch reads and writes megabytes: its threads ran.
    CHECK(metric(k, "HostActivity", "task_clock(us)") > 0);
    CHECK(fs::exists(r.folder / k["folder"].get<std::string>() / "HostActivity.csv"));
  }
  // Times still come from the timed passes alone.
  CHECK((*pipeline)["passes"] == 3);
}

TEST_CASE("--metrics: bad requests are one line, status 1, and no result folder") {
  TempDir dir;
  const auto& rec = recorded("producer_consumer.py");
  const auto refused = [&](const std::vector<std::string>& options, const std::string& says) {
    INFO("options ", options.size() > 1 ? options[1] : options[0]);
    const JsonReplay r = replay_json(rec.trace, options, dir.path());
    CHECK(r.run.exit_code == 1);
    CHECK(r.run.err.find(says) != std::string::npos);
    CHECK(r.folder.empty());
    CHECK(r.run.err.find('\n') == r.run.err.size() - 1);
  };
  refused({"--metrics", "L2Cach"},
          "unknown metric group 'L2Cach'; the groups are BasicInfo, L2Cache, Memory, "
          "Instructions, HostActivity, Default");
  refused({"--metrics", "HostActivity", "--metrics-backend", "sim"},
          "HostActivity is counted by perf alone");
  refused({"--metrics", "L2Cache", "--metrics-backend", "sim", "--cache-model", "LL=4M,16,48"},
          "the line size '48' is not a power of two");
  refused({"--metrics", "L2Cache", "--metrics-backend", "sim", "--cache-model", "LX=4M"},
          "--cache-model 'LX=4M': unknown level 'LX'");
  if (simulator_usable()) {
    refused({"--metrics", "L2Cache", "--metrics-backend", "sim", "--cache-model", "LL=50M,16,64"},
            "has 51200 sets, and the simulator needs a power of two; give 25 ways");
  }
  // perf without a PMU says so and names the way out; with one, it counts.
  const JsonReplay perf =
      replay_json(rec.trace, {"--metrics", "L2Cache", "--metrics-backend", "perf"}, dir.path());
  if (perf.run.exit_code != 0) {
    CHECK(perf.run.err.find("--metrics-backend sim") != std::string::npos);
    CHECK(perf.folder.empty());
  } else {
    CHECK(perf.summary["metrics"]["backends"]["L2Cache"] == "perf");
  }
}

TEST_CASE("--list-metrics names every group, its columns and who counts it here") {
  TempDir dir;
  const auto r = replay({"--list-metrics"}, dir.path());
  REQUIRE(r.exit_code == 0);
  for (const char* text :
       {"L2Cache (L2Cache.csv)", "Memory (Memory.csv)", "Instructions (Instructions.csv)",
        "HostActivity (HostActivity.csv)", "total_hit_rate(%)", "task_clock(us)"}) {
    CHECK(r.out.find(text) != std::string::npos);
  }
}
