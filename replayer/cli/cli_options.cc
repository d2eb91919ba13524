#include "replayer/cli/cli_options.h"

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "format/trace_version.h"
#include "printable_text/printable_text.h"
#include "replayer/cli/workbench_options.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/worker_thread_placement.h"

namespace msprof::replay::cli {

namespace {

std::vector<std::string> patterns_of(const std::string& option,
                                     const std::vector<std::string>& values) {
  auto patterns = split_patterns(values);
  for (const auto& value : values) {
    if (split_patterns({value}).empty()) {
      throw UsageError(option + " '" + printable(value) +
                       "' names no range; give range names (\"a|b\") or leave the option out");
    }
  }
  return patterns;
}

// "64M", "1G", "4096": a positive byte count with an optional K/M/G suffix.
std::uint64_t size_value(const std::string& option, const std::string& text) {
  std::uint64_t value = 0, unit = 1;
  std::size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (value > (UINT64_MAX - 9) / 10)
      i = text.size() + 1;  // overflow: refused below
    else
      value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i < text.size()) {
    const std::string suffix = text.substr(i);
    if (suffix == "K" || suffix == "k")
      unit = 1ull << 10;
    else if (suffix == "M" || suffix == "m")
      unit = 1ull << 20;
    else if (suffix == "G" || suffix == "g")
      unit = 1ull << 30;
    else
      unit = 0;
  }
  if (i == 0 || unit == 0 || value == 0 || value > UINT64_MAX / unit) {
    throw UsageError(option + " '" + printable(text) +
                     "' is not a size; give a positive byte count with an optional K, M or G "
                     "suffix (e.g. 32M)");
  }
  return value * unit;
}

Tolerance tolerance_value(const std::string& text) {
  const auto comma = text.find(',');
  const std::string parts[2] = {text.substr(0, comma),
                                comma == std::string::npos ? "0" : text.substr(comma + 1)};
  double values[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    char* end = nullptr;
    values[i] = std::strtod(parts[i].c_str(), &end);
    if (parts[i].empty() || end != parts[i].c_str() + parts[i].size() ||
        !std::isfinite(values[i]) || values[i] < 0) {
      throw UsageError("--tolerance '" + printable(text) +
                       "' is not ATOL[,RTOL]; give one or two non-negative numbers, e.g. "
                       "--tolerance 1e-6,1e-5");
    }
  }
  return Tolerance{values[0], values[1]};
}

// The result folder is made after the replay: an --output that cannot hold
// it is said now, alone, before the trace is read or any range replayed.
void check_output_folder(const std::string& output) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path existing = output;
  while (!existing.empty() && !fs::exists(existing, ec)) existing = existing.parent_path();
  if (existing.empty()) existing = ".";
  if (!fs::is_directory(existing, ec)) {
    throw UsageError("--output '" + printable(output) + "': " + printable(existing.string()) +
                     " is a file, not a folder; give a folder for the OPPROF_* result");
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    throw UsageError("--output '" + printable(output) + "': cannot create a folder in " +
                     printable(existing.string()) + " (" + std::strerror(errno) +
                     "); give a writable folder");
  }
}

}  // namespace

bool parse_command_line(int argc, char** argv, CliOptions& options, int& exit_code) {
  CLI::App app{"Replays the ranges of a trace.fb on a device and measures them.", "msprof-replay"};
  std::vector<std::string> include, exclude;
  std::string mode = "range", cache = "all", threads = "pin", verify = "on", format = "table";
  std::string cache_size, tolerance, restore = "auto", memory_limit;
  std::vector<std::string> allow_nondeterministic;
  app.add_option("trace", options.trace, "the trace file written by msprof-record");
  app.add_option("--include,--mstx-include", include,
                 "ranges to replay, \"a|b\", '*' matches anything (default: every range)");
  app.add_option("--exclude", exclude, "ranges not to replay, \"a|b\"");
  app.add_option("--launch-count", options.replay.launch_count,
                 "measured passes of each range (default 10)")
      ->check(CLI::Range(1u, 1000000u));
  app.add_option("--warm-up", options.replay.warm_up,
                 "unmeasured passes before them (default 1; at least 1 in range mode)")
      ->check(CLI::Range(0u, 1000000u));
  app.add_option("--replay-mode", mode,
                 "range: the range's kernels back to back; kernel: each "
                 "kernel alone (default range)")
      ->check(CLI::IsMember({"range", "kernel"}));
  app.add_option("--cache-control", cache, "all: clear the cache before each pass; none: don't")
      ->check(CLI::IsMember({"all", "none"}));
  app.add_option("--cache-size", cache_size,
                 "clear the cache by a sweep of 3x this last-level cache size (K/M/G suffixes) "
                 "instead of what the device reports, or of evicting the range's lines");
  const auto* thread_option =
      app.add_option("--thread-control", threads,
                     "pin: a CPU device's worker threads one per core, so passes do not double "
                     "when the OS stacks two on one core; none: where the OS puts them (default "
                     "pin, or what POCL_AFFINITY in the environment says)")
          ->check(CLI::IsMember({"pin", "none"}));
  app.add_option("--device", options.device, "device index or part of its name");
  app.add_flag("--list-devices", options.list_devices, "print the devices and exit");
  app.add_flag("--list", options.list_ranges, "print the ranges of the trace and exit");
  app.add_option("--verify", verify,
                 "compare with the recorded final state after the first measured pass (on), "
                 "after every one (each) or never (off)")
      ->check(CLI::IsMember({"on", "off", "each"}));
  app.add_option("--tolerance", tolerance,
                 "ATOL[,RTOL]: accept floating-point differences |a-e| <= ATOL + RTOL*|e| as "
                 "'within tolerance' (numpy's isclose; NaN equals NaN only bit for bit)");
  app.add_option("--allow-nondeterministic", allow_nondeterministic,
                 "buffers (capture ids or kernel argument names, \"a|b\") whose results may "
                 "change from run to run, or 'all': their 'nondeterministic' verdict exits 0");
  app.add_flag("--rebuild", options.replay.rebuild,
               "build every program from its recorded source or IL, even where the recorded "
               "binary fits this device: the path a replay on another device takes");
  app.add_option("--restore", restore,
                 "how written buffers are put back before each pass: auto (copies within a "
                 "quarter of the range's buffer bytes, at least 256M; the rest read from the "
                 "trace), copy (a copy of "
                 "every one: fastest, twice their memory) or trace (none held: least memory)")
      ->check(CLI::IsMember({"auto", "copy", "trace"}));
  app.add_option("--memory-limit", memory_limit,
                 "host memory the replay may use (K/M/G suffixes; default what the host has "
                 "available); a range that needs more is refused before it starts");
  WorkbenchArgs bench;
  const std::string workbench = "Workbench (a range replayed with other kernels)";
  app.add_option("--kernel-source", bench.kernel_sources,
                 "KERNEL=FILE: kernel KERNEL of the range built from this OpenCL C file, "
                 "replayed beside the recorded range and verified (repeatable)")
      ->group(workbench);
  app.add_option("--program-source", bench.program_sources,
                 "PROGRAM=FILE: a whole program (its capture id, or program_ID as msprof-analyze "
                 "extract names it) built from this file")
      ->group(workbench);
  app.add_option("--build-options", bench.build_options,
                 "KERNEL=OPTIONS or PROGRAM=OPTIONS: rebuilt with these build options instead "
                 "of the recorded ones")
      ->group(workbench);
  app.add_option("--local-size", bench.local_sizes,
                 "KERNEL=X[,Y[,Z]]: launched with this local size")
      ->group(workbench);
  app.add_option("--global-size", bench.global_sizes,
                 "KERNEL=X[,Y[,Z]]: launched with this global size (a change of the work-items "
                 "needs --allow-global-size-change)")
      ->group(workbench);
  app.add_option("--sweep", bench.sweeps,
                 "TARGET:WHAT=VALUES: one variant per value, one after another in one run: "
                 "KERNEL:local-size=8,16,32 (XxY for 2D), KERNEL:global-size=..., "
                 "KERNEL|PROGRAM:build-options=\"-DT=16|-DT=32\" (repeatable: every "
                 "combination)")
      ->group(workbench);
  app.add_flag("--allow-global-size-change", bench.allow_global_size_change,
               "measure a --global-size that changes how many work-items run")
      ->group(workbench);
  std::string metrics, metrics_backend = "auto";
  std::vector<std::string> cache_model;
  const std::string counters = "Metrics (counting passes after the timed ones)";
  app.add_option("--metrics,--aic-metrics", metrics,
                 "counter groups, \"a,b\": BasicInfo (the times, always), L2Cache, Memory, "
                 "Instructions, HostActivity, or Default for all; each counted in passes of its "
                 "own after the timed ones")
      ->group(counters);
  app.add_option("--metrics-backend", metrics_backend,
                 "who counts: perf (this host's counters), sim (callgrind's simulated caches, "
                 "deterministic) or auto (perf where the host has a PMU, sim otherwise; "
                 "HostActivity always perf)")
      ->check(CLI::IsMember({"auto", "perf", "sim"}))
      ->group(counters);
  app.add_option("--cache-model", cache_model,
                 "LEVEL=SIZE[,WAYS[,LINE]], LEVEL I1, D1 or LL: the simulated cache (sim) in place "
                 "of the device's, e.g. LL=4M,16,64 (repeatable)")
      ->group(counters);
  app.add_flag("--list-metrics", options.list_metrics,
               "print each group, its columns and who can count it on the device, and exit")
      ->group(counters);
  // Hidden: the run under the simulator.
  app.add_option("--counting-child", options.counting_child)->group("");
  app.set_version_flag("--version", std::string("msprof-replay ") + trace::kToolVersion);
  app.add_option("--output", options.output, "folder for the OPPROF_* result (default .)");
  app.add_option("--format", format, "what goes to stdout: table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    exit_code = app.exit(e);
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + "; run msprof-replay --help");
  }
  if (options.trace.empty() && !options.list_devices && !options.list_metrics) {
    throw UsageError("no trace given; run msprof-replay TRACE [options], see --help");
  }
  options.filter.include = patterns_of("--include", include);
  options.filter.exclude = patterns_of("--exclude", exclude);
  if (options.output.empty()) {
    throw UsageError("--output '' names no folder; give a folder or leave the option out (.)");
  }
  if (!options.list_devices && !options.list_ranges && !options.list_metrics &&
      options.counting_child.empty())
    check_output_folder(options.output);
  if (!metrics.empty()) {
    options.metrics_default = parse_metric_groups(metrics) == all_metric_groups() &&
                              (metrics.find("Default") != std::string::npos ||
                               metrics.find("default") != std::string::npos);
    for (const MetricGroup group : parse_metric_groups(metrics)) {
      if (group != MetricGroup::BasicInfo) options.replay.metrics.push_back(group);
    }
  }
  options.replay.metrics_backend = metrics_backend == "perf"  ? CounterBackendChoice::Perf
                                   : metrics_backend == "sim" ? CounterBackendChoice::Sim
                                                              : CounterBackendChoice::Auto;
  for (const auto& spec : cache_model) add_cache_model_spec(options.replay.cache_model, spec);
  options.replay.mode = mode == "kernel" ? ReplayMode::Kernel : ReplayMode::Range;
  options.replay.cache_control = cache == "none" ? CacheControl::None : CacheControl::All;
  if (!cache_size.empty()) options.replay.cache_bytes = size_value("--cache-size", cache_size);
  if (!tolerance.empty()) options.replay.tolerance = tolerance_value(tolerance);
  options.replay.restore = restore == "copy"    ? RestorePolicy::Copy
                           : restore == "trace" ? RestorePolicy::Trace
                                                : RestorePolicy::Auto;
  if (!memory_limit.empty())
    options.replay.memory_limit = size_value("--memory-limit", memory_limit);
  options.replay.variants = expand_variants(workbench_request(bench));
  options.replay.allow_global_size_change = bench.allow_global_size_change;
  for (const auto& name : split_patterns(allow_nondeterministic)) {
    if (name == "all") {
      options.replay.allow_all_nondeterministic = true;
    } else {
      options.replay.allow_nondeterministic.push_back(name);
    }
  }
  if (!allow_nondeterministic.empty() && !options.replay.allow_all_nondeterministic &&
      options.replay.allow_nondeterministic.empty()) {
    throw UsageError(
        "--allow-nondeterministic names no buffer; give capture ids, argument names or 'all'");
  }
  options.replay.thread_control = threads == "none" ? ThreadControl::None : ThreadControl::Pin;
  if (thread_option->count() == 0) {
    options.replay.thread_control =
        opencl::thread_control_from_environment().value_or(options.replay.thread_control);
  }
  options.replay.verify = verify == "off"    ? VerifyMode::Off
                          : verify == "each" ? VerifyMode::Each
                                             : VerifyMode::First;
  options.format = format == "csv"    ? OutputFormat::Csv
                   : format == "json" ? OutputFormat::Json
                                      : OutputFormat::Table;
  return true;
}

}  // namespace msprof::replay::cli
