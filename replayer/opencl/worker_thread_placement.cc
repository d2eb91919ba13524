#include "replayer/opencl/worker_thread_placement.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace msprof::replay::opencl {

namespace {

constexpr const char* kPoclAffinity = "POCL_AFFINITY";

// The Cpus_allowed_list line of a /proc status file; empty when unreadable
// (a thread that ended while we looked).
std::string allowed_cpus(const std::filesystem::path& status) {
  std::ifstream in(status);
  std::string line;
  constexpr std::string_view key = "Cpus_allowed_list:";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto begin = line.find_first_not_of(" \t", key.size());
    return begin == std::string::npos ? "" : line.substr(begin);
  }
  return "";
}

}  // namespace

void request_thread_control(ThreadControl control) {
  ::setenv(kPoclAffinity, control == ThreadControl::Pin ? "1" : "0", 1);
}

std::optional<ThreadControl> thread_control_from_environment() {
  const char* value = std::getenv(kPoclAffinity);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string_view(value) == "0" ? ThreadControl::None : ThreadControl::Pin;
}

bool names_one_cpu(std::string_view cpu_list) {
  if (cpu_list.empty()) return false;
  for (const char c : cpu_list) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

ThreadPinning observe_thread_pinning() {
  ThreadPinning observed;
  observed.process_on_one_cpu = names_one_cpu(allowed_cpus("/proc/self/status"));
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    if (names_one_cpu(allowed_cpus(task.path() / "status"))) ++observed.pinned_threads;
  }
  return observed;
}

std::string describe_thread_placement(ThreadControl asked, const ThreadPinning& observed) {
  if (observed.process_on_one_cpu) return "every thread on the one CPU this process may use";
  if (observed.pinned_threads > 0) {
    return std::to_string(observed.pinned_threads) + " worker thread" +
           (observed.pinned_threads == 1 ? "" : "s") + " pinned one per core";
  }
  if (asked == ThreadControl::Pin) {
    return "worker threads placed by the OS: the driver did not pin them (PoCL does, with "
           "POCL_AFFINITY)";
  }
  return "worker threads placed by the OS (thread control none)";
}

}  // namespace msprof::replay::opencl
