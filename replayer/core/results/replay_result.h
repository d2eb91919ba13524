#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "replayer/core/device_description.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/results/statistics.h"
#include "replayer/core/verify/verification.h"

namespace msprof::replay {

struct KernelResult {
  unsigned launch = 0;  // index among the range's kernel launches
  std::uint64_t seq = 0;
  std::string name;
  std::string folder;  // <sanitized name>_<n>, n over the whole result
  std::vector<std::uint64_t> global_size, local_size;
  std::uint64_t work_groups = 0;  // 0: the driver chose the local size
  std::uint64_t bytes = 0;        // sizes of the buffers the kernel's arguments name
  double bandwidth_gbps = 0;      // bytes / median duration
  std::vector<double> pass_us, queued_us;
  Statistics duration_us, queued_stats_us;
  double original_us = 0;  // 0: the trace has no timing for it
  double ratio_to_original = 0;
  // The counter groups of its counting passes (--metrics), one entry each.
  std::vector<GroupCounts> counts;
  const GroupCounts* counts_of(MetricGroup group) const;
};

// One variant of the kernel workbench, measured in passes interleaved with
// the recorded range's (RangeResult's own passes are those).
// The counts of one launch of a workbench variant, to set beside the
// recorded launch's (the same seq in RangeResult::kernels).
struct VariantLaunchCounts {
  std::uint64_t seq = 0;
  std::string name;
  std::vector<GroupCounts> counts;
  const GroupCounts* counts_of(MetricGroup group) const;
};

struct VariantResult {
  std::string label;
  std::size_t option_index = 0;  // among ReplayOptions::variants
  bool failed = false;
  std::string reason;     // why it was not measured (a build error, an argument that does not fit)
  std::string build_log;  // the driver's, when it did not build
  std::vector<std::string> changed_kernels;
  // Per measured pass: the changed kernels' summed durations, in this
  // variant and in the recorded range's pass before it; the variant's wall.
  std::vector<double> changed_pass_us, baseline_changed_pass_us, wall_pass_us;
  Statistics changed_us, baseline_changed_us, wall_us;
  double ratio = 0;          // wall median / the recorded range's wall median
  double changed_ratio = 0;  // the same for the changed kernels alone
  // Every variant pass faster than every recorded one, or slower: the
  // difference is beyond what the passes spread.
  bool beyond_spread = false;
  Verification verification;
  // The changed kernels' launches, counted (--metrics).
  std::vector<VariantLaunchCounts> counts;
  bool acceptable() const { return !failed && verification.acceptable(); }
  std::size_t passes_measured() const { return wall_pass_us.size(); }
};

// Empty: the range holds no command, so there is nothing to replay; it is
// not counted as replayed.
enum class RangeOutcome { Replayed, Skipped, Failed, Empty };
std::string_view range_outcome_name(RangeOutcome outcome);

struct RangeResult {
  std::string name;
  RangeOutcome outcome = RangeOutcome::Skipped;
  std::string reason;  // why skipped or failed
  // Why its counting passes (--metrics) failed; its times stand.
  std::string counting_problem;
  std::string program_source;
  unsigned passes = 0;
  std::vector<double> wall_pass_us, kernel_sum_pass_us, restore_pass_us;
  Statistics wall_us, kernel_sum_us;
  Statistics restore_us;  // host time restoring the written buffers, outside wall_us
  std::uint64_t restored_bytes = 0;
  // How restored_bytes are put back: from copies, from the trace, by fills.
  std::uint64_t restore_copy_bytes = 0, restore_trace_bytes = 0, restore_zero_bytes = 0;
  // What the range held in memory (RangeFootprint), device and host side.
  std::uint64_t memory_device_bytes = 0, memory_host_bytes = 0;
  Verification verification;
  std::vector<KernelResult> kernels;
  std::vector<VariantResult> variants;
  // The fastest variant whose outputs verified; nullptr when none did.
  const VariantResult* best_variant() const;
};

// What the counting passes (--metrics) counted and how; no groups when
// none ran.
struct MetricsSummary {
  std::vector<MetricGroup> groups;
  std::vector<std::string> backends;  // who counted each of `groups`
  // The cache the simulator modelled; empty where nothing was simulated.
  std::optional<CacheModel> cache_model;
  // The device as the simulated run saw it (PoCL names it after the CPU
  // it detects, which under the simulator is not the host's): its kernels
  // were built for that CPU, not for the device the times come from.
  std::string simulated_device;
  std::vector<std::string> notes;
  unsigned counting_passes = 0;  // per range
  const std::string* backend_of(MetricGroup group) const;
};

struct ReplayResult {
  std::string trace;
  std::string created;  // ISO 8601, UTC
  std::uint64_t recorded_pid = 0;
  DeviceDescription device;
  ReplayOptions options;
  std::string cache_clear;       // how, in words; empty when it was not cleared
  std::string thread_placement;  // a CPU device's worker threads, in words; else empty
  std::vector<std::string> notes;
  std::vector<RangeResult> ranges;
  MetricsSummary metrics;

  bool any_replayed() const;
  // A range failed, or a verdict is not acceptable (differs, or
  // nondeterministic in a buffer --allow-nondeterministic does not name).
  bool any_failure() const;
};

}  // namespace msprof::replay
