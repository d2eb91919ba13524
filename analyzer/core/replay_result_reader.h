#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace msprof::analyze {

// The statistics msprof-replay gives for a series of passes, in microseconds;
// NaN where it wrote null (not finite) or nothing.
struct PassStats {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0;
};

// One counter group of a kernel launch (summary.json's kernels[].metrics):
// who counted it and its columns, in the order msprof-replay wrote them.
struct KernelMetricGroup {
  std::string group, backend;  // backend: sim or perf
  std::vector<std::pair<std::string, double>> columns;
  const double* find(const std::string& column) const;  // nullptr when not counted
};

struct ResultKernel {
  std::uint64_t launch = 0, seq = 0;
  std::string name, folder;
  std::vector<std::uint64_t> global_size, local_size;
  std::uint64_t work_groups = 0, bytes = 0;
  double bandwidth_gbps = 0;
  PassStats duration, queued;
  std::vector<double> passes_us;
  double original_us = 0, ratio_to_original = 0;
  std::vector<KernelMetricGroup> metrics;  // empty when nothing was counted
  const KernelMetricGroup* find_metrics(const std::string& group) const;
};

// A changed kernel's launch as a variant ran it, counted (--metrics):
// summary.json's ranges[].variants[].launch_metrics, to set beside the
// recorded launch of the same seq in ranges[].kernels.
struct VariantLaunchMetrics {
  std::uint64_t seq = 0;
  std::string name;
  std::vector<KernelMetricGroup> metrics;
};

// A workbench variant of a range (summary.json's ranges[].variants).
struct ResultVariant {
  std::string label, status, reason;  // status: measured or failed
  std::vector<std::string> changed_kernels;
  PassStats changed, recorded_changed, wall;
  double ratio = 0, changed_ratio = 0;  // against the recorded range's passes beside it
  bool beyond_spread = false;
  std::string verification;
  std::vector<VariantLaunchMetrics> launch_metrics;  // empty when nothing was counted
};

struct ResultRange {
  std::string name, status, reason, program_source;  // status: replayed, skipped, failed
  std::uint64_t passes = 0;
  PassStats wall, kernel_sum, restore;  // restore is outside wall
  std::uint64_t restored_bytes = 0;
  // bit-exact, within tolerance, differs, nondeterministic, nothing to
  // verify, not verified (docs/cli/msprof-replay-results.md)
  std::string verification;
  std::string verification_reason;                // why not verified or nothing to verify
  std::vector<std::string> verification_buffers;  // one line per buffer not bit-exact
  std::vector<ResultKernel> kernels;
  std::vector<ResultVariant> variants;
  std::string best_variant;  // the fastest that verified; empty when none
};

struct CacheLevel {
  std::string name;  // I1, D1, LL
  std::uint64_t size_bytes = 0, ways = 0, line_bytes = 0;
};

// How the counting passes (--metrics) counted (summary.json's metrics);
// all empty in a result without them.
struct ResultMetrics {
  std::vector<std::string> groups;
  std::vector<std::pair<std::string, std::string>> backends;  // group, sim or perf
  std::uint64_t counting_passes = 0;
  std::vector<CacheLevel> cache_model;  // empty when nothing was simulated
  std::string simulated_device;
  std::vector<std::string> notes;
  // "I1 32768 B, 8-way, 64 B lines; D1 ..."; empty without a cache model.
  std::string cache_model_text() const;
  // "L2Cache (sim), Instructions (sim)"; empty when nothing was counted.
  std::string groups_text() const;
};

// One msprof-replay result, as docs/cli/msprof-replay-results.md describes summary.json.
struct ReplayResult {
  std::string path;  // as given
  std::string trace, created;
  std::string device_name, platform;
  std::string replay_mode, cache_control;
  std::vector<std::string> notes;  // fallbacks the replayer took
  std::uint64_t launch_count = 0, warm_up = 0;
  ResultMetrics metrics;
  std::vector<ResultRange> ranges;
  // "range mode, 10 passes" and the like, to label this result next to another.
  std::string label() const;
};

// `path` is an OPPROF_* folder or its summary.json
// (schemas/summary.schema.json; version 1 too, whose missing fields read as
// empty). AnalyzeError when it is missing, not JSON, or not what
// msprof-replay writes: another format, or a field of another type.
ReplayResult load_replay_result(const std::filesystem::path& path);

}  // namespace msprof::analyze
