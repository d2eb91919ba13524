#include "replayer/cli/cli_options.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>

#include "replayer/core/replay_error.h"
#include "replayer/opencl/worker_thread_placement.h"

namespace msprof::replay::cli {

bool parse_command_line(int argc, char** argv, CliOptions& options, int& exit_code) {
  CLI::App app{"Replays the ranges of a trace.fb on a device and measures them.", "msprof-replay"};
  std::vector<std::string> include, exclude;
  std::string mode = "range", cache = "all", threads = "pin", verify = "on", format = "table";
  std::uint64_t cache_size = 0;
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
                 "instead of what the device reports, or of evicting the range's lines")
      ->transform(CLI::AsSizeValue(false));
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
  if (options.trace.empty() && !options.list_devices) {
    throw UsageError("no trace given; run msprof-replay TRACE [options], see --help");
  }
  options.filter.include = split_patterns(include);
  options.filter.exclude = split_patterns(exclude);
  options.replay.mode = mode == "kernel" ? ReplayMode::Kernel : ReplayMode::Range;
  options.replay.cache_control = cache == "none" ? CacheControl::None : CacheControl::All;
  if (cache_size != 0) options.replay.cache_bytes = cache_size;
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
