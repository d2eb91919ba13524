#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

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
// Asks the driver to pin its workers (PoCL reads POCL_AFFINITY when its
// devices are first listed), or not to. Call it before the first OpenCL
// call of the process: a driver already loaded keeps its threads as they are.
void request_thread_control(ThreadControl control);

// What POCL_AFFINITY in the environment asks for, when it is set: the user
// chose it before we were asked.
std::optional<ThreadControl> thread_control_from_environment();

// Whether a Cpus_allowed_list of /proc ("3", "0-1", "0,2-5") names exactly
// one CPU.
bool names_one_cpu(std::string_view cpu_list);

// Threads of this process allowed on one CPU only, and whether the process
// as a whole may run on more than one (else every thread is "pinned").
struct ThreadPinning {
  std::size_t pinned_threads = 0;
  bool process_on_one_cpu = false;
};
ThreadPinning observe_thread_pinning();

// The placement of a CPU device's workers in words, as observed; `asked` is
// what was requested.
std::string describe_thread_placement(ThreadControl asked, const ThreadPinning& observed);

}  // namespace msprof::replay::opencl
