#include "replayer/core/session/replay_session.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>

#include "replayer/core/plan/kernel_variant.h"
#include "replayer/core/plan/range_plan.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/results/path_name.h"
#include "replayer/core/session/counting_pass.h"
#include "replayer/core/verify/range_verifier.h"

namespace msprof::replay {

namespace {

constexpr std::uint64_t kCacheScratchFactor = 3;
constexpr std::uint64_t kFallbackCacheBytes = 64ull << 20;

bool is_kernel(const trace::Command& command) {
  return std::holds_alternative<trace::KernelLaunch>(command.body);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

double elapsed_us(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

ReplaySession::ReplaySession(const trace::TraceReader& reader, const TraceCatalog& catalog,
                             ReplayDevice& device, ReplayOptions options, Progress progress)
    : reader_(reader),
      catalog_(catalog),
      device_(device),
      options_(options),
      progress_(std::move(progress)) {
  if (options_.mode == ReplayMode::Range && options_.warm_up == 0) {
    options_.warm_up = 1;
    notes_.push_back("range mode needs at least one warm-up pass; using --warm-up 1");
  }
  if (options_.launch_count == 0) throw UsageError("--launch-count must be at least 1");
}

std::uint64_t ReplaySession::cache_scratch_bytes(const DeviceDescription& device,
                                                 const ReplayOptions& options) {
  if (options.cache_control == CacheControl::None) return 0;
  std::uint64_t cache = options.cache_bytes.value_or(device.global_cache_bytes);
  if (cache == 0) cache = kFallbackCacheBytes;
  std::uint64_t bytes = cache * kCacheScratchFactor;
  if (device.global_mem_bytes != 0) bytes = std::min(bytes, device.global_mem_bytes / 4);
  return std::max<std::uint64_t>(bytes, 4096);
}

CacheClearRequest ReplaySession::cache_clear_request(const DeviceDescription& device,
                                                     const ReplayOptions& options) {
  return CacheClearRequest{cache_scratch_bytes(device, options), options.cache_bytes.has_value()};
}

void ReplaySession::count_with(CounterBackend& counters, std::vector<MetricGroup> groups) {
  counters_ = &counters;
  counted_groups_ = std::move(groups);
}

ReplayResult ReplaySession::run(const std::vector<SelectedRange>& selection) {
  ReplayResult result;
  result.trace = reader_.path().string();
  result.created = utc_now();
  result.recorded_pid = catalog_.info().pid;
  result.device = device_.description();
  result.options = options_;
  // A simulator's cache is cleared by the simulator's means; the device's
  // clear would only cost time under it.
  const CacheClearRequest cache = counters_ != nullptr && counters_->simulates_cache()
                                      ? CacheClearRequest{}
                                      : cache_clear_request(device_.description(), options_);
  capacity_ = memory_capacity(device_.description(), options_.memory_limit);
  const bool any_replayable = std::any_of(
      selection.begin(), selection.end(),
      [](const SelectedRange& s) { return s.replayable && !s.range->commands.empty(); });
  if (cache.enabled() && any_replayable) device_.prepare_cache_clear(cache);
  if (!options_.variants.empty()) {
    std::vector<const trace::Range*> ranges;
    for (const auto& s : selection) {
      if (s.replayable) ranges.push_back(s.range);
    }
    for (const auto& variant : options_.variants) check_variant_targets(variant, ranges, catalog_);
  }
  for (std::size_t i = 0; i < selection.size(); ++i) {
    const auto& selected = selection[i];
    range_index_ = i;
    if (!selected.replayable) {
      RangeResult skipped;
      skipped.name = selected.range->name;
      skipped.outcome = RangeOutcome::Skipped;
      skipped.reason = selected.skip_reason;
      result.ranges.push_back(std::move(skipped));
      continue;
    }
    if (selected.range->commands.empty()) {
      // Nothing ran between its start and end: a pass would measure the
      // replayer, and a verdict would vouch for nothing.
      RangeResult empty;
      empty.name = selected.range->name;
      empty.outcome = RangeOutcome::Empty;
      empty.reason = "the range holds no command (no device work between its start and end)";
      result.ranges.push_back(std::move(empty));
      continue;
    }
    if (progress_) progress_("replaying range '" + selected.range->name + "'");
    result.ranges.push_back(replay_range(*selected.range, cache));
  }
  result.cache_clear = device_.cache_clear_method();
  result.thread_placement = device_.thread_placement(options_.thread_control);
  if (counters_ != nullptr) {
    result.metrics.groups = counted_groups_;
    result.metrics.backends.assign(counted_groups_.size(), counters_->name());
    result.metrics.counting_passes =
        static_cast<unsigned>(counters_->passes(counted_groups_).size());
    result.metrics.notes = counters_->notes();
    for (const auto& note : counting_notes_) result.metrics.notes.push_back(note);
  }
  result.notes = notes_;
  return result;
}

RangeResult ReplaySession::replay_range(const trace::Range& range, const CacheClearRequest& cache) {
  RangeResult result;
  result.name = range.name;
  std::unique_ptr<LoadedRange> loaded;
  std::set<trace::CaptureId> restored;
  try {
    RangePlan plan = plan_range(range, catalog_);
    plan.rebuild_programs = options_.rebuild;
    for (const auto& state : plan.written) restored.insert(state.buffer);
    std::optional<std::string> problem;
    const RestorePlan restores = plan_memory(plan, cache, result, problem);
    if (problem) {
      // Said before anything is allocated: a range that cannot fit would
      // otherwise fail halfway through its upload, or push the host into swap.
      result.outcome = RangeOutcome::Failed;
      result.reason = "the range does not fit: it " + *problem;
      return result;
    }
    loaded = device_.load(plan, catalog_.info(), reader_, cache, restores);
  } catch (const ReplayError& e) {
    result.outcome = RangeOutcome::Failed;
    result.reason = e.what();
    return result;
  } catch (const trace::TraceError& e) {
    result.outcome = RangeOutcome::Failed;
    result.reason = std::string("the range's data is unreadable: ") + e.what();
    return result;
  }
  result.outcome = RangeOutcome::Replayed;
  result.program_source = loaded->program_origin();
  result.restored_bytes = loaded->restored_bytes();
  if (const RestorePlan* made = loaded->restores_made()) {
    result.restore_copy_bytes = made->bytes(RestoreSource::Copy);
    result.restore_trace_bytes = made->bytes(RestoreSource::Trace);
    result.restore_zero_bytes = made->bytes(RestoreSource::Zeros);
  }
  for (const auto& note : loaded->notes()) notes_.push_back("range '" + range.name + "': " + note);
  fill_kernels(result, range);
  RangeVerifier verifier(range, catalog_, reader_, options_, restored, *loaded);
  std::vector<VariantBench> benches = prepare_variants(range, *loaded, result, restored);

  // Inside a simulator only the counting passes mean anything: the
  // warm-up passes still run, uncounted, to build and touch what the
  // first pass would.
  const unsigned total = options_.warm_up + (options_.counting_only ? 0 : options_.launch_count);
  const auto verify_now = [&](unsigned measured) {
    return options_.verify == VerifyMode::Each ||
           (options_.verify == VerifyMode::First && measured == 0);
  };
  try {
    for (unsigned pass = 0; pass < total; ++pass) {
      const bool measured = pass >= options_.warm_up;
      const unsigned m = measured ? pass - options_.warm_up : 0;
      double wall_us = 0, restore_us = 0;
      loaded->select_variant(std::nullopt);
      run_pass(*loaded, range, measured, wall_us, restore_us);
      std::vector<trace::CommandTiming> baseline;
      if (measured) {
        baseline = loaded->timings();
        record_timings(result, baseline);
        result.wall_pass_us.push_back(wall_us);
        result.restore_pass_us.push_back(restore_us);
        ++result.passes;
        if (verify_now(m)) verifier.check_pass(*loaded, m);
      }
      // Each variant's pass right after the recorded range's: drift on the
      // machine meets both alike.
      for (auto& bench : benches) {
        if (bench.result->failed) continue;
        run_variant_pass(*loaded, range, bench, measured, m, baseline, verify_now(m));
      }
    }
    loaded->select_variant(std::nullopt);
    // A difference is a replay fault only if the program's own kernels give
    // the same result every time: replay a few more passes to find out.
    unsigned extra = 0;
    while (!verifier.suspects().empty() && extra < options_.nondeterminism_passes) {
      double wall_us = 0, restore_us = 0;
      run_pass(*loaded, range, false, wall_us, restore_us);
      verifier.check_repeat(*loaded);
      ++extra;
    }
    if (extra != 0) {
      notes_.push_back("range '" + range.name + "': " + std::to_string(extra) +
                       " unmeasured pass(es) replayed to tell a nondeterministic kernel from a "
                       "replay fault");
    }
    for (auto& bench : benches) {
      if (!bench.result->failed) settle_variant(*loaded, range, bench);
    }
    loaded->select_variant(std::nullopt);
  } catch (const ReplayError& e) {
    result.outcome = RangeOutcome::Failed;
    result.reason = e.what();
    return result;
  }
  if (counters_ != nullptr && !counted_groups_.empty()) {
    // The timed passes stand whatever the counting does: a failure here
    // leaves the range's counts out, with why.
    try {
      run_counting_passes(*loaded, range, result, benches);
    } catch (const ReplayError& e) {
      for (auto& k : result.kernels) k.counts.clear();
      result.counting_problem = e.what();
      counting_notes_.push_back("range '" + range.name + "' has no counts: " + e.what());
    }
  }
  result.verification = verifier.verdict();
  result.wall_us = summarize(result.wall_pass_us);
  result.kernel_sum_us = summarize(result.kernel_sum_pass_us);
  result.restore_us = summarize(result.restore_pass_us);
  for (auto& kernel : result.kernels) {
    kernel.duration_us = summarize(kernel.pass_us);
    kernel.queued_stats_us = summarize(kernel.queued_us);
    if (kernel.duration_us.median > 0) {
      kernel.bandwidth_gbps = static_cast<double>(kernel.bytes) / (kernel.duration_us.median * 1e3);
    }
    if (kernel.original_us > 0)
      kernel.ratio_to_original = kernel.duration_us.median / kernel.original_us;
  }
  for (auto& v : result.variants) summarize_variant(v, result.wall_us);
  return result;
}

std::vector<ReplaySession::VariantBench> ReplaySession::prepare_variants(
    const trace::Range& range, LoadedRange& loaded, RangeResult& result,
    const std::set<trace::CaptureId>& restored) {
  std::vector<VariantBench> benches;
  for (std::size_t i = 0; i < options_.variants.size(); ++i) {
    const Variant& variant = options_.variants[i];
    if (!touches(variant, range, catalog_)) continue;
    result.variants.emplace_back();
    VariantResult& v = result.variants.back();
    v.label = variant.label;
    v.option_index = i;
    v.changed_kernels = changed_kernels(variant, range, catalog_);
    try {
      check_variant(variant, range, catalog_, options_.allow_global_size_change);
      loaded.prepare_variant(i, variant);
    } catch (const VariantError& e) {
      v.failed = true;
      v.reason = e.what();
      v.build_log = e.build_log();
      continue;
    } catch (const ReplayError& e) {
      v.failed = true;
      v.reason = e.what();
      continue;
    }
    std::set<std::uint64_t> seqs;
    for (const auto& command : range.commands) {
      const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
      if (launch == nullptr) continue;
      const auto& name = catalog_.kernel(launch->kernel).name;
      if (std::find(v.changed_kernels.begin(), v.changed_kernels.end(), name) !=
          v.changed_kernels.end())
        seqs.insert(command.seq);
    }
    benches.push_back(
        {i, result.variants.size() - 1, nullptr,
         std::make_unique<RangeVerifier>(range, catalog_, reader_, options_, restored, loaded),
         std::move(seqs)});
  }
  // Pointers once the vector no longer grows.
  for (auto& bench : benches) bench.result = &result.variants[bench.result_index];
  return benches;
}

double ReplaySession::changed_sum_us(const std::vector<trace::CommandTiming>& timings,
                                     const std::set<std::uint64_t>& seqs) {
  double sum = 0;
  for (const auto& t : timings) {
    if (seqs.count(t.command_seq) != 0 && t.end_ns >= t.start_ns)
      sum += static_cast<double>(t.end_ns - t.start_ns) / 1e3;
  }
  return sum;
}

void ReplaySession::run_variant_pass(LoadedRange& loaded, const trace::Range& range,
                                     VariantBench& bench, bool measured, unsigned m,
                                     const std::vector<trace::CommandTiming>& baseline,
                                     bool verify) {
  VariantResult& v = *bench.result;
  try {
    loaded.select_variant(bench.index);
    double wall_us = 0, restore_us = 0;
    run_pass(loaded, range, measured, wall_us, restore_us);
    if (!measured) return;
    v.wall_pass_us.push_back(wall_us);
    v.changed_pass_us.push_back(changed_sum_us(loaded.timings(), bench.changed_seqs));
    v.baseline_changed_pass_us.push_back(changed_sum_us(baseline, bench.changed_seqs));
    if (verify) bench.verifier->check_pass(loaded, m);
  } catch (const ReplayError& e) {
    // One variant the device refuses (a local size too large for it) ends
    // that variant, not the range.
    v.failed = true;
    v.reason = e.what();
  }
  loaded.select_variant(std::nullopt);
}

void ReplaySession::settle_variant(LoadedRange& loaded, const trace::Range& range,
                                   VariantBench& bench) {
  try {
    loaded.select_variant(bench.index);
    for (unsigned extra = 0;
         !bench.verifier->suspects().empty() && extra < options_.nondeterminism_passes; ++extra) {
      double wall_us = 0, restore_us = 0;
      run_pass(loaded, range, false, wall_us, restore_us);
      bench.verifier->check_repeat(loaded);
    }
    bench.result->verification = bench.verifier->verdict();
  } catch (const ReplayError& e) {
    bench.result->failed = true;
    bench.result->reason = e.what();
  }
  loaded.select_variant(std::nullopt);
}

void ReplaySession::summarize_variant(VariantResult& v, const Statistics& baseline_wall) {
  if (v.failed || v.wall_pass_us.empty()) return;
  v.wall_us = summarize(v.wall_pass_us);
  v.changed_us = summarize(v.changed_pass_us);
  v.baseline_changed_us = summarize(v.baseline_changed_pass_us);
  if (baseline_wall.median > 0) v.ratio = v.wall_us.median / baseline_wall.median;
  if (v.baseline_changed_us.median > 0)
    v.changed_ratio = v.changed_us.median / v.baseline_changed_us.median;
  v.beyond_spread = v.wall_us.max < baseline_wall.min || v.wall_us.min > baseline_wall.max;
}

RestorePlan ReplaySession::plan_memory(const RangePlan& plan, const CacheClearRequest& cache,
                                       RangeResult& result, std::optional<std::string>& problem) {
  const bool host = device_.description().memory_is_host;
  const std::uint64_t scratch = device_.cache_clear_bytes(cache);
  const std::uint64_t budget =
      options_.restore == RestorePolicy::Auto
          ? copy_budget(footprint_of(plan, RestorePlan{}, scratch), capacity_, host)
          : 0;
  RestorePlan restores = plan_restores(plan, reader_, options_.restore, budget);
  const RangeFootprint need = footprint_of(plan, restores, scratch);
  result.restore_copy_bytes = restores.bytes(RestoreSource::Copy);
  result.restore_trace_bytes = restores.bytes(RestoreSource::Trace);
  result.restore_zero_bytes = restores.bytes(RestoreSource::Zeros);
  result.memory_device_bytes = need.device_bytes();
  result.memory_host_bytes = need.host_data + (host ? need.device_bytes() : 0);
  problem = fit_problem(need, capacity_, host);
  if (!problem && options_.restore == RestorePolicy::Auto && result.restore_trace_bytes != 0) {
    notes_.push_back("range '" + plan.range->name +
                     "': " + std::to_string(result.restore_trace_bytes >> 20) +
                     " MiB of its written buffers are restored from the trace before each pass, "
                     "not from copies, to hold the replay's memory near the range's own "
                     "(--restore copy to copy them all)");
  }
  return restores;
}

void ReplaySession::record_timings(RangeResult& result,
                                   const std::vector<trace::CommandTiming>& timings) {
  double kernel_sum = 0;
  for (auto& kernel : result.kernels) {
    const auto it = std::find_if(timings.begin(), timings.end(),
                                 [&](const auto& t) { return t.command_seq == kernel.seq; });
    double duration = 0, queued = 0;
    if (it != timings.end()) {
      duration = static_cast<double>(it->end_ns - it->start_ns) / 1e3;
      queued = it->start_ns >= it->queued_ns
                   ? static_cast<double>(it->start_ns - it->queued_ns) / 1e3
                   : 0;
    }
    kernel.pass_us.push_back(duration);
    kernel.queued_us.push_back(queued);
    kernel_sum += duration;
  }
  result.kernel_sum_pass_us.push_back(kernel_sum);
}

void ReplaySession::run_pass(LoadedRange& loaded, const trace::Range& range, bool measured,
                             double& wall_us, double& restore_us) {
  // A warm-up pass is not measured, so the cache it starts with does not
  // matter; the measured pass after it clears what it left.
  const bool clear = measured && options_.cache_control == CacheControl::All;
  const std::span<const trace::Command> commands(range.commands);
  const auto restore_start = std::chrono::steady_clock::now();
  loaded.restore();
  restore_us = elapsed_us(restore_start);
  if (options_.mode == ReplayMode::Range) {
    if (clear) loaded.clear_cache();
    loaded.begin_pass();
    const auto start = std::chrono::steady_clock::now();
    loaded.execute(commands);
    wall_us = elapsed_us(start);
    return;
  }
  // Kernel mode: the commands still run in order, so each kernel finds the
  // inputs it had in the range; what changes is that every kernel starts
  // alone, with nothing in flight and a cold cache.
  loaded.begin_pass();
  std::size_t first = 0;
  for (std::size_t i = 0; i <= commands.size(); ++i) {
    if (i < commands.size() && !is_kernel(commands[i])) continue;
    if (i > first) {
      const auto start = std::chrono::steady_clock::now();
      loaded.execute(commands.subspan(first, i - first));
      wall_us += elapsed_us(start);
    }
    if (i == commands.size()) break;
    if (clear) loaded.clear_cache();
    const auto start = std::chrono::steady_clock::now();
    loaded.execute(commands.subspan(i, 1));
    wall_us += elapsed_us(start);
    first = i + 1;
  }
}

void ReplaySession::run_counting_passes(LoadedRange& loaded, const trace::Range& range,
                                        RangeResult& result, std::vector<VariantBench>& benches) {
  const auto passes = counters_->passes(counted_groups_);
  CountingStep step;
  step.range_index = range_index_;
  step.passes = static_cast<unsigned>(passes.size());
  step.kernels = static_cast<unsigned>(result.kernels.size());
  const auto count_all = [&](std::vector<KernelResult>& kernels) {
    for (unsigned p = 0; p < passes.size(); ++p) {
      step.pass = p;
      run_counting_pass(loaded, range, options_, *counters_, passes[p], step, kernels,
                        counting_progress_);
    }
  };
  counters_->begin_range();
  struct RangeEnd {
    CounterBackend& counters;
    ~RangeEnd() { counters.end_range(); }
  } range_end{*counters_};
  if (counters_->simulates_cache() && options_.cache_control == CacheControl::None) {
    // A timed pass without cache control starts with what the pass before
    // it left; the simulated cache starts empty: one uncounted pass fills it.
    double wall_us = 0, restore_us = 0;
    run_pass(loaded, range, false, wall_us, restore_us);
  }
  count_all(result.kernels);
  // Each variant's launches counted the same way, so an edited kernel's
  // cache behaviour is compared in its range.
  for (auto& bench : benches) {
    if (bench.result->failed) continue;
    std::vector<KernelResult> kernels = result.kernels;
    for (auto& k : kernels) k.counts.clear();
    try {
      counters_->count_variant(bench.index);
      loaded.select_variant(bench.index);
      step.variant = bench.index;
      count_all(kernels);
      for (auto& k : kernels) {
        if (bench.changed_seqs.count(k.seq) != 0)
          bench.result->counts.push_back({k.seq, k.name, std::move(k.counts)});
      }
    } catch (const ReplayError& e) {
      // A variant the device refuses ends that variant, not the range.
      bench.result->failed = true;
      bench.result->reason = std::string("counting it: ") + e.what();
    }
    step.variant.reset();
    counters_->count_variant(std::nullopt);
    loaded.select_variant(std::nullopt);
  }
}

void ReplaySession::fill_kernels(RangeResult& result, const trace::Range& range) {
  unsigned launch = 0;
  for (const auto& command : range.commands) {
    const auto* body = std::get_if<trace::KernelLaunch>(&command.body);
    if (body == nullptr) continue;
    KernelResult k;
    k.launch = launch++;
    k.seq = command.seq;
    k.name = catalog_.kernel(body->kernel).name;
    k.folder = sanitize_path_component(k.name) + "_" + std::to_string(next_folder_++);
    k.global_size = body->global_size;
    k.local_size = body->local_size;
    if (!k.local_size.empty() && k.local_size.size() == k.global_size.size()) {
      k.work_groups = 1;
      for (std::size_t d = 0; d < k.global_size.size(); ++d) {
        const auto local = std::max<std::uint64_t>(k.local_size[d], 1);
        k.work_groups *= (k.global_size[d] + local - 1) / local;
      }
    }
    std::set<trace::CaptureId> seen;
    for (const auto& arg : body->args) {
      if (!arg.names_memory() || !seen.insert(arg.object).second) continue;
      k.bytes += catalog_.buffer(arg.object).size;
    }
    for (const auto& timing : range.timings) {
      if (timing.command_seq == command.seq && timing.end_ns > timing.start_ns) {
        k.original_us = static_cast<double>(timing.end_ns - timing.start_ns) / 1e3;
      }
    }
    result.kernels.push_back(std::move(k));
  }
}

}  // namespace msprof::replay
