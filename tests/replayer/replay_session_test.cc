#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "format/trace_reader.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/session/replay_session.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/opencl_device_list.h"
#include "tests/replayer/synthetic_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using msprof::test::SyntheticOptions;
using msprof::test::TempDir;

namespace {

struct Replayed {
  ReplayResult result;
  const RangeResult& range(const std::string& name) const {
    const auto it = std::find_if(result.ranges.begin(), result.ranges.end(),
                                 [&](const RangeResult& r) { return r.name == name; });
    REQUIRE(it != result.ranges.end());
    return *it;
  }
};

Replayed replay_trace(const std::filesystem::path& trace_path, ReplayOptions options,
                      RangeFilter filter = {}) {
  const trace::TraceReader reader(trace_path);
  const TraceCatalog catalog(reader);
  const auto devices = opencl::list_opencl_devices();
  std::string note;
  opencl::OpenClDevice device(opencl::choose_device(devices, "", catalog.info(), note));
  ReplaySession session(reader, catalog, device, options);
  return {session.run(select_ranges(catalog.ranges(), filter, trace_path.string()))};
}

ReplayOptions fast_options() {
  ReplayOptions o;
  o.launch_count = 3;
  o.cache_control = CacheControl::None;
  return o;
}

std::vector<std::string> kernel_names(const RangeResult& r) {
  std::vector<std::string> names;
  for (const auto& k : r.kernels) names.push_back(k.name);
  return names;
}

}  // namespace

TEST_CASE("range mode replays every kernel of the range bit-exact") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  const auto replayed = replay_trace(dir / "t.fb", fast_options());
  const auto& r = replayed.range("range1");
  CHECK(r.outcome == RangeOutcome::Replayed);
  CHECK(r.program_source == "source");
  CHECK(r.passes == 3);
  CHECK(kernel_names(r) == test::synthetic::kRange1Kernels);
  CHECK(r.verification.status == VerificationStatus::BitExact);
  CHECK(r.verification.buffers.size() == 8);
  for (const auto& k : r.kernels) {
    CHECK(k.pass_us.size() == 3);
    CHECK(k.duration_us.median > 0);
    CHECK(k.original_us == doctest::Approx(2.0));
    CHECK(k.ratio_to_original == doctest::Approx(k.duration_us.median / 2.0));
    CHECK(k.bandwidth_gbps > 0);
  }
  CHECK(r.kernels[0].bytes == 3 * 4096);  // add: a, b, c
  CHECK(r.kernels[0].work_groups == 16);
  CHECK(r.kernels[1].work_groups == 0);  // negate: the driver chose
  CHECK(r.kernels[0].folder == "add_0");
  CHECK(r.kernels[4].folder == "scale_4");
  CHECK(r.wall_us.median > 0);
  CHECK(r.kernel_sum_us.median > 0);
  CHECK(r.restore_us.max > 0);
  CHECK(r.restore_pass_us.size() == 3);
  // a, c, x, parent, sums, e change; b and the ints do not.
  CHECK(r.restored_bytes == 4096 * 4 + 8192 + 64);
  CHECK(replayed.range("inplace").kernels.front().folder == "scale_5");
}

TEST_CASE("kernel mode isolates every kernel and still verifies") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  o.mode = ReplayMode::Kernel;
  o.warm_up = 0;
  const auto replayed = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
  const auto& r = replayed.range("range1");
  CHECK(r.outcome == RangeOutcome::Replayed);
  CHECK(kernel_names(r) == test::synthetic::kRange1Kernels);
  CHECK(r.verification.status == VerificationStatus::BitExact);
  for (const auto& k : r.kernels) CHECK(k.duration_us.min > 0);
}

TEST_CASE("an in-place range gives the same outputs on every pass") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  o.launch_count = 5;
  o.warm_up = 2;
  o.verify = VerifyMode::Each;
  const auto replayed = replay_trace(dir / "t.fb", o, {split_patterns({"inplace|range1"}), {}});
  for (const char* name : {"inplace", "range1"}) {
    const auto& r = replayed.range(name);
    CHECK(r.verification.status == VerificationStatus::BitExact);
    CHECK(r.passes == 5);
  }
  CHECK(replayed.range("inplace").restored_bytes == 4096);
}

TEST_CASE("buffers of several MiB are restored in pieces, exactly, on every pass") {
  TempDir dir;
  SyntheticOptions big;
  // Not a whole number of pages: the last piece is a partial one.
  big.elements = (std::size_t{1} << 20) + 3 * test::synthetic::kGroup;
  test::write_synthetic_trace(dir / "t.fb", big);
  const auto devices = opencl::list_opencl_devices();
  REQUIRE(!devices.empty());
  const opencl::OpenClDevice device(devices.front());
  if (devices.front().cpu && devices.front().description.compute_units > 1) {
    // PoCL takes out-of-order queues: one piece per worker thread.
    CHECK(device.restore_workers() == devices.front().description.compute_units);
  }
  ReplayOptions o = fast_options();
  o.verify = VerifyMode::Each;
  for (auto control : {CacheControl::None, CacheControl::All}) {
    o.cache_control = control;
    const auto replayed = replay_trace(dir / "t.fb", o, {split_patterns({"inplace|range1"}), {}});
    for (const char* name : {"inplace", "range1"}) {
      CHECK(replayed.range(name).verification.status == VerificationStatus::BitExact);
      CHECK(replayed.range(name).passes == 3);
    }
    CHECK(replayed.range("inplace").restored_bytes == big.elements * 4);
  }
}

TEST_CASE("cache control all clears between passes and runs") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  o.cache_control = CacheControl::All;
  o.cache_bytes = 1 << 20;
  for (auto mode : {ReplayMode::Range, ReplayMode::Kernel}) {
    o.mode = mode;
    const auto replayed = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
    CHECK(replayed.range("range1").verification.status == VerificationStatus::BitExact);
    // PoCL is a CPU device in host memory: its caches are cleared from the host,
    // with three times the cache size the options gave.
    CHECK(replayed.result.cache_clear ==
          "read 3 MiB from " + std::to_string(replayed.result.device.compute_units) +
              " host thread" + (replayed.result.device.compute_units == 1 ? "" : "s") +
              " (the device shares the host's caches)");
  }
  o.cache_control = CacheControl::None;
  CHECK(replay_trace(dir / "t.fb", o, {{"range1"}, {}}).result.cache_clear.empty());
}

TEST_CASE("every restore policy replays bit-exact on every pass: copies, the trace, fills") {
  TempDir dir;
  SyntheticOptions big;
  big.elements = (std::size_t{1} << 19) + 3 * test::synthetic::kGroup;  // chunks and a tail
  test::write_synthetic_trace(dir / "t.fb", big);
  ReplayOptions o = fast_options();
  o.verify = VerifyMode::Each;
  // None: driver buffers written through the driver; All: on PoCL, buffers
  // in host memory of ours, written in place; a sweep asked: driver buffers.
  struct Cache {
    CacheControl control;
    std::optional<std::uint64_t> size;
  };
  for (const Cache cache : {Cache{CacheControl::None, {}}, Cache{CacheControl::All, {}},
                            Cache{CacheControl::All, 1ull << 20}}) {
    for (const auto policy : {RestorePolicy::Auto, RestorePolicy::Copy, RestorePolicy::Trace}) {
      CAPTURE(restore_policy_name(policy));
      CAPTURE(cache.size.has_value());
      o.cache_control = cache.control;
      o.cache_bytes = cache.size;
      o.restore = policy;
      const auto replayed = replay_trace(dir / "t.fb", o, {split_patterns({"inplace|range1"}), {}});
      for (const char* name : {"inplace", "range1"}) {
        const auto& r = replayed.range(name);
        CHECK(r.verification.status == VerificationStatus::BitExact);
        CHECK(r.passes == 3);
        CHECK(r.restore_copy_bytes + r.restore_trace_bytes + r.restore_zero_bytes ==
              r.restored_bytes);
        CHECK(r.memory_host_bytes >= r.memory_device_bytes);  // PoCL: buffers are host memory
        if (policy == RestorePolicy::Trace) {
          CHECK(r.restore_copy_bytes == 0);
          CHECK(r.restore_trace_bytes > 0);
        } else {
          // A few MiB: within the smallest copy budget.
          CHECK(r.restore_trace_bytes == 0);
          CHECK(r.restore_copy_bytes > 0);
        }
      }
      CHECK(replayed.range("range1").restore_zero_bytes == 0);
    }
  }
}

TEST_CASE("a range that does not fit is refused before it starts, saying what it needs") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  const RangeFilter range1{split_patterns({"range1"}), {}};
  o.restore = RestorePolicy::Trace;
  const auto lean = replay_trace(dir / "t.fb", o, range1).range("range1");
  REQUIRE(lean.outcome == RangeOutcome::Replayed);
  // Its buffers (32 KiB) and the host side of its write and read (8 KiB).
  CHECK(lean.memory_host_bytes == 4096 * 6 + 8192 + 64 + 4096 + 4096);
  SUBCASE("below what the range holds") {
    o.memory_limit = 32 << 10;
    const RangeResult r = replay_trace(dir / "t.fb", o, range1).range("range1");
    CHECK(r.outcome == RangeOutcome::Failed);
    INFO(r.reason);
    CHECK(r.reason ==
          "the range does not fit: it needs 40 KiB of host memory (32 KiB of buffers, 8 KiB of "
          "host data), --memory-limit allows 32 KiB, or raise --memory-limit");
    CHECK(r.passes == 0);
  }
  SUBCASE("copies refused, the trace restores instead") {
    o.memory_limit = lean.memory_host_bytes;
    o.restore = RestorePolicy::Copy;
    const RangeResult refused = replay_trace(dir / "t.fb", o, range1).range("range1");
    CHECK(refused.outcome == RangeOutcome::Failed);
    CHECK(refused.reason.find("replay with --restore trace to hold no restore copies") !=
          std::string::npos);
    o.restore = RestorePolicy::Auto;
    const RangeResult fitted = replay_trace(dir / "t.fb", o, range1).range("range1");
    CHECK(fitted.outcome == RangeOutcome::Replayed);
    CHECK(fitted.restore_copy_bytes == 0);
    CHECK(fitted.restore_trace_bytes == lean.restore_trace_bytes);
    CHECK(fitted.verification.status == VerificationStatus::BitExact);
  }
}

TEST_CASE("on a device in host memory the range's own lines are evicted, and replay stays exact") {
  REQUIRE(HostLineFlush::available());
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  o.cache_control = CacheControl::All;
  o.launch_count = 3;
  o.verify = VerifyMode::Each;
  for (auto mode : {ReplayMode::Range, ReplayMode::Kernel}) {
    o.mode = mode;
    // Sub-buffers (range1) and a range that writes its own input (inplace)
    // live in host memory of the replayer's now: restored, run and compared
    // as before on every pass.
    const auto replayed = replay_trace(dir / "t.fb", o, {split_patterns({"inplace|range1"}), {}});
    for (const char* name : {"inplace", "range1"}) {
      CHECK(replayed.range(name).verification.status == VerificationStatus::BitExact);
      CHECK(replayed.range(name).passes == 3);
    }
    // PoCL works in place on the memory it is given, so no sweep is made.
    CHECK(replayed.result.cache_clear == HostLineFlush::describe());
  }
}

TEST_CASE("the recorded binary is used when device and driver match") {
  TempDir dir;
  SyntheticOptions options;
  options.with_binaries = true;
  test::write_synthetic_trace(dir / "t.fb", options);
  const auto replayed = replay_trace(dir / "t.fb", fast_options());
  CHECK(replayed.range("range1").program_source == "binary");
  CHECK(replayed.range("range1").verification.status == VerificationStatus::BitExact);
  // --rebuild takes the source even where the binary fits.
  ReplayOptions rebuild = fast_options();
  rebuild.rebuild = true;
  const auto from_source = replay_trace(dir / "t.fb", rebuild);
  CHECK(from_source.range("range1").program_source == "source");
  CHECK(from_source.range("range1").verification.status == VerificationStatus::BitExact);

  options.device_name = "some other device";
  test::write_synthetic_trace(dir / "other.fb", options);
  const auto rebuilt = replay_trace(dir / "other.fb", fast_options());
  CHECK(rebuilt.range("range1").program_source == "source");
  CHECK(rebuilt.range("range1").verification.status == VerificationStatus::BitExact);
}

TEST_CASE("a wrong final state is reported with its buffer and first index") {
  TempDir dir;
  SyntheticOptions options;
  options.wrong_final_state = true;
  test::write_synthetic_trace(dir / "t.fb", options);
  const auto replayed = replay_trace(dir / "t.fb", fast_options());
  const auto& r = replayed.range("range1");
  CHECK(r.verification.status == VerificationStatus::Differs);
  CHECK(replayed.result.any_failure());
  std::size_t differing = 0;
  for (const auto& b : r.verification.buffers) {
    if (b.status == VerificationStatus::BitExact) continue;
    ++differing;
    CHECK(b.status == VerificationStatus::Differs);
    CHECK(b.comparison.buffer == test::synthetic::kBufferE);
    CHECK(b.comparison.element.name == "float32");
    CHECK(b.comparison.first_index == 7);
    CHECK(b.comparison.differing == 1);
    CHECK(b.comparison.max_abs == doctest::Approx(1.0));
    CHECK(b.arg_names == std::set<std::string>{"e"});
  }
  CHECK(differing == 1);
  // The kernels give the same result every pass: a replay fault, not
  // nondeterminism, after the extra passes that rule it out.
  CHECK(r.verification.passes_compared == 1 + ReplayOptions{}.nondeterminism_passes);
  CHECK(replayed.range("inplace").verification.status == VerificationStatus::BitExact);
}

TEST_CASE("ranges that are not replayable are skipped with their reasons") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  const auto replayed = replay_trace(dir / "t.fb", fast_options());
  CHECK(replayed.range("nested").outcome == RangeOutcome::Skipped);
  CHECK(replayed.range("nested").reason == "ignored: opened inside range1");
  CHECK(replayed.range("svm").reason == "not replayable: clEnqueueSVMMap");
  CHECK(replayed.range("cut").reason == "truncated");
  CHECK(replayed.range("cut").kernels.empty());
  CHECK_FALSE(replayed.result.any_failure());
}

TEST_CASE("an int32 buffer that differs is reported in int32, by its argument name") {
  TempDir dir;
  SyntheticOptions options;
  options.wrong_int_final_state = true;
  test::write_synthetic_trace(dir / "t.fb", options);
  const auto replayed = replay_trace(dir / "t.fb", fast_options(), {{"range1"}, {}});
  const auto& v = replayed.range("range1").verification;
  CHECK(v.status == VerificationStatus::Differs);
  bool found = false;
  for (const auto& b : v.buffers) {
    if (b.comparison.buffer != test::synthetic::kSums) continue;
    found = true;
    CHECK(b.status == VerificationStatus::Differs);
    CHECK(b.comparison.element.name == "int32");
    CHECK(b.comparison.first_index == 3);
    CHECK(b.comparison.max_abs == 3);
    CHECK(b.arg_names == std::set<std::string>{"out"});
  }
  CHECK(found);
}

TEST_CASE("a tolerance accepts a float difference within it and not one outside it") {
  TempDir dir;
  SyntheticOptions options;
  options.wrong_final_state = true;  // element 7 of E off by 1.0
  test::write_synthetic_trace(dir / "t.fb", options);
  ReplayOptions o = fast_options();
  o.tolerance = Tolerance{1.5, 0};
  const auto within = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
  CHECK(within.range("range1").verification.status == VerificationStatus::WithinTolerance);
  CHECK_FALSE(within.result.any_failure());
  o.tolerance = Tolerance{0.5, 0};
  const auto outside = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
  CHECK(outside.range("range1").verification.status == VerificationStatus::Differs);
  CHECK(outside.result.any_failure());
}

TEST_CASE("--verify off is 'not verified', with its reason") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  ReplayOptions o = fast_options();
  o.verify = VerifyMode::Off;
  const auto replayed = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
  CHECK(replayed.range("range1").verification.status == VerificationStatus::NotVerified);
  CHECK(replayed.range("range1").verification.reason == "--verify off");
  CHECK_FALSE(replayed.result.any_failure());
}

TEST_CASE("without a recorded final state, the range is not verified and all is restored") {
  TempDir dir;
  SyntheticOptions options;
  options.final_state = false;
  test::write_synthetic_trace(dir / "t.fb", options);
  ReplayOptions o = fast_options();
  o.verify = VerifyMode::Each;
  const auto replayed = replay_trace(dir / "t.fb", o, {{"range1"}, {}});
  CHECK(replayed.range("range1").verification.status == VerificationStatus::NotVerified);
  CHECK(replayed.range("range1").verification.reason ==
        "the trace has no final state (recorded with --final-state off)");
  CHECK(replayed.range("range1").restored_bytes == 4096 * 6 + 8192 + 64);
}

namespace {

// Counts the cache clears of the ranges it loads, passing everything else on.
class CountingRange : public LoadedRange {
 public:
  CountingRange(std::unique_ptr<LoadedRange> inner, unsigned& clears)
      : inner_(std::move(inner)), clears_(clears) {}
  std::string program_origin() const override { return inner_->program_origin(); }
  std::uint64_t restored_bytes() const override { return inner_->restored_bytes(); }
  std::vector<std::string> notes() const override { return inner_->notes(); }
  void restore() override { inner_->restore(); }
  void clear_cache() override {
    ++clears_;
    inner_->clear_cache();
  }
  void begin_pass() override { inner_->begin_pass(); }
  void execute(std::span<const trace::Command> commands) override { inner_->execute(commands); }
  std::vector<trace::CommandTiming> timings() override { return inner_->timings(); }
  void read_buffer(trace::CaptureId buffer, std::uint64_t offset,
                   std::span<std::byte> out) override {
    inner_->read_buffer(buffer, offset, out);
  }

 private:
  std::unique_ptr<LoadedRange> inner_;
  unsigned& clears_;
};

class CountingDevice : public ReplayDevice {
 public:
  explicit CountingDevice(ReplayDevice& inner) : inner_(inner) {}
  const DeviceDescription& description() const override { return inner_.description(); }
  std::unique_ptr<LoadedRange> load(const RangePlan& plan, const trace::TraceInfo& info,
                                    const trace::TraceReader& reader,
                                    const CacheClearRequest& cache,
                                    const RestorePlan& restores) override {
    return std::make_unique<CountingRange>(inner_.load(plan, info, reader, cache, restores),
                                           clears);
  }
  unsigned clears = 0;

 private:
  ReplayDevice& inner_;
};

}  // namespace

TEST_CASE("the cache is cleared before every measured pass (every kernel), never in warm-up") {
  TempDir dir;
  test::write_synthetic_trace(dir / "t.fb");
  const trace::TraceReader reader(dir / "t.fb");
  const TraceCatalog catalog(reader);
  std::string note;
  opencl::OpenClDevice device(
      opencl::choose_device(opencl::list_opencl_devices(), "", catalog.info(), note));
  ReplayOptions o = fast_options();
  o.cache_control = CacheControl::All;
  o.cache_bytes = 1 << 20;
  o.warm_up = 2;
  o.launch_count = 3;
  for (auto mode : {ReplayMode::Range, ReplayMode::Kernel}) {
    CAPTURE(static_cast<int>(mode));
    o.mode = mode;
    CountingDevice counting(device);
    ReplaySession session(reader, catalog, counting, o);
    const auto result = session.run(select_ranges(catalog.ranges(), {{"range1"}, {}}, "t.fb"));
    REQUIRE(result.ranges.size() == 1);
    const std::size_t kernels = result.ranges[0].kernels.size();
    REQUIRE(kernels > 1);
    CHECK(counting.clears == (mode == ReplayMode::Range ? 3 : 3 * kernels));
  }
}
