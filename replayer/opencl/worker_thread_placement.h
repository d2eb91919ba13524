#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "replayer/core/replay_options.h"

namespace msprof::replay::opencl {

// Where a CPU device runs its kernels: on worker threads of the driver, in
// this process. On a host with few cores the OS now and then puts two of
// PoCL's workers on one core (the waker's, after the replayer's own thread
// ran alone to restore or clear the cache), and a memory-bound kernel then
// takes twice as long until the load balancer moves one of them: passes
// doubled at random, natively as in a replay. One worker pinned per core
// does not move (bench/replay/README.md has the figures).
//
// PoCL pins worker i to CPU i whatever CPUs the process may use, and ends
// the process when the OS refuses (a cpuset): pinning is asked for only
// when this process may use every online CPU.
bool may_use_every_cpu();

// Asks the driver to pin its workers (PoCL reads POCL_AFFINITY when its
// devices are first listed) where may_use_every_cpu(), or not to. Call it
// before the first OpenCL call of the process: a driver already loaded
// keeps its threads as they are.
void request_thread_control(ThreadControl control);

// What POCL_AFFINITY in the environment asks for, when it is set, read as
// PoCL reads it: pinning when it starts with '1'.
std::optional<ThreadControl> thread_control_from_environment();

// What the OS says of this process's threads (listed in /proc/self/task).
struct ThreadPinning {
  std::size_t pinned_threads = 0;  // allowed on one CPU only
  bool may_use_every_cpu = true;   // else pinning was not asked for
};
ThreadPinning observe_thread_pinning();

// The placement of a CPU device's workers in words, as observed; `asked` is
// what the options requested.
std::string describe_thread_placement(ThreadControl asked, const ThreadPinning& observed);

}  // namespace msprof::replay::opencl
