#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "replayer/core/counters/counter_backend.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/core/plan/range_footprint.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/results/replay_result.h"
#include "replayer/core/session/counting_pass.h"
#include "replayer/core/verify/range_verifier.h"

namespace msprof::replay {

// Replays the selected ranges of one trace on one device, pass by pass, and
// gathers the measurements. Device-neutral: the device does the work.
class ReplaySession {
 public:
  using Progress = std::function<void(const std::string&)>;

  ReplaySession(const trace::TraceReader& reader, const TraceCatalog& catalog, ReplayDevice& device,
                ReplayOptions options, Progress progress = {});

  // Counting passes after each range's timed ones, by `counters`, of
  // `groups`; before run().
  void count_with(CounterBackend& counters, std::vector<MetricGroup> groups);
  // Called before each kernel of a counting pass (a simulated one is slow
  // enough to show where it stands).
  void on_counting_step(std::function<void(const CountingStep&)> callback) {
    counting_progress_ = std::move(callback);
  }

  ReplayResult run(const std::vector<SelectedRange>& selection);

  // Bytes of the buffer clear_cache() touches: several times the last-level
  // cache, at most a quarter of the device memory.
  static std::uint64_t cache_scratch_bytes(const DeviceDescription& device,
                                           const ReplayOptions& options);
  static CacheClearRequest cache_clear_request(const DeviceDescription& device,
                                               const ReplayOptions& options);

 private:
  RangeResult replay_range(const trace::Range& range, const CacheClearRequest& cache);
  // How the range's written buffers are restored, and what it holds; the
  // reason it cannot be loaded in `problem`.
  // A workbench variant being measured beside the recorded range.
  struct VariantBench {
    std::size_t index;         // in options_.variants, for LoadedRange
    std::size_t result_index;  // in RangeResult::variants
    VariantResult* result;
    std::unique_ptr<RangeVerifier> verifier;
    std::set<std::uint64_t> changed_seqs;  // launches of the changed kernels
  };
  std::vector<VariantBench> prepare_variants(const trace::Range& range, LoadedRange& loaded,
                                             RangeResult& result,
                                             const std::set<trace::CaptureId>& restored);
  void run_variant_pass(LoadedRange& loaded, const trace::Range& range, VariantBench& bench,
                        bool measured, unsigned m,
                        const std::vector<trace::CommandTiming>& baseline, bool verify);
  // Tells nondeterminism from a difference, then the verdict.
  void settle_variant(LoadedRange& loaded, const trace::Range& range, VariantBench& bench);
  static void summarize_variant(VariantResult& v, const Statistics& baseline_wall);
  static double changed_sum_us(const std::vector<trace::CommandTiming>& timings,
                               const std::set<std::uint64_t>& seqs);
  RestorePlan plan_memory(const RangePlan& plan, const CacheClearRequest& cache,
                          RangeResult& result, std::optional<std::string>& problem);
  void run_pass(LoadedRange& loaded, const trace::Range& range, bool measured, double& wall_us,
                double& restore_us);
  static void record_timings(RangeResult& result, const std::vector<trace::CommandTiming>& timings);
  void fill_kernels(RangeResult& result, const trace::Range& range);
  void run_counting_passes(LoadedRange& loaded, const trace::Range& range, RangeResult& result,
                           std::vector<VariantBench>& benches);

  const trace::TraceReader& reader_;
  const TraceCatalog& catalog_;
  ReplayDevice& device_;
  ReplayOptions options_;
  Progress progress_;
  std::vector<std::string> notes_;
  unsigned next_folder_ = 0;
  CounterBackend* counters_ = nullptr;
  std::vector<MetricGroup> counted_groups_;
  std::function<void(const CountingStep&)> counting_progress_;
  std::vector<std::string> counting_notes_;
  std::size_t range_index_ = 0;  // in the selection, of the range being replayed
  // Taken once, before the first range takes any.
  MemoryCapacity capacity_;
};

}  // namespace msprof::replay
