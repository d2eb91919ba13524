// The counting passes of --metrics, with a backend that records what the
// session asks of it, on the local OpenCL device; and the metric groups,
// columns and cache model specs users write.
#include <doctest/doctest.h>

#include <algorithm>

#include "format/trace_reader.h"
#include "replayer/core/counters/counter_backend.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/session/replay_session.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/opencl_device_list.h"
#include "tests/replayer/synthetic_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using msprof::test::TempDir;

namespace {

// Counts launches: each kernel's "launches" column is the number of
// launches counted before it in the pass, plus one.
class RecordingCounters final : public CounterBackend {
 public:
  std::vector<std::string> calls;
  unsigned per_pass_groups = 1;
  bool own_cache = false;

  std::string name() const override { return "perf"; }
  std::vector<std::vector<MetricGroup>> passes(
      const std::vector<MetricGroup>& groups) const override {
    if (per_pass_groups == 1) {
      std::vector<std::vector<MetricGroup>> out;
      for (auto g : groups) out.push_back({g});
      return out;
    }
    return {groups};
  }
  void begin_pass(std::size_t range, unsigned pass, const std::vector<MetricGroup>& g) override {
    calls.push_back("pass " + std::to_string(range) + "." + std::to_string(pass) + " " +
                    std::string(metric_group_name(g.front())));
    group_ = g.front();
    launches_ = 0;
  }
  void begin_kernel(std::uint64_t seq) override { calls.push_back("begin " + std::to_string(seq)); }
  std::vector<GroupCounts> end_kernel(std::uint64_t seq) override {
    calls.push_back("end " + std::to_string(seq));
    GroupCounts c;
    c.group = group_;
    c.backend = name();
    c.values = {{"launches", static_cast<double>(++launches_)}};
    return {c};
  }
  void end_pass() override { calls.push_back("end pass"); }
  bool simulates_cache() const override { return own_cache; }
  bool clear_cache() override {
    calls.push_back("clear");
    return own_cache;
  }

 private:
  MetricGroup group_ = MetricGroup::L2Cache;
  unsigned launches_ = 0;
};

ReplayResult replay_with(const std::filesystem::path& trace_path, ReplayOptions options,
                         RecordingCounters& counters, std::vector<MetricGroup> groups) {
  const trace::TraceReader reader(trace_path);
  const TraceCatalog catalog(reader);
  const auto devices = opencl::list_opencl_devices();
  std::string note;
  opencl::OpenClDevice device(opencl::choose_device(devices, "", catalog.info(), note));
  ReplaySession session(reader, catalog, device, options);
  session.count_with(counters, std::move(groups));
  RangeFilter filter;
  filter.include = {"range1"};
  return session.run(select_ranges(catalog.ranges(), filter, trace_path.string()));
}

std::size_t count_of(const std::vector<std::string>& calls, const std::string& prefix) {
  return static_cast<std::size_t>(std::count_if(
      calls.begin(), calls.end(), [&](const std::string& c) { return c.rfind(prefix, 0) == 0; }));
}

}  // namespace

TEST_CASE("a counting pass per group, every kernel alone between begin and end, never timed") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions options;
  options.launch_count = 2;
  options.cache_control = CacheControl::None;
  RecordingCounters counters;
  const auto result =
      replay_with(dir / "t.fb", options, counters, {MetricGroup::L2Cache, MetricGroup::Memory});
  REQUIRE(result.ranges.size() == 1);
  const auto& r = result.ranges[0];
  REQUIRE(r.outcome == RangeOutcome::Replayed);
  const std::size_t kernels = test::synthetic::kRange1Kernels.size();
  REQUIRE(r.kernels.size() == kernels);
  // Two groups, one per pass: two counting passes, each launch counted once per pass.
  CHECK(count_of(counters.calls, "pass 0.0 L2Cache") == 1);
  CHECK(count_of(counters.calls, "pass 0.1 Memory") == 1);
  CHECK(count_of(counters.calls, "begin ") == 2 * kernels);
  CHECK(count_of(counters.calls, "end pass") == 2);
  // Each begin is followed by the end of the same launch.
  for (std::size_t i = 0; i + 1 < counters.calls.size(); ++i) {
    if (counters.calls[i].rfind("begin ", 0) == 0)
      CHECK(counters.calls[i + 1] == "end " + counters.calls[i].substr(6));
  }
  // cache-control none: no clear at all.
  CHECK(count_of(counters.calls, "clear") == 0);
  for (std::size_t k = 0; k < kernels; ++k) {
    REQUIRE(r.kernels[k].counts.size() == 2);
    CHECK(r.kernels[k].counts[0].group == MetricGroup::L2Cache);
    CHECK(r.kernels[k].counts[1].group == MetricGroup::Memory);
    // In launch order within the pass.
    CHECK(*r.kernels[k].counts[0].value("launches") == static_cast<double>(k + 1));
    // The times come from the timed passes alone.
    CHECK(r.kernels[k].pass_us.size() == 2);
  }
  CHECK(r.passes == 2);
  CHECK(result.metrics.groups.size() == 2);
  CHECK(result.metrics.counting_passes == 2);
}

TEST_CASE("the simulated cache is cleared where --cache-control all clears the real one") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  const std::size_t kernels = test::synthetic::kRange1Kernels.size();
  for (const ReplayMode mode : {ReplayMode::Range, ReplayMode::Kernel}) {
    INFO("mode ", replay_mode_name(mode));
    ReplayOptions options;
    options.mode = mode;
    options.launch_count = 1;
    options.cache_control = CacheControl::All;
    options.counting_only = true;
    RecordingCounters counters;
    counters.own_cache = true;
    counters.per_pass_groups = 2;
    const auto result =
        replay_with(dir / "t.fb", options, counters, {MetricGroup::L2Cache, MetricGroup::Memory});
    REQUIRE(result.ranges[0].outcome == RangeOutcome::Replayed);
    // Counting only: no timed pass.
    CHECK(result.ranges[0].passes == 0);
    CHECK(count_of(counters.calls, "pass ") == 1);
    // Range mode: once, before the first kernel; kernel mode: before each.
    CHECK(count_of(counters.calls, "clear") == (mode == ReplayMode::Range ? 1 : kernels));
    const auto first_begin = std::find_if(counters.calls.begin(), counters.calls.end(),
                                          [](const auto& c) { return c.rfind("begin", 0) == 0; });
    REQUIRE(first_begin != counters.calls.begin());
    CHECK(*(first_begin - 1) == "clear");
  }
}

TEST_CASE("metric groups: msprof op's names, Default for all, one line for an unknown one") {
  CHECK(parse_metric_groups("L2Cache,Memory") == std::vector<MetricGroup>{MetricGroup::BasicInfo,
                                                                          MetricGroup::L2Cache,
                                                                          MetricGroup::Memory});
  CHECK(
      parse_metric_groups("Memory|L2Cache|Memory") ==
      std::vector<MetricGroup>{MetricGroup::BasicInfo, MetricGroup::L2Cache, MetricGroup::Memory});
  CHECK(parse_metric_groups("Default") == all_metric_groups());
  CHECK_THROWS_WITH_AS(parse_metric_groups("L2Cache,PipeUtilization"),
                       "unknown metric group 'PipeUtilization'; the groups are BasicInfo, "
                       "L2Cache, Memory, Instructions, HostActivity, Default (--list-metrics "
                       "describes them)",
                       UsageError);
  CHECK_THROWS_AS(parse_metric_groups(" , "), UsageError);
  for (const MetricGroup g : all_metric_groups()) {
    CHECK(metric_columns(g).empty() == (g == MetricGroup::BasicInfo));
  }
  CHECK(metric_columns(MetricGroup::L2Cache).back().name == "total_hit_rate(%)");
}

TEST_CASE("cache model specs: sizes, defaults from the device, the simulator's power of two") {
  CacheModel device;
  device.i1 = CacheLevelModel{32768, 8, 64};
  device.d1 = CacheLevelModel{32768, 8, 64};
  device.ll = CacheLevelModel{32u << 20, 16, 64};
  CacheModel asked;
  add_cache_model_spec(asked, "LL=4M");
  add_cache_model_spec(asked, "D1=48K,12,64");
  const CacheModel both = complete_cache_model(asked, device);
  CHECK(both.d1->ways == 12);  // 48K, 12 ways, 64 B lines: 64 sets
  CHECK(both.ll->size_bytes == 4u << 20);
  CacheModel ok;
  add_cache_model_spec(ok, "LL=4M");
  const CacheModel full = complete_cache_model(ok, device);
  CHECK(full.ll->size_bytes == 4u << 20);
  CHECK(full.ll->ways == 16);  // the device's
  CHECK(full.ll->line_bytes == 64);
  CHECK(full.d1->size_bytes == 32768);
  CacheModel odd;
  add_cache_model_spec(odd, "LL=50M,16,64");
  CHECK_THROWS_WITH_AS(complete_cache_model(odd, device),
                       "cache model LL (52428800 B, 16-way, 64 B lines) has 51200 sets, and the "
                       "simulator needs a power of two; give 25 ways (LL=52428800,25,64)",
                       UsageError);
  CacheModel m;
  CHECK_THROWS_WITH_AS(add_cache_model_spec(m, "L9=4M"),
                       "--cache-model 'L9=4M': unknown level 'L9'; write LEVEL=SIZE[,WAYS[,LINE]] "
                       "with LEVEL I1, D1 or LL, e.g. LL=4M,16,64",
                       UsageError);
  CHECK_THROWS_AS(add_cache_model_spec(m, "LL=4Q"), UsageError);
  CHECK_THROWS_AS(add_cache_model_spec(m, "LL=4M,16,48"), UsageError);
  CHECK_THROWS_AS(add_cache_model_spec(m, "LL"), UsageError);
  CHECK_THROWS_AS(add_cache_model_spec(m, "LL=4M,0"), UsageError);
}
