#pragma once

#include <string>

namespace msprof::bench {

// CPU time and time spent waiting for a CPU (run-queue delay) of threads of
// this process, from /proc/self/task/*/schedstat. The wait shows how much of a
// run was lost to other programs on the machine rather than to the code.
struct ThreadTimes {
  double cpu_s = 0;
  double wait_s = 0;
};

ThreadTimes calling_thread_times();
// Every thread of the process but the calling one: the writer's workers.
ThreadTimes other_threads_times();

}  // namespace msprof::bench
