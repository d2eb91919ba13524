#include "replayer/cli/metrics_plan.h"

#include "replayer/callgrind/sim_cache_model.h"
#include "replayer/callgrind/simulated_counts.h"
#include "replayer/core/replay_error.h"
#include "replayer/perf/perf_access.h"

namespace msprof::replay::cli {

namespace {

bool hardware_group(MetricGroup group) {
  return group == MetricGroup::L2Cache || group == MetricGroup::Memory ||
         group == MetricGroup::Instructions;
}

std::string device_text(const DeviceDescription& d) {
  return "device " + std::to_string(d.index) + " (" + d.name + ")";
}

// The devices, by index, that `fits` accepts, for an error message.
template <typename Fits>
std::string usable_devices(const std::vector<DeviceDescription>& devices, Fits fits) {
  std::string list;
  for (const auto& d : devices) {
    if (fits(d)) list += (list.empty() ? "" : ", ") + device_text(d);
  }
  return list.empty() ? "none is installed here (PoCL's CPU device is: Debian pocl-opencl-icd)"
                      : list;
}

std::string why_perf_cannot(const DeviceDescription& device,
                            const std::vector<DeviceDescription>& devices) {
  return "perf counts the threads of a CPU device that runs kernels in this process, and " +
         device_text(device) + " is not one; use --device with one that is: " +
         usable_devices(devices, [](const DeviceDescription& d) { return d.runs_in_process; });
}

std::string why_sim_cannot(const DeviceDescription& device,
                           const std::vector<DeviceDescription>& devices) {
  return "sim tells a CPU device's kernels apart by the functions PoCL compiles them to, and " +
         device_text(device) + " is not PoCL's; use --device with one that is: " +
         usable_devices(devices,
                        [](const DeviceDescription& d) { return d.names_kernel_functions; });
}

}  // namespace

CounterAvailability probe_counter_availability() {
  CounterAvailability available;
  available.hardware_refusal = perf::probe_hardware_counters().refusal;
  available.software_refusal = perf::probe_software_counters().refusal;
#if defined(__SANITIZE_ADDRESS__)
  available.simulator_refusal =
      "this msprof-replay is an AddressSanitizer build, which valgrind cannot run; use a release "
      "build for --metrics-backend sim";
  return available;
#endif
  try {
    available.valgrind = find_valgrind().program;
  } catch (const ReplayError& e) {
    available.simulator_refusal = e.what();
  }
  return available;
}

namespace {

// The backend that counts `group` here; UsageError when none can.
bool counted_by_perf(MetricGroup group, const ReplayOptions& options,
                     const DeviceDescription& device, const CounterAvailability& available,
                     const std::vector<DeviceDescription>& devices) {
  const std::string name(metric_group_name(group));
  const auto choice = options.metrics_backend;
  bool use_perf = false;
  if (group == MetricGroup::HostActivity) {
    if (choice == CounterBackendChoice::Sim) {
      throw UsageError(
          "HostActivity is counted by perf alone (the software counters of the "
          "device's threads); use --metrics-backend perf or auto, or leave "
          "HostActivity out");
    }
    use_perf = true;
  } else if (hardware_group(group)) {
    use_perf = choice == CounterBackendChoice::Perf ||
               (choice == CounterBackendChoice::Auto && available.hardware_refusal.empty() &&
                device.runs_in_process);
  }
  if (use_perf) {
    if (!device.runs_in_process) throw UsageError(name + ": " + why_perf_cannot(device, devices));
    const std::string& refusal = group == MetricGroup::HostActivity ? available.software_refusal
                                                                    : available.hardware_refusal;
    if (!refusal.empty()) throw UsageError(name + ": " + refusal);
    return true;
  }
  if (!device.names_kernel_functions)
    throw UsageError(name + ": " + why_sim_cannot(device, devices));
  if (!available.simulator_refusal.empty())
    throw UsageError(name + ": " + available.simulator_refusal);
  return false;
}

}  // namespace

MetricsPlan plan_metrics(const ReplayOptions& options, const DeviceDescription& device,
                         const CounterAvailability& available,
                         const std::vector<DeviceDescription>& devices, bool skip_uncountable) {
  MetricsPlan plan;
  std::string first_refusal;
  for (const MetricGroup group : options.metrics) {
    try {
      (counted_by_perf(group, options, device, available, devices) ? plan.perf : plan.sim)
          .push_back(group);
    } catch (const UsageError& e) {
      if (!skip_uncountable) throw;
      if (first_refusal.empty()) first_refusal = e.what();
      plan.skipped.push_back(std::string(metric_group_name(group)) +
                             " left out of Default: " + e.what());
    }
  }
  if (plan.empty() && !first_refusal.empty()) throw UsageError(first_refusal);
  return plan;
}

std::string metrics_listing(const DeviceDescription& device, const CounterAvailability& available) {
  std::string out = "metric groups on " + device_text(device) + ":\n";
  out += "BasicInfo: the timed passes (OpBasicInfo.csv, PassDurations.csv); always collected\n";
  for (const MetricGroup group : all_metric_groups()) {
    if (group == MetricGroup::BasicInfo) continue;
    std::string who;
    const bool perf_possible = device.runs_in_process && (group == MetricGroup::HostActivity
                                                              ? available.software_refusal.empty()
                                                              : available.hardware_refusal.empty());
    if (perf_possible) who += "perf";
    if (is_simulated(group) && device.names_kernel_functions && available.simulator_refusal.empty())
      who += who.empty() ? "sim" : ", sim";
    if (who.empty()) who = "no backend on this device";
    out += std::string(metric_group_name(group)) + " (" + std::string(metric_group_name(group)) +
           ".csv), counted here by: " + who + "\n";
    for (const auto& column : metric_columns(group))
      out += "  " + std::string(column.name) + ": " + std::string(column.meaning) + "\n";
  }
  if (!available.hardware_refusal.empty())
    out += "perf, hardware events: " + available.hardware_refusal + "\n";
  if (!available.software_refusal.empty())
    out += "perf, software events: " + available.software_refusal + "\n";
  if (!available.simulator_refusal.empty()) out += "sim: " + available.simulator_refusal + "\n";
  return out;
}

}  // namespace msprof::replay::cli
