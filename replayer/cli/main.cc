// msprof-replay: replays the ranges of a trace on a device and measures them.
// Thin: parse, open, pick the device, run the session, write the results.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>

#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "printable_text/printable_text.h"
#include "replayer/callgrind/sim_cache_model.h"
#include "replayer/cli/cli_options.h"
#include "replayer/cli/counting_child.h"
#include "replayer/cli/metrics_plan.h"
#include "replayer/cli/simulated_counting.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/results/result_folder.h"
#include "replayer/core/results/summary_csv.h"
#include "replayer/core/results/summary_json.h"
#include "replayer/core/results/terminal_report.h"
#include "replayer/core/session/replay_session.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/opencl_device_list.h"
#include "replayer/opencl/worker_thread_placement.h"
#include "replayer/perf/perf_counters.h"

namespace {

using namespace msprof;
using namespace msprof::replay;

constexpr int kExitError = 1;
constexpr int kExitNothingReplayed = 2;
constexpr int kExitVerificationFailed = 3;

// Every message is one line, whatever names from the trace it quotes.
std::string one_line(const std::string& text) {
  return printable(text);
}

// Format errors may carry their own advice after "; "; add ours only when not.
std::string with_advice(const std::string& what, const std::string& advice) {
  return what.find("; ") != std::string::npos ? what : what + "; " + advice;
}

void say(const std::string& kind, const std::string& text) {
  std::cerr << "msprof-replay: " << kind << ": " << one_line(text) << "\n";
}

void print_devices(const std::vector<opencl::OpenClDeviceEntry>& devices) {
  for (const auto& d : devices) {
    const auto& desc = d.description;
    std::cout << desc.index << "  " << desc.name << "  (" << desc.platform << ", driver "
              << desc.driver << ", " << (desc.global_mem_bytes >> 20) << " MiB, cache "
              << (desc.global_cache_bytes >> 10) << " KiB)\n";
  }
}

std::vector<DeviceDescription> descriptions(const std::vector<opencl::OpenClDeviceEntry>& devices) {
  std::vector<DeviceDescription> out;
  for (const auto& d : devices) out.push_back(d.description);
  return out;
}

// The groups in the order every result lists them.
void order_metrics(MetricsSummary& m) {
  std::vector<MetricGroup> groups;
  std::vector<std::string> backends;
  for (const MetricGroup group : all_metric_groups()) {
    if (const std::string* backend = m.backend_of(group)) {
      groups.push_back(group);
      backends.push_back(*backend);
    }
  }
  m.groups = std::move(groups);
  m.backends = std::move(backends);
}

int run_checked(int argc, char** argv);

// The run under the simulator starts its stack at the same place modulo
// 2 MiB, whatever the size of its environment and arguments (which sit
// above it and move it): stack addresses, the kernels' private memory
// among them, would otherwise fall in other simulated cache sets from one
// environment to the next, and the counts would change with a path's
// length.
[[gnu::noinline]] int run_with_aligned_stack(int argc, char** argv) {
  constexpr std::uintptr_t kSpan = 2u << 20;
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  char* pad = static_cast<char*>(__builtin_alloca(here % kSpan + 64));
  asm volatile("" : : "r"(pad) : "memory");
  return run_checked(argc, argv);
}

// The run under the simulator reports its one-line failure to its parent,
// which says it, instead of printing it beside the parent's own lines.
int run(int argc, char** argv) {
  std::string child_folder;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--counting-child") child_folder = argv[i + 1];
  }
  if (child_folder.empty()) return run_checked(argc, argv);
  try {
    return run_with_aligned_stack(argc, argv);
  } catch (const std::exception& e) {
    cli::report_child_error(child_folder, e.what());
  }
  return kExitError;
}

int run_checked(int argc, char** argv) {
  cli::CliOptions options;
  int exit_code = 0;
  if (!cli::parse_command_line(argc, argv, options, exit_code)) return exit_code;
  // Before anything loads the driver: it reads this once, when it starts.
  opencl::request_thread_control(options.replay.thread_control);

  if (options.list_devices) {
    print_devices(opencl::list_opencl_devices());
    return 0;
  }
  if (options.list_metrics && options.trace.empty()) {
    const auto devices = opencl::list_opencl_devices();
    std::string note;
    const auto& entry = opencl::choose_device(devices, options.device, trace::TraceInfo{}, note);
    std::cout << cli::metrics_listing(entry.description, cli::probe_counter_availability());
    return 0;
  }
  const trace::TraceReader reader(options.trace);
  // Said once, by the parent, not again by the run under the simulator.
  if (options.counting_child.empty()) {
    for (const auto& warning : reader.warnings()) say("warning", warning);
  }
  const TraceCatalog catalog(reader);
  if (options.list_ranges) {
    std::cout << range_listing(catalog.ranges());
    return 0;
  }
  const std::string api = catalog.info().api;
  if (api == "none") {
    throw UsageError("the trace holds no device work: the program made no OpenCL call while " +
                     options.trace +
                     " was recorded; record one that runs its kernels through OpenCL "
                     "(msprof-analyze info lists this trace's ranges)");
  }
  const auto selection = select_ranges(catalog.ranges(), options.filter, options.trace);
  if (selection.empty()) {
    // No result folder: an empty one would look like a replay that ran.
    say("error", options.filter.exclude.empty()
                     ? "no range selected: the trace holds no range; record the program with "
                       "an mstx or NVTX range around its work"
                     : "no range selected: --exclude leaves none of the trace's " +
                           std::to_string(catalog.ranges().size()) +
                           " ranges; exclude fewer (--list shows every range)");
    return kExitNothingReplayed;
  }
  if (!api.empty() && api != "opencl") {
    throw UsageError("the trace was recorded with the " + api +
                     " API, and this msprof-replay has only the OpenCL backend; build it with "
                     "the " +
                     api + " backend");
  }
  const auto devices = opencl::list_opencl_devices();
  if (!options.counting_child.empty()) {
    // Under the simulator the one PoCL device is the one its parent asked
    // for, under another name (simulating_environment()).
    const auto pocl = std::find_if(devices.begin(), devices.end(), [](const auto& d) {
      return d.description.names_kernel_functions;
    });
    if (pocl == devices.end()) throw UsageError("no PoCL device under the simulator");
    opencl::OpenClDevice device(*pocl);
    return cli::run_counting_child(reader, catalog, device, options.replay, selection,
                                   options.counting_child);
  }
  std::string note;
  const auto& entry = opencl::choose_device(devices, options.device, catalog.info(), note);
  if (!note.empty()) say("note", note);
  if (options.list_metrics) {
    std::cout << cli::metrics_listing(entry.description, cli::probe_counter_availability());
    return 0;
  }
  opencl::OpenClDevice device(entry);

  // Said before any range is replayed: a group nobody here can count.
  cli::MetricsPlan metrics;
  cli::CounterAvailability counters_here;
  SimulatedCacheModel cache_model;
  if (!options.replay.metrics.empty()) {
    counters_here = cli::probe_counter_availability();
    metrics = cli::plan_metrics(options.replay, entry.description, counters_here,
                                descriptions(devices), options.metrics_default);
    for (const auto& skipped : metrics.skipped) say("note", skipped);
    if (!metrics.perf.empty()) perf::PerfCounters::check_groups(metrics.perf);
    if (!metrics.sim.empty()) {
      cache_model = host_cache_model();
      cache_model.model = complete_cache_model(options.replay.cache_model, cache_model.model);
    }
  }
  if (!options.replay.cache_model.empty() && metrics.sim.empty())
    say("note", "--cache-model applies to simulated counts only, and none are collected");

  ReplaySession session(reader, catalog, device, options.replay,
                        [](const std::string& what) { say("info", what); });
  std::unique_ptr<perf::PerfCounters> perf_counters;
  if (!metrics.perf.empty()) {
    perf_counters = std::make_unique<perf::PerfCounters>();
    session.count_with(*perf_counters, metrics.perf);
  }
  ReplayResult result = session.run(selection);
  std::string simulation_error;
  if (!metrics.sim.empty() && result.any_replayed()) {
    say("info",
        "counting under the simulator (callgrind): the counting passes of every range "
        "again, tens of times slower than natively");
    simulation_error = cli::count_by_simulation(counters_here.valgrind,
                                                std::vector<std::string>(argv + 1, argv + argc),
                                                metrics.sim, cache_model.model, result);
    if (simulation_error.empty()) {
      for (const auto& n : cache_model.notes) result.metrics.notes.push_back(n);
    } else {
      result.metrics.notes.push_back("no simulated counts: " + simulation_error);
    }
  }
  order_metrics(result.metrics);
  for (const auto& n : result.notes) say("note", n);
  const auto folder = write_result_folder(result, options.output);

  switch (options.format) {
    case cli::OutputFormat::Table:
      std::cout << terminal_table(result);
      break;
    case cli::OutputFormat::Csv:
      std::cout << summary_csv(result);
      break;
    case cli::OutputFormat::Json:
      std::cout << summary_json(result);
      break;
  }
  say("info", "results in " + folder.string());
  for (const auto& r : result.ranges) {
    for (const auto& v : r.variants) {
      if (!v.failed) continue;
      say("error", "range '" + r.name + "' with " + v.label + ": " + v.reason);
      // The driver's log as it wrote it: its line numbers point into the file.
      if (!v.build_log.empty()) std::cerr << v.build_log << "\n";
    }
  }
  if (!result.any_replayed()) {
    say("error", "no range could be replayed; see the reasons above (--list shows every range)");
    return kExitNothingReplayed;
  }
  if (!simulation_error.empty()) {
    // The timed results are written; the counts asked for are not there.
    say("error", simulation_error + "; the timed results are in " + folder.string() +
                     ", without simulated counts");
    return kExitError;
  }
  if (result.any_failure()) {
    say("error",
        "a range failed, differs from its recorded final state, or is nondeterministic in a "
        "buffer --allow-nondeterministic does not name; see " +
            (folder / "summary.json").string());
    return kExitVerificationFailed;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const trace::UnsupportedVersionError& e) {
    say("error", with_advice(e.what(), "use a newer msprof-replay"));
  } catch (const trace::IoError& e) {
    say("error", with_advice(e.what(), "check the path"));
  } catch (const trace::TraceError& e) {
    say("error",
        std::string(e.what()) +
            "; the file is damaged or not a trace (msprof-analyze info shows what is left)");
  } catch (const msprof::replay::ReplayError& e) {
    say("error", e.what());
  } catch (const std::exception& e) {
    say("error", std::string(e.what()) + "; please report this");
  }
  return kExitError;
}
