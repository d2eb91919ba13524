#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replayer/core/replay_device.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/state_comparison.h"
#include "replayer/core/statistics.h"

namespace msprof::replay {

enum class VerificationStatus { Off, BitExact, Differs, Unavailable };
std::string_view verification_status_name(VerificationStatus status);

struct Verification {
  VerificationStatus status = VerificationStatus::Off;
  unsigned pass = 0;  // measured pass the comparison describes (the first that differed)
  std::vector<BufferComparison> buffers;
};

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
};

enum class RangeOutcome { Replayed, Skipped, Failed };
std::string_view range_outcome_name(RangeOutcome outcome);

struct RangeResult {
  std::string name;
  RangeOutcome outcome = RangeOutcome::Skipped;
  std::string reason;  // why skipped or failed
  std::string program_source;
  unsigned passes = 0;
  std::vector<double> wall_pass_us, kernel_sum_pass_us, restore_pass_us;
  Statistics wall_us, kernel_sum_us;
  Statistics restore_us;  // host time restoring the written buffers, outside wall_us
  std::uint64_t restored_bytes = 0;
  Verification verification;
  std::vector<KernelResult> kernels;
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

  bool any_replayed() const;
  bool any_failure() const;  // a verification differed or a range failed
};

}  // namespace msprof::replay
