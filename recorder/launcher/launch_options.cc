#include "recorder/launcher/launch_options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <limits>

#include "format/trace_version.h"
#include "recorder/core/name_filter.h"
#include "recorder/core/recorder_config.h"

namespace msprof::record {

std::uint64_t parse_size(const std::string& text) {
  std::size_t used = 0;
  std::uint64_t value = 0;
  // stoull reads "-1" as 2^64-1: a sign is never a size.
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) {
    throw UsageError("size '" + text + "' is not a positive number; write e.g. 512M or 2G");
  }
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    throw UsageError("size '" + text + "' is not a number; write e.g. 512M or 2G");
  }
  const std::string unit = text.substr(used);
  unsigned shift = 0;
  if (unit == "K" || unit == "k") {
    shift = 10;
  } else if (unit == "M" || unit == "m") {
    shift = 20;
  } else if (unit == "G" || unit == "g") {
    shift = 30;
  } else if (!unit.empty()) {
    throw UsageError("size '" + text + "' has an unknown unit; use K, M or G");
  }
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
    throw UsageError("size '" + text + "' is too large; write e.g. 512M or 2G");
  }
  return value << shift;
}

namespace {

bool on_off(const std::string& value, const char* option) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw UsageError(std::string(option) + " takes on or off, not '" + value + "'");
}

}  // namespace

ParsedLaunch parse_launch_options(int argc, char** argv) {
  ParsedLaunch parsed;
  LaunchOptions& o = parsed.options;
  CLI::App app{
      "Runs PROGRAM and records the device work of its first execution of every mstx/NVTX range.",
      "msprof-record"};
  app.prefix_command();
  app.set_version_flag("--version", std::string("msprof-record ") + trace::kToolVersion);
  const std::string default_bound = std::to_string(RecorderConfig::kDefaultMemoryBound >> 20) + "M";
  std::string kill = "off", final_state = "on", memory_bound = default_bound;
  app.add_option("-o,--output", o.output, "trace file to write (default trace.fb)");
  app.add_flag("-f,--force", o.force, "overwrite an existing output file");
  app.add_option(
      "--include,--mstx-include", o.include,
      "record only ranges whose name matches: names separated by '|', with * ? [..] wildcards");
  app.add_option("--exclude", o.exclude, "do not record ranges whose name matches (same syntax)");
  app.add_option("--kill", kill,
                 "on: end the program once every --include pattern has a captured range");
  app.add_option("--final-state", final_state,
                 "on|off: snapshot the buffers a range touched at its end");
  app.add_option("--compression-level", o.compression_level, "zstd level, 1 (fast) to 19 (small)")
      ->check(CLI::Range(1, 19));
  app.add_option("--min-saving", o.min_saving,
                 "store a snapshot chunk compressed only when that saves at least this percent of "
                 "it, 0 to " +
                     std::to_string(RecorderConfig::kMaxMinSaving) + " (default " +
                     std::to_string(RecorderConfig::kDefaultMinSaving) +
                     "; 0: whenever it saves 3% or more)")
      ->check(CLI::Range(0u, RecorderConfig::kMaxMinSaving));
  app.add_option(
      "--memory-bound", memory_bound,
      "snapshot bytes in flight before the program waits (default " + default_bound + ")");
  app.add_option("--compression-threads", o.compression_threads,
                 "threads compressing snapshots beside the program, 1 to 16 (default 1)")
      ->check(CLI::Range(1u, RecorderConfig::kMaxWorkers));
  app.add_flag("--keep-program-caches", o.keep_program_caches,
               "leave the program caches of pyopencl, tinygrad and OpenCV on (programs they load "
               "from binaries the process did not build then have no source in the trace)");
  app.add_flag("--program-binaries", o.program_binaries,
               "also store the device binaries of programs built from source or IL (some "
               "drivers, PoCL among them, then compile every kernel of each program the "
               "ranges use, in the program)");
  app.add_flag("--write-behind", o.write_behind,
               "let a range's end return before its record is in the trace (faster where "
               "ranges keep large final states; a kill moments after a range's end can then "
               "lose that range)");
  app.add_flag("-q,--quiet", o.quiet, "print errors only");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    parsed.exit_now = true;
    return parsed;
  } catch (const CLI::CallForVersion&) {
    std::cout << "msprof-record " << trace::kToolVersion << "\n";
    parsed.exit_now = true;
    return parsed;
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + "; see msprof-record --help");
  }
  o.command = app.remaining();
  if (!o.command.empty() && o.command.front() == "--") o.command.erase(o.command.begin());
  if (o.command.empty())
    throw UsageError("no program to run; usage: msprof-record [options] [--] PROGRAM [ARGS...]");
  if (o.output.empty()) {
    throw UsageError("-o '' names no file; give the trace file to write (default trace.fb)");
  }
  o.kill = on_off(kill, "--kill");
  o.final_state = on_off(final_state, "--final-state");
  o.memory_bound = parse_size(memory_bound);
  if (o.memory_bound < RecorderConfig::kMinMemoryBound) {
    throw UsageError("--memory-bound " + memory_bound + " is too small; use at least " +
                     std::to_string(RecorderConfig::kMinMemoryBound >> 20) + "M");
  }
  try {
    if (!o.include.empty()) NameFilter::parse(o.include);
    if (!o.exclude.empty()) NameFilter::parse(o.exclude);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (o.kill && o.include.empty()) {
    throw UsageError("--kill on needs --include, to know when every wanted range is captured");
  }
  return parsed;
}

}  // namespace msprof::record
