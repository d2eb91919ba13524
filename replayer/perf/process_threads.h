#pragma once

#include <sys/types.h>

#include <vector>

namespace msprof::replay::perf {

// Every thread of this process but the calling one, as /proc/self/task
// lists them now, in ascending id order: a CPU device's driver runs kernels
// on worker threads of its own, and the replayer's thread only enqueues and
// waits. DeviceError when the listing cannot be read.
std::vector<pid_t> other_threads_of_this_process();

}  // namespace msprof::replay::perf
