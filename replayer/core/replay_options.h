#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "replayer/core/metric_groups.h"
#include "replayer/core/tolerance.h"
#include "replayer/core/workbench_variant.h"

namespace msprof::replay {

enum class ReplayMode { Range, Kernel };
enum class CacheControl { All, None };
// Pin: a CPU device's worker threads one per core, so the OS cannot stack
// two on one core in the middle of a pass; None: where the OS puts them.
enum class ThreadControl { Pin, None };
// How the buffers a range writes are put back before each pass.
//   Auto: a copy held on the device for the buffers costliest to read from
//         the trace again, while the copies stay within the copy budget
//         (plan/range_footprint.h); the others from the trace.
//   Copy: a copy of every one (fastest restore, twice their memory).
//   Trace: every one read from the trace again (least memory).
enum class RestorePolicy { Auto, Copy, Trace };
// First: after the first measured pass; Each: after every measured pass.
enum class VerifyMode { Off, First, Each };

struct ReplayOptions {
  ReplayMode mode = ReplayMode::Range;
  unsigned launch_count = 10;
  unsigned warm_up = 1;
  CacheControl cache_control = CacheControl::All;
  VerifyMode verify = VerifyMode::First;
  // Applied before the driver loads, by the command line
  // (opencl::request_thread_control); kept here for the result files and
  // ReplayDevice::thread_placement.
  ThreadControl thread_control = ThreadControl::Pin;
  // Replaces the last-level cache size the device reports, for devices that
  // report nonsense and for tests that cannot afford the real size.
  std::optional<std::uint64_t> cache_bytes;
  // Floating-point differences accepted as "within tolerance".
  std::optional<Tolerance> tolerance;
  // Buffers whose nondeterminism is expected (capture ids or the argument
  // names the kernels give them); `allow_all_nondeterministic` for every one.
  std::vector<std::string> allow_nondeterministic;
  bool allow_all_nondeterministic = false;
  // Extra passes run, when a verification differs, to tell a kernel that
  // gives different results run to run from a replay fault.
  unsigned nondeterminism_passes = 3;
  RestorePolicy restore = RestorePolicy::Auto;
  // The host memory a replay may use, in place of what the host has
  // available when it starts.
  std::optional<std::uint64_t> memory_limit;
  // Programs built from source or IL even where the recorded binary fits.
  bool rebuild = false;
  // The workbench: variants replayed beside each range they touch.
  std::vector<Variant> variants;
  bool allow_global_size_change = false;
  // Counter groups collected in counting passes after the timed ones
  // (never BasicInfo, which the timed passes are), and who counts them.
  std::vector<MetricGroup> metrics;
  CounterBackendChoice metrics_backend = CounterBackendChoice::Auto;
  // What --cache-model set of a simulated cache; the rest is the device's.
  CacheModel cache_model;
  // Only the counting passes, none timed or verified: the run inside the
  // simulator, whose times would mean nothing.
  bool counting_only = false;
};

std::string_view replay_mode_name(ReplayMode mode);
std::string_view cache_control_name(CacheControl control);
std::string_view thread_control_name(ThreadControl control);
std::string_view verify_mode_name(VerifyMode mode);
std::string_view restore_policy_name(RestorePolicy policy);

}  // namespace msprof::replay
