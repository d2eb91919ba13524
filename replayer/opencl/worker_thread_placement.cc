#include "replayer/opencl/worker_thread_placement.h"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace msprof::replay::opencl {

namespace {

constexpr const char* kPoclAffinity = "POCL_AFFINITY";

// The CPUs thread `tid` may run on (0: the calling thread); false when it
// cannot be read (a thread that ended while we looked).
bool allowed_cpus(pid_t tid, cpu_set_t& allowed) {
  CPU_ZERO(&allowed);
  return ::sched_getaffinity(tid, sizeof allowed, &allowed) == 0;
}

}  // namespace

bool may_use_every_cpu() {
  cpu_set_t allowed;
  if (!allowed_cpus(0, allowed)) return false;
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (online <= 0 || online > CPU_SETSIZE || CPU_COUNT(&allowed) != online) return false;
  for (long cpu = 0; cpu < online; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) return false;
  }
  return true;
}

void request_thread_control(ThreadControl control) {
  const bool pin = control == ThreadControl::Pin && may_use_every_cpu();
  ::setenv(kPoclAffinity, pin ? "1" : "0", 1);
}

std::optional<ThreadControl> thread_control_from_environment() {
  const char* value = std::getenv(kPoclAffinity);
  if (value == nullptr) return std::nullopt;
  return value[0] == '1' ? ThreadControl::Pin : ThreadControl::None;
}

ThreadPinning observe_thread_pinning() {
  ThreadPinning observed;
  observed.may_use_every_cpu = may_use_every_cpu();
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    cpu_set_t allowed;
    const auto tid = static_cast<pid_t>(std::strtol(task.path().filename().c_str(), nullptr, 10));
    if (tid > 0 && allowed_cpus(tid, allowed) && CPU_COUNT(&allowed) == 1) {
      ++observed.pinned_threads;
    }
  }
  return observed;
}

std::string describe_thread_placement(ThreadControl asked, const ThreadPinning& observed) {
  if (!observed.may_use_every_cpu) {
    return "worker threads placed by the OS within the CPUs this process may use (taskset or "
           "a cpuset): not pinned, as PoCL would pin them to CPUs 0 to n-1";
  }
  if (observed.pinned_threads > 0) {
    return std::to_string(observed.pinned_threads) + " worker thread" +
           (observed.pinned_threads == 1 ? "" : "s") + " pinned one per core";
  }
  if (asked == ThreadControl::Pin) {
    return "worker threads placed by the OS: the driver did not pin them (only PoCL does, when "
           "POCL_AFFINITY=1 is set before it loads)";
  }
  return "worker threads placed by the OS (thread control none)";
}

}  // namespace msprof::replay::opencl
