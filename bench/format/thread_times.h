#pragma once

#include <map>
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
// The same, summed by thread name (/proc/self/task/*/comm): which of the
// writer's threads (msprof-zstd, msprof-write, msprof-io) spent the time.
std::map<std::string, ThreadTimes> other_threads_by_name();

}  // namespace msprof::bench
